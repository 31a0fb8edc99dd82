/**
 * The query capability's top level: the request ({@link QueryRequest}) and its planning, which every
 * job of the capability and the stream capability share — a dataset's public facts, a request planned
 * into a mechanism with its exact cost from public parameters only, planning refusals as problem
 * details, the worker's rebuild of a stored spec ({@link QueryPlans}), the public artifacts a plan
 * resolves ({@link ServiceArtifacts}), the gate of free planning work ({@link FreePlanning}) and
 * what the transparency record needs from planning ({@link Transparency}), and the result document's
 * type, one record per result kind ({@link QueryResult}), which subscriptions write too. Other capabilities use
 * this package only; the sub-packages hold one job each (docs/architecture.md, "Inside query").
 */
@NullMarked
package io.privmat.query;

import org.jspecify.annotations.NullMarked;
