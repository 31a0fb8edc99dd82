package io.privmat.mechanism.linear;

import io.privmat.mechanism.catalog.HistogramDomain;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PublicArtifacts;
import io.privmat.mechanism.catalog.WorkloadParam;
import io.privmat.mechanism.catalog.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * A canonical {@code params.workload} ({@link WorkloadSpec}, validated by {@link WorkloadParam})
 * built on a dataset's declared domain as the linear-query engine's {@link Workload}.
 */
public final class WorkloadBuilder {

    private WorkloadBuilder() {}

    /** A workload built on a dataset's domain, and its canonical form with what was resolved (CUSTOM). */
    public record Built(Workload workload, WorkloadSpec canonical) {}

    /**
     * Builds the workload of a canonical {@code params.workload} on the dataset's declared domain.
     *
     * @throws PlanningException 400 for names or values outside the domain, a CUSTOM workload that is
     *     missing, of another shape, or not the content the plan recorded; 422 (WORKLOAD_TOO_LARGE)
     *     over a size limit
     */
    public static Built build(WorkloadSpec canonical, HistogramDomain declared, PublicArtifacts artifacts) {
        String where = "params.workload";
        Domain domain = domain(declared);
        List<String> names = declared.names();
        try {
            Workload w;
            if (canonical instanceof WorkloadSpec.Identity) {
                w = Workload.identity(domain);
            } else if (canonical instanceof WorkloadSpec.Prefix p) {
                w = Workload.prefix(domain, indices(where + ".attributes", p.attributes(), names));
            } else if (canonical instanceof WorkloadSpec.AllRange a) {
                w = Workload.allRange(domain, indices(where + ".attributes", a.attributes(), names));
            } else if (canonical instanceof WorkloadSpec.Ranges r) {
                w = Workload.ranges(domain, boxes(where + ".boxes", r.boxes(), declared, domain));
            } else if (canonical instanceof WorkloadSpec.Marginals m) {
                w = marginals(where, m, names, domain);
            } else {
                return custom((WorkloadSpec.Custom) canonical, domain, artifacts);
            }
            return new Built(w, canonical);
        } catch (LinearQueryException e) {
            throw LinearQueries.problem(e);
        }
    }

    private static Workload marginals(String where, WorkloadSpec.Marginals m, List<String> names, Domain domain) {
        Integer k = m.k();
        if (k != null) {
            if (k > names.size()) {
                throw PlanningException.invalid(where + ".k", "[0, " + names.size() + "]", where
                        + ".k must be at most the number of attributes, " + names.size());
            }
            return Workload.marginals(domain, k);
        }
        List<List<String>> sets = java.util.Objects.requireNonNull(m.sets());
        List<int[]> out = new ArrayList<>();
        for (int i = 0; i < sets.size(); i++) {
            out.add(indices(where + ".sets[" + i + "]", sets.get(i), names));
        }
        return Workload.marginals(domain, out);
    }

    private static Built custom(WorkloadSpec.Custom canonical, Domain domain, PublicArtifacts artifacts) {
        String where = "params.workload";
        PublicArtifacts.StoredWorkload stored = artifacts.workload(canonical.id());
        if (canonical.sha256() != null && !canonical.sha256().equals(stored.sha256())
                || canonical.rows() != null && canonical.rows() != stored.rows()
                || canonical.cols() != null && canonical.cols() != stored.cols()) {
            throw PlanningException.invalid(where + ".sha256", "the content of workload " + stored.id(),
                    "workload " + stored.id() + " does not have the content this request names (sha256, rows, cols)");
        }
        if (stored.cols() != domain.cells()) {
            throw PlanningException.invalid(where + ".id", "a workload with " + domain.cells() + " columns",
                    "workload " + stored.id() + " has " + stored.cols() + " columns but this dataset has "
                            + domain.cells() + " cells (one column per cell, row-major)");
        }
        Workload w = Workload.custom(domain, stored.rows(), stored.values());
        return new Built(w, new WorkloadSpec.Custom(canonical.id(), stored.sha256(), stored.rows(), stored.cols()));
    }

    /** The dataset's domain as a linear-query domain (422 when it has more attributes than supported). */
    public static Domain domain(HistogramDomain declared) {
        try {
            return Domain.of(declared.sizeArray());
        } catch (LinearQueryException e) {
            throw LinearQueries.problem(e);
        }
    }

    private static int[] indices(String where, @org.jspecify.annotations.Nullable List<String> given,
            List<String> names) {
        if (given == null) {
            return new int[0];
        }
        int[] out = new int[given.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = names.indexOf(given.get(i));
            if (out[i] < 0) {
                throw PlanningException.invalid(where + "[" + i + "]", String.join(" | ", names), where + "[" + i
                        + "] is not an attribute of this dataset (" + String.join(", ", names) + ")");
            }
        }
        return out;
    }

    private static List<Box> boxes(String where, List<SortedMap<String, List<Integer>>> boxes, HistogramDomain declared,
            Domain domain) {
        List<String> names = declared.names();
        List<Box> out = new ArrayList<>(boxes.size());
        for (int b = 0; b < boxes.size(); b++) {
            int[] lo = new int[names.size()];
            int[] hi = new int[names.size()];
            for (int a = 0; a < names.size(); a++) {
                hi[a] = declared.sizes().get(a) - 1;
            }
            for (Map.Entry<String, List<Integer>> e : boxes.get(b).entrySet()) {
                String field = where + "[" + b + "]." + WorkloadParam.truncate(e.getKey());
                int a = names.indexOf(e.getKey());
                if (a < 0) {
                    throw PlanningException.invalid(field, String.join(" | ", names), field
                            + " is not an attribute of this dataset (" + String.join(", ", names) + ")");
                }
                int l = e.getValue().get(0);
                int h = e.getValue().get(1);
                int max = declared.sizes().get(a) - 1;
                if (l > h || h > max) {
                    throw PlanningException.invalid(field, "[lo, hi] with 0 ≤ lo ≤ hi ≤ " + max, field
                            + " must be an interval [lo, hi] of codes with 0 ≤ lo ≤ hi ≤ " + max);
                }
                lo[a] = l;
                hi[a] = h;
            }
            out.add(Box.of(domain, lo, hi));
        }
        return out;
    }
}
