/**
 * The plan's stored documents, for query jobs and stream subscriptions alike: the versioned codec of
 * the stored spec ({@link io.privmat.plan.SpecDocument}), the stored loss document
 * ({@link io.privmat.plan.LossDocument}), and {@link io.privmat.plan.PlanDocuments}, the one service
 * that writes, hashes (idempotency), rebuilds and checks them (docs/architecture.md, "The plan
 * documents").
 */
@NullMarked
package io.privmat.plan;

import org.jspecify.annotations.NullMarked;
