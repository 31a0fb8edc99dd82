/**
 * Differentially private linear regression that spends its own budget: AdaSSP (Wang, UAI 2018), three
 * Gaussian releases composed. docs/mechanisms/analytics.md.
 */
@NullMarked
package io.privmat.mechanism.regression;

import org.jspecify.annotations.NullMarked;
