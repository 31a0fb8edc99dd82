package io.privmat.ledger.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.privmat.api.JsonNumbers;
import io.privmat.api.LossDocument;
import io.privmat.api.Paging;
import io.privmat.api.ParametersDocument;
import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetService;
import io.privmat.dataset.StreamSchema;
import io.privmat.ledger.BudgetAccount;
import io.privmat.ledger.BudgetService;
import io.privmat.ledger.EntryType;
import io.privmat.ledger.LedgerChain;
import io.privmat.ledger.LedgerEntry;
import io.privmat.ledger.TrackView;
import io.privmat.privacy.ApproxDp;
import io.privmat.privacy.Budget;
import io.privmat.privacy.BudgetFilter;
import io.privmat.privacy.ZcdpFilter;
import io.privmat.problem.PrivmatException;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/v1/datasets/{datasetId}", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Budget", description = "A dataset's privacy budget and its append-only ledger.")
class BudgetController {

    private final DatasetService datasets;
    private final BudgetService budget;

    BudgetController(DatasetService datasets, BudgetService budget) {
        this.datasets = datasets;
        this.budget = budget;
    }

    @GetMapping("/budget")
    @Operation(operationId = "getBudget", summary = "The budget: total, spent (committed), reserved and remaining",
            description = "Each as amounts on the accounting mode's tracks (ZCDP: rho and delta; BASIC: epsilon and "
                    + "delta; PURE: epsilon) and as the (epsilon, delta)-DP guarantee they amount to.")
    BudgetView budget(@PathVariable UUID datasetId) {
        Dataset dataset = datasets.visible(datasetId, Caller.current());
        Budget b = dataset.budget();
        BudgetFilter filter = b.filter();
        BudgetAccount account = budget.account(datasetId, b);
        var mode = b.mode();
        ApproxDp committed = filter.guarantee(account.committed());
        ApproxDp reserved = filter.guarantee(account.reserved());
        return new BudgetView(datasetId, mode.name(),
                // The configured (epsilon, delta) as the owner gave them; the caps on the tracks down.
                new Amount(TrackView.available(filter.capacity(), mode), JsonNumbers.given(b.epsilon()),
                        JsonNumbers.given(b.delta())),
                new Amount(TrackView.charged(account.committed(), mode), JsonNumbers.charged(committed.epsilon()),
                        JsonNumbers.charged(committed.delta())),
                new Amount(TrackView.charged(account.reserved(), mode), JsonNumbers.charged(reserved.epsilon()),
                        JsonNumbers.charged(reserved.delta())),
                new Remaining(TrackView.available(filter.remaining(account.spent()), mode),
                        JsonNumbers.available(filter.largestPureEpsilon(account.spent()))),
                filter instanceof ZcdpFilter z ? JsonNumbers.available(z.deltaConversion()) : null,
                filter instanceof ZcdpFilter z ? z.alphaStar() : null, PeriodView.of(dataset, account));
    }

    @GetMapping("/ledger")
    @Operation(operationId = "listLedgerEntries", summary = "The ledger entries, oldest first",
            description = "Keyset-paged: pass the last id seen as 'after'. The dataset's owner (also after the "
                    + "dataset is deleted) and ADMIN keys see every entry; a granted analyst sees only the entries of "
                    + "its own jobs.")
    LedgerPage ledger(@PathVariable UUID datasetId, @RequestParam(defaultValue = "0") long after,
            @RequestParam(defaultValue = "100") int limit) {
        Caller caller = Caller.current();
        datasets.requireLedgerReadable(datasetId, caller);
        Paging.check("after", after, limit, 1000);
        // Analysts see their own entries only (other analysts' subjects, jobs and parameters are not
        // theirs to see); the owner and ADMIN see all. The budget totals stay dataset-wide.
        boolean own = caller.is(Role.ANALYST);
        List<EntryView> entries = (own ? budget.entriesOf(datasetId, caller.subject(), after, limit)
                : budget.entries(datasetId, after, limit)).stream().map(e -> EntryView.of(e, own)).toList();
        Long next = entries.size() == limit ? entries.get(entries.size() - 1).id() : null;
        return new LedgerPage(entries, own ? budget.entryCountOf(datasetId, caller.subject())
                : budget.entryCount(datasetId), next);
    }

