package io.privmat.ledger;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/** One row of the append-only ledger. {@code parameters} and {@code loss} are JSON text. */
public record LedgerEntry(long id, UUID datasetId, UUID jobId, EntryType type, String kind, String mechanism,
        String parameters, String loss, BigDecimal rho, BigDecimal epsilon, BigDecimal delta, String caller,
        Instant createdAt) {}
