package io.privmat.mechanism.catalog;

/**
 * A declared sensitivity: the most the mechanism's pre-noise statistic can move between
 * neighbouring datasets, in the named norm. The mechanism contract tests check it empirically.
 *
 * @param statistic what moves (e.g. "Σᵢ xᵢ", "XᵀX")
 * @param norm "L1", "L2" or "Frobenius"
 * @param derivation the theorem or one-line proof
 */
public record Sensitivity(String statistic, String norm, double value, String derivation) {}
