package io.privmat.ledger;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One row of the append-only ledger. {@code parameters} and {@code loss} are JSON text.
 *
 * @param period the period of a periodic budget this charge pays for (docs/accounting.md, "Budgets
 *     that renew per period"), or null for every other charge
 */
public record LedgerEntry(long id, UUID datasetId, UUID jobId, EntryType type, String kind, String mechanism,
        String parameters, String loss, BigDecimal rho, BigDecimal epsilon, BigDecimal delta, String caller,
        Instant createdAt, @Nullable Long period) {}
