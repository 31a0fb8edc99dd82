package io.privmat.query.web;

import com.fasterxml.jackson.annotation.JsonRawValue;
import io.privmat.api.JsonNumbers;
import io.privmat.api.LossDocument;
import io.privmat.api.Paging;
import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetService;
import io.privmat.dataset.StreamSchema;
import io.privmat.ledger.BudgetAccount;
import io.privmat.ledger.BudgetService;
import io.privmat.ledger.CommittedCharge;
import io.privmat.ledger.LedgerEntry;
import io.privmat.ledger.TrackView;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.ApproxDp;
import io.privmat.privacy.Budget;
import io.privmat.privacy.BudgetFilter;
import io.privmat.privacy.Tracks;
import io.privmat.privacy.ZcdpFilter;
import io.privmat.query.Transparency;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A dataset's transparency record (docs/accounting.md, "Transparency record"): every charged release
 * with its privacy unit, relation, charged losses, accuracy statement and time, and the dataset's
 * totals, as JSON or as the DP Deployments Registry's fields in YAML. It shows only what the caller
 * may already read through the ledger and the budget, plus accuracy statements computed from public
 * parameters.
 */
@RestController
@RequestMapping("/v1/datasets/{datasetId}")
@Tag(name = "Budget", description = "A dataset's privacy budget and its append-only ledger.")
class TransparencyController {

    /** The YAML media type of the registry rendering. */
    static final String YAML = "application/yaml";
    /** Largest page: each release's accuracy is planned again from its stored spec. */
    static final int MAX_LIMIT = 100;

    private final DatasetService datasets;
    private final BudgetService budget;
    private final Transparency transparency;

    TransparencyController(DatasetService datasets, BudgetService budget, Transparency transparency) {
        this.datasets = datasets;
        this.budget = budget;
        this.transparency = transparency;
    }

    @GetMapping(path = "/transparency", produces = "application/json")
    @Operation(operationId = "getTransparencyRecord", summary = "The transparency record: every charged release",
            description = "One entry per charged release (a query job or a subscription whose charge was committed), "
                    + "oldest first, keyset-paged like the ledger (pass 'next' as 'after'; limit at most 100): "
                    + "mechanism, the dataset's privacy unit and neighbouring relation, the loss as run and as "
                    + "charged, the charge on the accounting's tracks and the (epsilon, delta)-DP guarantee it amounts "
                    + "to, the expected error its plan states, when it was admitted and by whom; and the dataset's "
                    + "totals. Who sees what follows the ledger: the owner (also after deletion) and ADMIN keys see "
                    + "every release and its analyst; a granted analyst sees only its own releases; others 404. Send "
                    + "'Accept: application/yaml' for the DP Deployments Registry's fields. docs/accounting.md, "
                    + "\"Transparency record\".")
    TransparencyRecord record(@PathVariable UUID datasetId, @RequestParam(defaultValue = "0") long after,
            @RequestParam(defaultValue = "100") int limit) {
        Caller caller = Caller.current();
        // Who may read it is the ledger's rule (ADMIN any dataset, the owner, a granted analyst); the
        // record also needs the live dataset's declaration, so a deleted dataset is 404 here.
        datasets.requireLedgerReadable(datasetId, caller);
        Paging.check("after", after, limit, MAX_LIMIT);
        Dataset dataset = caller.is(Role.ADMIN) ? datasets.get(datasetId) : datasets.visible(datasetId, caller);
        Budget b = dataset.budget();
        BudgetFilter filter = b.filter();
        AccountingMode mode = b.mode();
        // Analysts see their own releases only, as in the ledger; the totals stay dataset-wide (/budget).
        String only = caller.is(Role.ANALYST) ? caller.subject() : null;
        List<ReleaseView> releases = new ArrayList<>();
        for (CommittedCharge c : budget.commits(datasetId, only, after, limit)) {
            LedgerEntry e = c.commit();
            Tracks charge = new Tracks(e.rho(), e.epsilon(), e.delta());
            ApproxDp dp = filter.guarantee(charge);
            releases.add(new ReleaseView(e.id(), e.jobId(),
                    "SUBSCRIPTION".equals(e.kind()) ? "continual" : "one-shot", e.kind(), e.mechanism(),
                    JsonNumbers.lossDocument(e.loss()), TrackView.charged(charge, mode),
                    new Guarantee(JsonNumbers.charged(dp.epsilon()), JsonNumbers.charged(dp.delta())),
                    transparency.expectedError(e.parameters(), caller), c.admittedAt(), e.caller(), e.period()));
        }
        Long next = releases.size() == limit ? releases.get(releases.size() - 1).entry() : null;
        BudgetAccount account = budget.account(datasetId, b);
        ApproxDp spent = filter.guarantee(account.committed());
        Totals totals = new Totals(mode.name(),
                new Guarantee(JsonNumbers.given(b.epsilon()), JsonNumbers.given(b.delta())),
                TrackView.available(filter.capacity(), mode), TrackView.charged(account.committed(), mode),
                new Guarantee(JsonNumbers.charged(spent.epsilon()), JsonNumbers.charged(spent.delta())),
                TrackView.charged(account.reserved(), mode), TrackView.available(filter.remaining(account.spent()), mode),
                filter instanceof ZcdpFilter z ? JsonNumbers.available(z.deltaConversion()) : null,
                dataset.schema() instanceof StreamSchema s ? s.periodBlocks() : null);
        return new TransparencyRecord(datasetId, dataset.name(), dataset.kind().name(),
                Transparency.privacyUnit(dataset), dataset.neighbouring().name(), totals, releases,
                budget.commitCount(datasetId, only), next);
    }

