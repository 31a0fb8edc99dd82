/**
 * The mechanism catalogue: every mechanism the service offers as a self-describing value — its
 * name, the query kinds it answers, its typed parameters with ranges, the neighbouring relations it
 * supports, its sensitivity, its privacy map into every loss view the budget filters need, the input
 * it reads, and one {@code release} that touches data. Pure Java. See docs/mechanisms/catalogue.md.
 */
@NullMarked
package io.privmat.mechanism.catalog;

import org.jspecify.annotations.NullMarked;
