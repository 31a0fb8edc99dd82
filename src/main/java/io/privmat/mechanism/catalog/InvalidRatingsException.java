package io.privmat.mechanism.catalog;

/**
 * Ratings that break the declared public parameters. Storage validates uploads with the same rules,
 * so a mechanism meets this only when a caller bypassed that validation; the exception then
 * surfaces before any noise is drawn or any release is made. Its message names the user's position
 * in the stream, the user id and the item, never a rating value (errors are a side channel).
 */
public final class InvalidRatingsException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** What was wrong. */
    public enum Reason {
        /** The same (user, item) pair appears twice. */
        DUPLICATE_ITEM,
        /** An item index outside [0, n). */
        UNKNOWN_ITEM,
        /** A rating outside [lo, hi], or not finite. */
        RATING_OUT_OF_RANGE,
        /** More ratings than the public per-user cap s (storage drops the excess by a value-blind rule). */
        TOO_MANY_RATINGS,
        /** User ids not strictly increasing within a pass (a user visited twice, or out of order). */
        USERS_NOT_INCREASING,
        /** count negative or larger than the arrays handed over. */
        MALFORMED_VISIT
    }

    private final Reason reason;
    private final long position;
    private final int user;
    private final int item;

    public InvalidRatingsException(Reason reason, long position, int user, int item) {
        super(message(reason, position, user, item));
        this.reason = reason;
        this.position = position;
        this.user = user;
        this.item = item;
    }

    private static String message(Reason reason, long position, int user, int item) {
        String where = (position >= 0 ? "user #" + position + " in the stream (id " + user + ")" : "user " + user)
                + (item >= 0 ? ", item " + item : "");
        return switch (reason) {
            case DUPLICATE_ITEM -> "duplicate (user, item) pair at " + where;
            case UNKNOWN_ITEM -> "item outside the declared universe at " + where;
            case RATING_OUT_OF_RANGE -> "rating outside the declared range at " + where;
            case TOO_MANY_RATINGS -> "more ratings than the per-user cap at " + where;
            case USERS_NOT_INCREASING -> "user ids not strictly increasing at " + where;
            case MALFORMED_VISIT -> "malformed visit (count and arrays disagree) at " + where;
        };
    }

    public Reason reason() {
        return reason;
    }

    /** The user's 0-based position in the pass, or −1 for a single user (predictions). */
    public long position() {
        return position;
    }

    public int user() {
        return user;
    }

    /** The offending item, or −1 when the problem is not about one item. */
    public int item() {
        return item;
    }
}
