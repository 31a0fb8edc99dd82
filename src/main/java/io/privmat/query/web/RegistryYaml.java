package io.privmat.query.web;

import io.privmat.ledger.TrackView;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;

/**
 * A transparency record as the DP Deployments Registry's fields (YAML, block style): records in the
 * order the registry lists the fields, written by SnakeYAML with one representer for records — each
 * component a key in declaration order, a null written as null, except a {@link TrackView}'s tracks the
 * accounting does not use, which are left out as in its JSON.
 */
final class RegistryYaml {

    private RegistryYaml() {}

    /** The registry's fields of {@code r}, in order. */
    record Registry(String dataset, String datasetId, PrivacyUnit privacyUnit, PrivacyLoss privacyLoss,
            String accounting, List<String> mechanisms, List<String> releaseType, String accessType,
            List<Release> releases, long total, @Nullable Long next) {}

    record PrivacyUnit(String unit, String relation) {}

    record PrivacyLoss(String accounting, TrackView budget, @Nullable Double epsilon, @Nullable Double delta,
            TrackView spent, @Nullable Double spentEpsilon, @Nullable Double spentDelta, TrackView remaining,
            @Nullable Long periodBlocks) {}

    record Release(long entry, String jobId, String mechanism, String kind, String releaseType, TrackView charged,
            @Nullable Double epsilon, @Nullable Double delta, String admittedAt, String analyst,
            @Nullable Long period) {}

    static String render(TransparencyController.TransparencyRecord r) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return new Yaml(new RecordRepresenter(options), options).dump(of(r));
    }

    static Registry of(TransparencyController.TransparencyRecord r) {
        TransparencyController.Totals t = r.totals();
        Set<String> mechanisms = new LinkedHashSet<>();
        Set<String> releaseTypes = new LinkedHashSet<>();
        List<Release> releases = new ArrayList<>();
        for (TransparencyController.ReleaseView v : r.releases()) {
            mechanisms.add(v.mechanism());
            releaseTypes.add(v.releaseType());
            releases.add(new Release(v.entry(), v.jobId().toString(), v.mechanism(), v.kind(), v.releaseType(),
                    v.charged(), v.guarantee().epsilon(), v.guarantee().delta(), v.admittedAt().toString(), v.analyst(),
                    v.period()));
        }
        return new Registry(r.name(), r.datasetId().toString(), new PrivacyUnit(r.privacyUnit(), r.relation()),
                new PrivacyLoss(t.accounting(), t.capacity(), t.budget().epsilon(), t.budget().delta(), t.spent(),
                        t.spentGuarantee().epsilon(), t.spentGuarantee().delta(), t.remaining(), t.periodBlocks()),
                t.accounting(), new ArrayList<>(mechanisms), new ArrayList<>(releaseTypes),
                "interactive API (granted analysts; the owner)", releases, r.total(), r.next());
    }

    /** Writes a record as a mapping of its components. */
    private static final class RecordRepresenter extends Representer {
        RecordRepresenter(DumperOptions options) {
            super(options);
            multiRepresenters.put(Record.class, data -> representMapping(Tag.MAP, components((Record) data),
                    DumperOptions.FlowStyle.AUTO));
        }

        private static Map<String, @Nullable Object> components(Record data) {
            Map<String, @Nullable Object> out = new LinkedHashMap<>();
            for (RecordComponent c : data.getClass().getRecordComponents()) {
                Object value;
                try {
                    value = c.getAccessor().invoke(data);
                } catch (IllegalAccessException | InvocationTargetException e) {
                    throw new IllegalStateException("unreadable component " + c.getName(), e);
                }
                // A TrackView's unused tracks, and a release's period and the loss's periodBlocks outside
                // a budget that renews per period (docs/accounting.md §13), are left out rather than null.
                boolean omittable = data instanceof TrackView || data instanceof Release && c.getName().equals("period")
                        || data instanceof PrivacyLoss && c.getName().equals("periodBlocks");
                if (value != null || !omittable) {
                    out.put(c.getName(), value);
                }
            }
            return out;
        }
    }
}