    @GetMapping("/ledger/verify")
    @Operation(operationId = "verifyLedger", summary = "Verify the ledger's hash chain and the account's totals",
            description = "The dataset's owner (also after the dataset is deleted) and ADMIN keys only. Recomputes "
                    + "every entry's hash (each entry's hash covers the previous entry's hash) and compares the sums "
                    + "of the entries with the account's committed and reserved totals, in one consistent snapshot; "
                    + "the work grows with the number of entries (all are read, in pages of 1000). 'firstBadEntry' is "
                    + "the first entry whose content or link does not match (an edited entry; the entry after a "
                    + "deleted one). An attacker able to write the database can recompute the whole chain: pass a "
                    + "head exported earlier (from 'head' here or /ledger/head, kept outside the database) as "
                    + "'head', and the verification fails unless the chain still contains it. docs/accounting.md, "
                    + "\"Tamper evidence\".")
    LedgerVerification verify(@PathVariable UUID datasetId,
            @io.swagger.v3.oas.annotations.Parameter(description = "A head hash exported earlier (64 hexadecimal "
                    + "digits) that the chain must still contain") @RequestParam(required = false) @Nullable String head) {
        datasets.requireLedgerReadable(datasetId, Caller.current());
        byte[] exported = null;
        if (head != null) {
            exported = LedgerChain.parseHash(head);
            if (exported == null) {
                throw PrivmatException.invalidParameter("head", "64 hexadecimal digits",
                        "head must be a SHA-256 hash as 64 hexadecimal digits");
            }
        }
        LedgerChain.Result r = budget.verify(datasetId, exported);
        return new LedgerVerification(r.ok(), r.entries(), r.head(), r.headEntry(), r.firstBadEntry(), r.reason(),
                r.totalsChecked());
    }

    @GetMapping("/ledger/head")
    @Operation(operationId = "getLedgerHead", summary = "The ledger's head hash, to export",
            description = "The dataset's owner (also after the dataset is deleted) and ADMIN keys only. The stored "
                    + "hash of the last entry, as it is (not verified: /ledger/verify checks it). Keep it outside the "
                    + "database and pass it to /ledger/verify later: the ledger must still contain it.")
    LedgerHead head(@PathVariable UUID datasetId) {
        datasets.requireLedgerReadable(datasetId, Caller.current());
        return budget.head(datasetId).map(c -> new LedgerHead(
                        c.entryHash() == null ? null : LedgerChain.hex(c.entryHash()), c.entry().id()))
                .orElse(new LedgerHead(null, null));
    }

    /** The verdict of a ledger verification. */
    @Schema(name = "LedgerVerification")
    record LedgerVerification(@Schema(description = "The chain is intact, the totals equal the sums of the entries "
                    + "and the exported head, if given, is in the chain") boolean ok,
            @Schema(description = "Entries read") long entries,
            @Schema(description = "The stored hash of the last entry (SHA-256, hexadecimal); null without entries")
            @Nullable String head,
            @Schema(description = "The id of the last entry") @Nullable Long headEntry,
            @Schema(description = "The first entry that breaks the chain; null if none does (a totals mismatch or a "
                    + "missing exported head names no entry)") @Nullable Long firstBadEntry,
            @Schema(description = "Why the verification failed; null when ok") @Nullable String reason,
            @Schema(description = "Whether the totals were compared: false once the dataset is deleted (its account "
                    + "goes with it)") boolean totalsChecked) {}

    /** The ledger's head. */
    @Schema(name = "LedgerHead")
    record LedgerHead(@Schema(description = "The stored hash of the last entry (SHA-256, hexadecimal); null without "
                    + "entries") @Nullable String head,
            @Schema(description = "The id of the last entry") @Nullable Long headEntry) {}