    @GetMapping(path = "/transparency", produces = YAML)
    @Operation(operationId = "getTransparencyRegistryYaml", summary = "The transparency record as DP Deployments "
            + "Registry fields (YAML)", description = "The same record and paging as the JSON form, rendered as the DP "
            + "Deployments Registry's fields: privacy unit, epsilon/delta or rho, accounting, mechanisms, release "
            + "and access type, then the releases of this page.")
    String registry(@PathVariable UUID datasetId, @RequestParam(defaultValue = "0") long after,
            @RequestParam(defaultValue = "100") int limit) {
        return registryYaml(record(datasetId, after, limit));
    }

    /** The registry's fields, in order, rendered with SnakeYAML (block style). */
    static String registryYaml(TransparencyRecord r) {
        return RegistryYaml.render(r);
    }

    /** A dataset's transparency record (one page of its releases). */
    @Schema(name = "TransparencyRecord")
    record TransparencyRecord(UUID datasetId, String name,
            @Schema(description = "The dataset's kind") String kind,
            @Schema(description = "What one individual's contribution is, as the dataset declares it",
                    allowableValues = {"row", "edge", "record", "user", "rating"}) String privacyUnit,
            @Schema(description = "The neighbouring relation", allowableValues = {"REPLACE_ONE", "ADD_REMOVE"})
            String relation,
            Totals totals,
            @Schema(description = "This page's releases, oldest first") List<ReleaseView> releases,
            @Schema(description = "Releases the caller may see in all") long total,
            @Schema(description = "Pass as 'after' for the next page; null on the last") @Nullable Long next) {}

    /** The dataset-level totals (as /budget states them). */
    @Schema(name = "TransparencyTotals")
    record Totals(@Schema(allowableValues = {"ZCDP", "BASIC", "PURE", "GDP"}) String accounting,
            @Schema(description = "The (epsilon, delta) the owner configured") Guarantee budget,
            @Schema(description = "The caps on the accounting's tracks (rounded down)") TrackView capacity,
            @Schema(description = "Committed charges on the tracks (rounded up): the sum of every release's charge")
            TrackView spent,
            @Schema(description = "The (epsilon, delta)-DP guarantee the committed charges amount to")
            Guarantee spentGuarantee,
            @Schema(description = "Admitted charges not yet committed or refunded") TrackView reserved,
            @Schema(description = "What is left (rounded down)") TrackView remaining,
            @Schema(description = "ZCDP: the part of delta the zCDP to (epsilon, delta) conversion uses")
            @Nullable Double deltaConversion,
            @Schema(description = "A STREAM whose budget renews per period (docs/accounting.md §13): the budget is "
                    + "per period of this many blocks, and spent, reserved and remaining are the current period's; "
                    + "a person with rows in m periods is protected by m times the budget. Absent otherwise")
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
            @Nullable Long periodBlocks) {}

    /** An (ε, δ)-DP guarantee. */
    @Schema(name = "EpsilonDelta")
    record Guarantee(@Schema(format = "double") @Nullable Double epsilon,
            @Schema(format = "double") @Nullable Double delta) {}

    /** One charged release. */
    @Schema(name = "TransparencyRelease")
    record ReleaseView(@Schema(description = "The ledger's COMMIT entry") long entry, UUID jobId,
            @Schema(description = "one-shot (a query job) or continual (a stream subscription)",
                    allowableValues = {"one-shot", "continual"}) String releaseType,
            @Schema(description = "The query kind, or SUBSCRIPTION") String kind, String mechanism,
            @Schema(implementation = LossDocument.class, description = "The loss as run and as charged")
            @JsonRawValue String loss,
            @Schema(description = "The charge on the accounting's tracks (rounded up)") TrackView charged,
            @Schema(description = "The (epsilon, delta)-DP guarantee this charge alone amounts to under the "
                    + "dataset's accounting (the same conversion as the budget's)") Guarantee guarantee,
            @Schema(description = "The error its plan states from public parameters (the quote's expectedError); "
                    + "null if the stored plan no longer rebuilds here") @Nullable List<ErrorStatement> expectedError,
            @Schema(description = "When it was admitted (the ledger's RESERVE entry)") Instant admittedAt,
            @Schema(description = "The analyst (subject) it was charged to") String analyst,
            @Schema(description = "A stream whose budget renews per period: the period this charge pays for")
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
            @Nullable Long period) {}
}
