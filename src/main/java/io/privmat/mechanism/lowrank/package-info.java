/**
 * Private low-rank approximation and top singular vectors: randomized response (input
 * perturbation), Hardt–Roth's private range finder with pruning, the noisy power method, private
 * Oja, and pure-ε sampling on the unitary orbit (Mangoubi–Vishnoi). See docs/mechanisms/low-rank.md.
 */
@NullMarked
package io.privmat.mechanism.lowrank;

import org.jspecify.annotations.NullMarked;