    /** The budget of a dataset. */
    @Schema(name = "BudgetStatus")
    record BudgetView(UUID datasetId, String accounting,
            @Schema(description = "Caps and the configured (epsilon, delta)") Amount total,
            @Schema(description = "Committed charges and the guarantee they amount to") Amount spent,
            @Schema(description = "Outstanding reservations (admitted jobs not yet committed or refunded), and the "
                    + "guarantee they amount to on their own: epsilon and delta are 0 when nothing is reserved. What "
                    + "spent and reserved leave together is 'remaining'")
            Amount reserved,
            @Schema(description = "Rounded down, like the caps; what is charged or spent is rounded up") Remaining remaining,
            @Schema(description = "ZCDP: the part of delta used by the zCDP to (epsilon, delta) conversion")
            @Nullable Double deltaConversion,
            @Schema(description = "ZCDP: the Renyi order that certifies the rho cap") @Nullable Double alphaStar,
            @Schema(description = "A STREAM whose budget renews per period (stream.periodBlocks): the total is per "
                    + "period, and spent, reserved and remaining are those of the period shown; absent otherwise")
            @JsonInclude(JsonInclude.Include.NON_NULL)
            @Nullable PeriodView period) {}

    /** The period of a budget that renews per period, as the account holds it (docs/accounting.md). */
    @Schema(name = "BudgetPeriod")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record PeriodView(
            @Schema(description = "The period the amounts are of: the latest one charged (period k is blocks "
                    + "[k·periodBlocks, (k+1)·periodBlocks)); 0 before any charge") long period,
            @Schema(description = "P: blocks per period") long periodBlocks,
            @Schema(description = "Its first stream block") long firstBlock,
            @Schema(description = "The stream block the budget renews with: the next period's first; the first "
                    + "charge for it starts again from the whole total") long renewsAtBlock) {

        static @Nullable PeriodView of(Dataset dataset, BudgetAccount account) {
            if (!(dataset.schema() instanceof StreamSchema s) || s.periodBlocks() == null) {
                return null;
            }
            long k = account.period() == null ? 0 : account.period();
            long p = s.periodBlocks();
            long first = Math.multiplyExact(k, p);
            long next = Math.addExact(first, p);
            return new PeriodView(k, p, first, next);
        }
    }

    /** Track amounts and their (ε, δ) meaning. */
    @Schema(name = "BudgetAmount")
    record Amount(TrackView tracks, @Schema(format = "double") Double epsilon, @Schema(format = "double") Double delta) {}

    /** What is left. */
    @Schema(name = "BudgetRemaining")
    record Remaining(TrackView tracks,
            @Schema(description = "Largest epsilon of one more pure epsilon-DP query", format = "double")
            Double largestPureEpsilon) {}

    /** A page of ledger entries. */
    @Schema(name = "LedgerPage")
    record LedgerPage(List<EntryView> entries, long total, @Nullable Long next) {}

    /** One ledger entry. */
    @Schema(name = "LedgerEntry")
    record EntryView(long id, UUID jobId, @Schema(allowableValues = {"RESERVE", "COMMIT", "REFUND"}) String type,
            String kind, String mechanism, @Schema(implementation = ParametersDocument.class) @JsonRawValue String parameters,
            @Schema(implementation = LossDocument.class) @JsonRawValue String loss,
            @Schema(format = "double") Double rho, @Schema(format = "double") Double epsilon,
            @Schema(format = "double") Double delta,
            String caller,
            @Schema(description = "The period of a budget that renews per period this charge pays for; absent for "
                    + "every other charge")
            @JsonInclude(JsonInclude.Include.NON_NULL)
            @Nullable Long period,
            @Schema(description = "When the entry was written. Analysts see it on RESERVE entries only (their "
                    + "submission): a COMMIT or REFUND is written by the worker, at a time that depends on other "
                    + "jobs' running times and so on the data") @Nullable Instant createdAt) {
        static EntryView of(LedgerEntry e, boolean analyst) {
            boolean shown = !analyst || e.type() == EntryType.RESERVE;
            return new EntryView(e.id(), e.jobId(), e.type().name(), e.kind(), e.mechanism(),
                    JsonNumbers.parametersDocument(e.parameters()), JsonNumbers.lossDocument(e.loss()),
                    JsonNumbers.charged(e.rho()), JsonNumbers.charged(e.epsilon()), JsonNumbers.charged(e.delta()),
                    e.caller(), e.period(), shown ? e.createdAt() : null);
        }
    }
}
