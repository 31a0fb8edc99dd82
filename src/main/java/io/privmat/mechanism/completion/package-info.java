/**
 * Private matrix completion for ratings (users × items with an observed set): private Frank–Wolfe
 * and private SVD (Jain, Thakkar, Thakurta 2018) and private alternating least squares (Chien et
 * al. 2021) under joint DP, and Hardt–Roth and randomized response under entry-level privacy.
 * See docs/mechanisms/completion.md.
 */
@NullMarked
package io.privmat.mechanism.completion;

import org.jspecify.annotations.NullMarked;
