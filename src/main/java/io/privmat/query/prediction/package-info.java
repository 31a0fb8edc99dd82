/**
 * The data owner's side of joint DP (docs/mechanisms/completion.md, "Delivery"): each user's
 * completed row from a COMPLETION job's stored model and that user's own ratings, served to the
 * dataset's owner only.
 */
@NullMarked
package io.privmat.query.prediction;

import org.jspecify.annotations.NullMarked;
