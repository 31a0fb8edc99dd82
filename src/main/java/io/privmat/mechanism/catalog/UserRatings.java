package io.privmat.mechanism.catalog;

/** One user's ratings in canonical form: items ascending, centred values in [−h, h]. */
public record UserRatings(int user, int[] items, double[] centred) {

    public int count() {
        return items.length;
    }
}
