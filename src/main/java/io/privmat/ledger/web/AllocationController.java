package io.privmat.ledger.web;

import io.privmat.api.TextChecks;
import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetService;
import io.privmat.ledger.Allocation;
import io.privmat.ledger.BudgetService;
import io.privmat.ledger.TrackView;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Budget;
import io.privmat.privacy.Tracks;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Per-analyst allocations of a dataset's budget (docs/accounting.md §10 "Allocations"). */
@RestController
@RequestMapping(path = "/v1/datasets/{datasetId}/allocations", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Budget", description = "A dataset's privacy budget and its append-only ledger.")
class AllocationController {

    /** Most significant digits of an allocated amount. */
    static final int MAX_DIGITS = 40;

    private final DatasetService datasets;
    private final BudgetService budget;

    AllocationController(DatasetService datasets, BudgetService budget) {
        this.datasets = datasets;
        this.budget = budget;
    }

    @PutMapping(path = "/{subject}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "putAllocation", summary = "Set an analyst's allocation of the dataset's budget",
            description = "The dataset's owner and ADMIN keys only. The allocation is a share of the dataset's own "
                    + "tracks (ZCDP: rho and delta; BASIC: epsilon and delta; PURE: epsilon; GDP: rho, i.e. mu^2/2); a "
                    + "track left out is 0, a track the accounting does not use must be left out. It may be raised "
                    + "from the unallocated pool (409 allocation-conflict when the pool cannot pay: 'largest' is the "
                    + "most it can be now) and lowered, never below what the analyst has spent, reservations "
                    + "included (409, with 'spent'). An analyst's spending before its first allocation counts "
                    + "against it. docs/accounting.md, \"Allocations\".")
    AllocationView put(@PathVariable UUID datasetId, @PathVariable String subject,
            @RequestBody AllocationRequest request) {
        Dataset dataset = managed(datasetId);
        String who = TextChecks.name("subject", subject, 200);
        Budget b = dataset.budget();
        Tracks cap = tracks(b.mode(), request);
        return AllocationView.of(budget.allocate(datasetId, b, who, cap), b.mode());
    }

    @DeleteMapping("/{subject}")
    @Operation(operationId = "deleteAllocation", summary = "Remove an analyst's allocation",
            description = "The dataset's owner and ADMIN keys only. The analyst draws from the unallocated pool "
                    + "again; what it spent stays spent and now counts against the pool.")
    @ApiResponse(responseCode = "204", description = "Removed")
    ResponseEntity<Void> delete(@PathVariable UUID datasetId, @PathVariable String subject) {
        Dataset dataset = managed(datasetId);
        String who = TextChecks.name("subject", subject, 200);
        if (!budget.deallocate(datasetId, dataset.budget(), who)) {
            throw new PrivmatException(ProblemType.NOT_FOUND, "That subject has no allocation on this dataset.");
        }
        return ResponseEntity.noContent().build();
    }

    @GetMapping
    @Operation(operationId = "listAllocations", summary = "The dataset's allocations and its unallocated pool",
            description = "The owner and ADMIN keys see every allocation, their sum and the pool. A granted analyst "
                    + "sees only its own allocation ('allocations' has at most one item) and which limit pays its "
                    + "queries; the pool's remaining amount only when it draws from the pool (it has no allocation). "
                    + "Other analysts' allocations and spending are never shown to an analyst.")
    AllocationList list(@PathVariable UUID datasetId) {
        Caller caller = Caller.current();
        Dataset dataset = caller.is(Role.ADMIN) ? datasets.get(datasetId) : datasets.visible(datasetId, caller);
        Budget b = dataset.budget();
        AccountingMode mode = b.mode();
        BudgetService.Limits limits = budget.limits(datasetId, b, caller.subject());
        if (caller.is(Role.ANALYST)) {
            return new AllocationList(mode.name(), limits.limit().name(),
                    limits.own() == null ? List.of() : List.of(AllocationView.of(limits.own(), mode)), null,
                    limits.own() == null ? TrackView.available(limits.pool(), mode) : null,
                    TrackView.available(limits.totalRemaining(), mode));
        }
        return new AllocationList(mode.name(), null,
                budget.allocations(datasetId).stream().map(a -> AllocationView.of(a, mode)).toList(),
                TrackView.available(limits.allocated(), mode), TrackView.available(limits.pool(), mode),
                TrackView.available(limits.totalRemaining(), mode));
    }

    /** The dataset, if the caller may manage its allocations (its owner, or ADMIN); 404 otherwise. */
    private Dataset managed(UUID datasetId) {
        Caller caller = Caller.current();
        return caller.is(Role.ADMIN) ? datasets.get(datasetId) : datasets.owned(datasetId, caller);
    }

    private static Tracks tracks(AccountingMode mode, AllocationRequest r) {
        boolean rho = mode == AccountingMode.ZCDP || mode == AccountingMode.GDP;
        boolean epsilon = mode == AccountingMode.BASIC || mode == AccountingMode.PURE;
        boolean delta = mode == AccountingMode.ZCDP || mode == AccountingMode.BASIC;
        return new Tracks(amount("rho", r.rho(), rho, mode), amount("epsilon", r.epsilon(), epsilon, mode),
                amount("delta", r.delta(), delta, mode));
    }

    private static BigDecimal amount(String track, @Nullable BigDecimal value, boolean used, AccountingMode mode) {
        if (value == null) {
            return BigDecimal.ZERO;
        }
        if (!used) {
            throw PrivmatException.invalidParameter(track, "absent under " + mode + " accounting",
                    mode + " accounting has no " + track + " track; leave " + track + " out");
        }
        if (value.signum() < 0 || value.precision() > MAX_DIGITS) {
            throw PrivmatException.invalidParameter(track, ">= 0, at most " + MAX_DIGITS + " significant digits",
                    track + " must be a non-negative amount with at most " + MAX_DIGITS + " significant digits");
        }
        return value;
    }

    /** An allocation to set: amounts on the dataset's tracks. */
    @Schema(name = "AllocationRequest", description = "Amounts on the tracks of the dataset's accounting mode (ZCDP: "
            + "rho and delta; BASIC: epsilon and delta; PURE: epsilon; GDP: rho = mu^2/2). A track left out is 0.")
    record AllocationRequest(@Schema(minimum = "0") @Nullable BigDecimal rho,
            @Schema(minimum = "0") @Nullable BigDecimal epsilon, @Schema(minimum = "0") @Nullable BigDecimal delta) {}

    /** One analyst's allocation. */
    @Schema(name = "Allocation")
    record AllocationView(String subject,
            @Schema(description = "The allocation's caps (rounded down)") TrackView allocated,
            @Schema(description = "What the analyst has spent from it, reservations included (rounded up)")
            TrackView spent,
            @Schema(description = "What it may still spend (rounded down)") TrackView remaining,
            Instant updatedAt) {
        static AllocationView of(Allocation a, AccountingMode mode) {
            return new AllocationView(a.subject(), TrackView.available(a.cap(), mode), TrackView.charged(a.spent(), mode),
                    TrackView.available(a.remaining(), mode), a.updatedAt());
        }
    }

    /** The allocations visible to the caller. */
    @Schema(name = "AllocationList")
    record AllocationList(String accounting,
            @Schema(description = "Analysts only: the limit that pays your queries (ALLOCATION or POOL); every query "
                    + "is also checked against the dataset's total", allowableValues = {"ALLOCATION", "POOL"})
            @Nullable String yourLimit,
            @Schema(description = "Owner and ADMIN: every allocation; an analyst: its own, if it has one")
            List<AllocationView> allocations,
            @Schema(description = "Owner and ADMIN: the sum of every allocation's caps") @Nullable TrackView allocated,
            @Schema(description = "What remains of the unallocated pool: the total less every allocation and less "
                    + "what analysts without an allocation spent. Shown to an analyst only when it draws from it")
            @Nullable TrackView poolRemaining,
            @Schema(description = "What remains of the dataset's total") TrackView totalRemaining) {}

}
