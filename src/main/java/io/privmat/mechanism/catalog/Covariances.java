package io.privmat.mechanism.catalog;

/** Shared rules of the covariance-type mechanisms. */
final class Covariances {

    private Covariances() {}

    /**
     * The rank of the answer: PCA needs params.k in [1, d]; COVARIANCE returns the full matrix unless
     * the mechanism has a rank of its own ({@code covarianceDefault} &lt; d, EIGEN_SAMPLING).
     */
    static int rank(QueryKind kind, Params params, int d, int covarianceDefault) {
        Integer k = params.optionalInteger("k");
        if (k != null && k > d) {
            throw PlanningException.invalid("params.k", "[1, " + d + "]", "params.k must be an integer in [1, " + d + "]");
        }
        if (kind == QueryKind.PCA) {
            if (k == null) {
                throw PlanningException.invalid("params.k", "[1, " + d + "]", "PCA needs params.k in [1, " + d + "]");
            }
            return k;
        }
        if (k != null && covarianceDefault == d) {
            throw PlanningException.invalid("params.k", "absent", "COVARIANCE returns the full d×d matrix; "
                    + "params.k applies to PCA or EIGEN_SAMPLING");
        }
        return k != null ? k : covarianceDefault;
    }

    /** Eigenvalues are clamped to [0, n·B²] when n is public (post-processing), else only below. */
    static double upper(PublicFacts facts) {
        return facts.publicRows() == null ? Double.POSITIVE_INFINITY
                : facts.publicRows() * facts.rowNormBound() * facts.rowNormBound();
    }
}
