package io.privmat.query.prediction;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.DatasetRows;
import io.privmat.dataset.DatasetService;
import io.privmat.dataset.RatingsSchema;
import io.privmat.job.Job;
import io.privmat.job.JobNotFoundException;
import io.privmat.job.JobService;
import io.privmat.mechanism.completion.CompletionFacts;
import io.privmat.mechanism.completion.CompletionModels;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.NoiseWarning;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.mechanism.completion.CompletionModel;
import io.privmat.mechanism.completion.CompletionRelease;
import io.privmat.mechanism.completion.PredictionSink;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.query.QueryPlans;
import io.privmat.release.ReleaseService;
import io.privmat.release.StoredRelease;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * The data owner's side of joint DP (docs/mechanisms/completion.md, "Delivery"): each user's completed
 * row, computed from a COMPLETION job's stored global model and that user's own ratings only. Served
 * to the owner of the dataset and to nobody else (an analyst who submitted the job gets 404, as for a
 * job that does not exist): the rows are not a DP release to analysts, they are the owner's data
 * post-processed with the model.
 */
@Service
public class PredictionService {

    private final JobService jobs;
    private final DatasetService datasets;
    private final DatasetRows rows;
    private final ReleaseService releases;
    private final QueryPlans plans;
    private final MechanismCatalog catalog;

    PredictionService(JobService jobs, DatasetService datasets, DatasetRows rows, ReleaseService releases,
            QueryPlans plans, MechanismCatalog catalog) {
        this.catalog = catalog;
        this.jobs = jobs;
        this.datasets = datasets;
        this.rows = rows;
        this.releases = releases;
        this.plans = plans;
    }

    /** A DONE COMPLETION job's model, for the owner of its dataset (404 for anyone else). */
    public Owned model(UUID jobId, Caller caller) {
        Job job = jobs.visible(jobId, caller);
        if (!caller.is(Role.OWNER) || !job.datasetOwner().equals(caller.subject())) {
            throw new JobNotFoundException(jobId); // an analyst never learns more than "no such job"
        }
        Dataset dataset = datasets.owned(job.datasetId(), caller);
        if (dataset.kind() == DatasetKind.EXTERNAL) {
            throw new PrivmatException(ProblemType.WRONG_DATASET_KIND, "Dataset " + dataset.id() + " is EXTERNAL: its "
                    + "ratings stay at their location, and per-user predictions are served for stored RATINGS "
                    + "datasets only (the released model is in the job's result).", Map.of());
        }
        var stored = releases.completionModel(jobId).orElseThrow(() -> new PrivmatException(
                ProblemType.WRONG_DATASET_KIND, "Job " + jobId + " is not a DONE COMPLETION job: predictions exist only "
                + "for the model of a finished completion.", Map.of("jobId", jobId.toString())));
        StoredRelease release = stored.getKey();
        Plan plan = plans.rebuild(release.parameters());
        CompletionModel model = CompletionModels.restore(plan, stored.getValue(),
                Facts.empty(CompletionFacts.VOCABULARY));
        return new Owned(dataset, model, plan);
    }

    /** A model, the dataset it was released from and the plan that released it. */
    public record Owned(Dataset dataset, CompletionModel model, Plan plan) {

        public int items() {
            return model.domain().items();
        }
    }

    /**
     * A model's noise warnings, as its job's result states them (docs/accuracy/warnings.md): a
     * released spectrum within its noise bound means predictions near the baseline for every user.
     */
    public List<NoiseWarning> warnings(Owned owned) {
        Release release = new CompletionRelease(owned.model());
        return catalog.warnings(owned.plan(), release, catalog.accuracy(owned.plan(), release,
                ResultAccuracy.DEFAULT_LEVEL));
    }

    /** A user of a RATINGS dataset: its dense id (its position in the export) and its label. */
    public record User(int index, String label) {}

    /** The user with this label (404 without echoing the label: details never carry values). */
    public User user(Owned owned, String userLabel) {
        UUID id = owned.dataset().id();
        OptionalInt user = rows.ratingsUserIndex(id, userLabel);
        if (user.isEmpty()) {
            throw noSuchUser(id);
        }
        return new User(user.getAsInt(), userLabel);
    }

    /** The user at this position of the export (dense id order); 404 outside [0, m). */
    public User user(Owned owned, int index) {
        UUID id = owned.dataset().id();
        java.util.Optional<String> label = index < 0 ? java.util.Optional.empty() : rows.ratingsUserLabel(id, index);
        return new User(index, label.orElseThrow(() -> noSuchUser(id)));
    }

    private static PrivmatException noSuchUser(UUID datasetId) {
        return new PrivmatException(ProblemType.NOT_FOUND, "No such user in dataset " + datasetId + ".",
                Map.of("datasetId", datasetId.toString()));
    }

    /**
     * One user's completed row (n predictions on the rating scale), from the model and that user's
     * stored ratings. One pass over the stored ratings to find them.
     */
    public double[] predictions(Owned owned, User user) {
        UUID id = owned.dataset().id();
        int wanted = user.index();
        double[][] row = {null};
        RatingsSource source = rows.ratings(id);
        source.forEachUser((u, items, ratings, count) -> {
            if (u == wanted) {
                row[0] = owned.model().predict(Arrays.copyOf(items, count), Arrays.copyOf(ratings, count));
            }
        });
        if (row[0] == null) {
            // Uploaded users always have at least one rating; a label without ratings predicts from none.
            row[0] = owned.model().predict(new int[0], new double[0]);
        }
        return row[0];
    }

    /**
     * Every user's completed row, in dense id order, with the user's label from {@code users} (one pass
     * over the ratings; nothing is kept).
     */
    public void forEachPrediction(Owned owned, List<String> users, LabelledRowSink sink) {
        UUID id = owned.dataset().id();
        owned.model().predictAll(rows.ratings(id), (PredictionSink) (user, predictions) -> sink.row(users.get(user),
                predictions));
    }

    /** The users' labels in dense id order (the owner's to know; their count is m). */
    public List<String> users(Owned owned) {
        return rows.ratingsUsers(owned.dataset().id());
    }

    /** The item labels in item order (declared at creation; "0".."n−1" when only n was declared). */
    public List<String> itemLabels(Owned owned) {
        RatingsSchema schema = (RatingsSchema) owned.dataset().schema();
        return schema.itemLabels();
    }

    /** Receives one user's label and completed row. */
    @FunctionalInterface
    public interface LabelledRowSink {
        void row(String user, double[] predictions);
    }
}
