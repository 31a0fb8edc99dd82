package io.privmat.ledger;

import java.time.Instant;

/**
 * A charge that became final: its COMMIT entry, and when the job was admitted (its RESERVE entry's
 * time, which an analyst may see; a COMMIT's own time is written by the worker and depends on other
 * jobs' running times, docs/accounting.md "Transparency record").
 */
public record CommittedCharge(LedgerEntry commit, Instant admittedAt) {}
