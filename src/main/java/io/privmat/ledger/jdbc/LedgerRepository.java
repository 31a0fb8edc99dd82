package io.privmat.ledger.jdbc;

import io.privmat.ledger.Allocation;
import io.privmat.ledger.BudgetAccount;
import io.privmat.ledger.CommittedCharge;
import io.privmat.ledger.EntryType;
import io.privmat.ledger.LedgerChain;
import io.privmat.ledger.LedgerEntry;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Tracks;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Repository;

/** SQL of the ledger. Every method runs in the caller's transaction. */
@Repository
public class LedgerRepository {

    private static final String ACCOUNT_COLUMNS = "dataset_id, accounting, rho_cap, epsilon_cap, delta_cap, "
            + "rho_committed, epsilon_committed, delta_committed, rho_reserved, epsilon_reserved, delta_reserved, period";

    private final JdbcTemplate jdbc;

    public LedgerRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    private static final RowMapper<BudgetAccount> ACCOUNT = (rs, i) -> new BudgetAccount(
            rs.getObject("dataset_id", UUID.class),
            AccountingMode.valueOf(rs.getString("accounting")),
            new Tracks(rs.getBigDecimal("rho_cap"), rs.getBigDecimal("epsilon_cap"), rs.getBigDecimal("delta_cap")),
            new Tracks(rs.getBigDecimal("rho_committed"), rs.getBigDecimal("epsilon_committed"),
                    rs.getBigDecimal("delta_committed")),
            new Tracks(rs.getBigDecimal("rho_reserved"), rs.getBigDecimal("epsilon_reserved"),
                    rs.getBigDecimal("delta_reserved")), rs.getObject("period", Long.class));

    private static final RowMapper<LedgerEntry> ENTRY = (ResultSet rs, int i) -> new LedgerEntry(
            rs.getLong("id"), rs.getObject("dataset_id", UUID.class), rs.getObject("job_id", UUID.class),
            EntryType.valueOf(rs.getString("entry_type")), rs.getString("kind"), rs.getString("mechanism"),
            rs.getString("parameters"), rs.getString("loss"), rs.getBigDecimal("rho"), rs.getBigDecimal("epsilon"),
            rs.getBigDecimal("delta"), rs.getString("caller"), rs.getTimestamp("created_at").toInstant(),
            rs.getObject("period", Long.class));

    /** Creates the account if it does not exist yet (idempotent, race-free). */
    public void ensureAccount(UUID datasetId, AccountingMode mode, Tracks capacity, Instant now) {
        jdbc.update("INSERT INTO budget_account (dataset_id, accounting, rho_cap, epsilon_cap, delta_cap, created_at) "
                        + "VALUES (?,?,?,?,?,?) ON CONFLICT (dataset_id) DO NOTHING",
                datasetId, mode.name(), capacity.rho(), capacity.epsilon(), capacity.delta(), Timestamp.from(now));
    }

    public Optional<BudgetAccount> find(UUID datasetId) {
        return jdbc.query("SELECT " + ACCOUNT_COLUMNS + " FROM budget_account WHERE dataset_id = ?", ACCOUNT, datasetId)
                .stream().findFirst();
    }

    /** Locks the account row until the transaction ends. */
    public Optional<BudgetAccount> lock(UUID datasetId) {
        return jdbc.query("SELECT " + ACCOUNT_COLUMNS + " FROM budget_account WHERE dataset_id = ? FOR UPDATE",
                ACCOUNT, datasetId).stream().findFirst();
    }

    /**
     * Rolls a periodic account to {@code period} (docs/accounting.md, "Budgets that renew per
     * period"): its committed and reserved totals and every allocation's spent amounts start again at
     * 0. Under the account's row lock, before the first charge of the new period.
     */
    public void roll(UUID datasetId, long period) {
        jdbc.update("UPDATE budget_account SET rho_committed = 0, epsilon_committed = 0, delta_committed = 0, "
                + "rho_reserved = 0, epsilon_reserved = 0, delta_reserved = 0, period = ? WHERE dataset_id = ?", period,
                datasetId);
        jdbc.update("UPDATE budget_allocation SET rho_spent = 0, epsilon_spent = 0, delta_spent = 0 WHERE dataset_id = ?",
                datasetId);
    }

    /** Adds to (or, with negative amounts, removes from) the reserved and committed totals. */
    public void adjust(UUID datasetId, Tracks reservedDelta, boolean subtractReserved, Tracks committedDelta) {
        String sign = subtractReserved ? "-" : "+";
        jdbc.update("UPDATE budget_account SET "
                        + "rho_reserved = rho_reserved " + sign + " ?, epsilon_reserved = epsilon_reserved " + sign + " ?, "
                        + "delta_reserved = delta_reserved " + sign + " ?, "
                        + "rho_committed = rho_committed + ?, epsilon_committed = epsilon_committed + ?, "
                        + "delta_committed = delta_committed + ? WHERE dataset_id = ?",
                reservedDelta.rho(), reservedDelta.epsilon(), reservedDelta.delta(),
                committedDelta.rho(), committedDelta.epsilon(), committedDelta.delta(), datasetId);
    }

    private static final String INSERT_ENTRY = "INSERT INTO ledger_entry (dataset_id, job_id, entry_type, kind, "
            + "mechanism, parameters, loss, rho, epsilon, delta, caller, created_at, period) "
            + "VALUES (?,?,?,?,?,?::jsonb,?::jsonb,?,?,?,?,?,?)";

    public void append(UUID datasetId, UUID jobId, EntryType type, String kind, String mechanism, String parameters,
            String loss, Tracks amount, String caller, @Nullable Long period, Instant now) {
        appendAll(datasetId, List.of(new NewEntry(jobId, type, kind, mechanism, parameters, loss, amount, caller,
                period)), now);
    }

    /**
     * An entry to append: its job, type, the query's public description, the amount, and the period
     * it pays for (null when the budget does not renew).
     */
    public record NewEntry(UUID jobId, EntryType type, String kind, String mechanism, String parameters, String loss,
            Tracks amount, String caller, @Nullable Long period) {}

    /** Appends entries of one dataset in the order given, as one JDBC batch (one round trip). */
    public void appendAll(UUID datasetId, List<NewEntry> entries, Instant now) {
        Timestamp at = Timestamp.from(now);
        if (entries.size() == 1) {
            NewEntry e = entries.get(0);
            jdbc.update(INSERT_ENTRY, datasetId, e.jobId(), e.type().name(), e.kind(), e.mechanism(), e.parameters(),
                    e.loss(), e.amount().rho(), e.amount().epsilon(), e.amount().delta(), e.caller(), at, e.period());
            return;
        }
        jdbc.batchUpdate(INSERT_ENTRY, entries.stream().map(e -> new Object[] {datasetId, e.jobId(), e.type().name(),
                e.kind(), e.mechanism(), e.parameters(), e.loss(), e.amount().rho(), e.amount().epsilon(),
                e.amount().delta(), e.caller(), at, e.period()}).toList());
    }

    /** The entries of one job, oldest first. */
    public List<LedgerEntry> entriesOfJob(UUID jobId) {
        return jdbc.query("SELECT * FROM ledger_entry WHERE job_id = ? ORDER BY id", ENTRY, jobId);
    }

    public List<LedgerEntry> entries(UUID datasetId, long afterId, int limit) {
        return jdbc.query("SELECT * FROM ledger_entry WHERE dataset_id = ? AND id > ? ORDER BY id LIMIT ?", ENTRY,
                datasetId, afterId, limit);
    }

    /** Entries of one caller (subject) only. */
    public List<LedgerEntry> entriesOf(UUID datasetId, String caller, long afterId, int limit) {
        return jdbc.query("SELECT * FROM ledger_entry WHERE dataset_id = ? AND caller = ? AND id > ? ORDER BY id LIMIT ?",
                ENTRY, datasetId, caller, afterId, limit);
    }

    public long countOf(UUID datasetId, String caller) {
        Long n = jdbc.queryForObject("SELECT count(*) FROM ledger_entry WHERE dataset_id = ? AND caller = ?", Long.class,
                datasetId, caller);
        return n == null ? 0 : n;
    }

    /**
     * A page of the dataset's COMMIT entries (the charges that became final), in id order, each with
     * the time its RESERVE entry was written (its admission); {@code caller} null for every caller's.
     */
    public List<CommittedCharge> commits(UUID datasetId, @Nullable String caller, long afterId, int limit) {
        return jdbc.query("SELECT c.*, (SELECT min(r.created_at) FROM ledger_entry r WHERE r.dataset_id = c.dataset_id "
                        + "AND r.job_id = c.job_id AND r.entry_type = 'RESERVE' AND r.period IS NOT DISTINCT FROM c.period) "
                        + "AS admitted_at FROM ledger_entry c "
                        + "WHERE c.dataset_id = ? AND c.entry_type = 'COMMIT' AND (?::text IS NULL OR c.caller = ?) "
                        + "AND c.id > ? ORDER BY c.id LIMIT ?",
                (rs, i) -> {
                    LedgerEntry e = ENTRY.mapRow(rs, i);
                    Timestamp admitted = rs.getTimestamp("admitted_at");
                    return new CommittedCharge(e, admitted == null ? e.createdAt() : admitted.toInstant());
                }, datasetId, caller, caller, afterId, limit);
    }

    /** The number of the dataset's COMMIT entries ({@code caller} null for every caller's). */
    public long commitCount(UUID datasetId, @Nullable String caller) {
        Long n = jdbc.queryForObject("SELECT count(*) FROM ledger_entry WHERE dataset_id = ? AND entry_type = 'COMMIT' "
                + "AND (?::text IS NULL OR caller = ?)", Long.class, datasetId, caller, caller);
        return n == null ? 0 : n;
    }

    public long count(UUID datasetId) {
        Long n = jdbc.queryForObject("SELECT count(*) FROM ledger_entry WHERE dataset_id = ?", Long.class, datasetId);
        return n == null ? 0 : n;
    }

    private static final RowMapper<LedgerChain.Chained> CHAINED = (rs, i) ->
            new LedgerChain.Chained(ENTRY.mapRow(rs, i), rs.getBytes("prev_hash"), rs.getBytes("entry_hash"));

    /** A page of a dataset's entries with their chain columns, in id order (keyset: after {@code afterId}). */
    public List<LedgerChain.Chained> chained(UUID datasetId, long afterId, int limit) {
        return jdbc.query("SELECT * FROM ledger_entry WHERE dataset_id = ? AND id > ? ORDER BY id LIMIT ?", CHAINED,
                datasetId, afterId, limit);
    }

    /** The dataset's last entry with its stored hash, if it has entries. */
    public Optional<LedgerChain.Chained> head(UUID datasetId) {
        return jdbc.query("SELECT * FROM ledger_entry WHERE dataset_id = ? ORDER BY id DESC LIMIT 1", CHAINED, datasetId)
                .stream().findFirst();
    }

    /** Entries of the account's current period: all of them unless the account renews per period. */
    private static final String CURRENT_PERIOD = " AND period IS NOT DISTINCT FROM "
            + "(SELECT a.period FROM budget_account a WHERE a.dataset_id = ledger_entry.dataset_id)";

    /**
     * Re-sums the ledger of a dataset: [committed, reserved] as recomputed from the entries of the
     * account's current period (all of them when it does not renew).
     */
    public Tracks[] resum(UUID datasetId) {
        return jdbc.query("SELECT "
                + "coalesce(sum(CASE WHEN entry_type = 'COMMIT' THEN rho END), 0) AS rc, "
                + "coalesce(sum(CASE WHEN entry_type = 'COMMIT' THEN epsilon END), 0) AS ec, "
                + "coalesce(sum(CASE WHEN entry_type = 'COMMIT' THEN delta END), 0) AS dc, "
                + "coalesce(sum(CASE WHEN entry_type = 'RESERVE' THEN rho WHEN entry_type IN ('COMMIT', 'REFUND') "
                + "THEN -rho END), 0) AS rr, "
                + "coalesce(sum(CASE WHEN entry_type = 'RESERVE' THEN epsilon WHEN entry_type IN ('COMMIT', 'REFUND') "
                + "THEN -epsilon END), 0) AS er, "
                + "coalesce(sum(CASE WHEN entry_type = 'RESERVE' THEN delta WHEN entry_type IN ('COMMIT', 'REFUND') "
                + "THEN -delta END), 0) AS dr "
                + "FROM ledger_entry WHERE dataset_id = ?" + CURRENT_PERIOD, (ResultSet rs) -> {
                    rs.next();
                    return new Tracks[] {
                        new Tracks(rs.getBigDecimal("rc"), rs.getBigDecimal("ec"), rs.getBigDecimal("dc")),
                        new Tracks(rs.getBigDecimal("rr"), rs.getBigDecimal("er"), rs.getBigDecimal("dr"))};
                }, datasetId);
    }

    private static final RowMapper<Allocation> ALLOCATION = (rs, i) -> new Allocation(
            rs.getObject("dataset_id", UUID.class), rs.getString("subject"), tracks(rs, "", "_cap"),
            tracks(rs, "", "_spent"), rs.getTimestamp("updated_at").toInstant());

    /** Every allocation of a dataset, by subject. */
    public List<Allocation> allocations(UUID datasetId) {
        return jdbc.query("SELECT * FROM budget_allocation WHERE dataset_id = ? ORDER BY subject", ALLOCATION, datasetId);
    }

    /** The allocations of these subjects (those that have one). */
    public List<Allocation> allocationsOf(UUID datasetId, java.util.Collection<String> subjects) {
        return jdbc.query("SELECT * FROM budget_allocation WHERE dataset_id = ? AND subject = ANY (?)", ALLOCATION,
                datasetId, subjects.toArray(String[]::new));
    }

    public long allocationCount(UUID datasetId) {
        Long n = jdbc.queryForObject("SELECT count(*) FROM budget_allocation WHERE dataset_id = ?", Long.class, datasetId);
        return n == null ? 0 : n;
    }

    /** Σ cap and Σ spent over a dataset's allocations: [caps, spent]. */
    public Tracks[] allocationSums(UUID datasetId) {
        return jdbc.query("SELECT coalesce(sum(rho_cap), 0) AS rho_cap, coalesce(sum(epsilon_cap), 0) AS epsilon_cap, "
                + "coalesce(sum(delta_cap), 0) AS delta_cap, coalesce(sum(rho_spent), 0) AS rho_spent, "
                + "coalesce(sum(epsilon_spent), 0) AS epsilon_spent, coalesce(sum(delta_spent), 0) AS delta_spent "
                + "FROM budget_allocation WHERE dataset_id = ?", (ResultSet rs) -> {
                    rs.next();
                    return new Tracks[] {tracks(rs, "", "_cap"), tracks(rs, "", "_spent")};
                }, datasetId);
    }

    /**
     * What a subject's ledger entries hold on the dataset: RESERVE minus REFUND (committed plus
     * reserved), in the account's current period when it renews per period.
     */
    public Tracks spentBy(UUID datasetId, String subject) {
        return jdbc.query("SELECT "
                + "coalesce(sum(CASE WHEN entry_type = 'RESERVE' THEN rho WHEN entry_type = 'REFUND' THEN -rho END), 0) AS rho, "
                + "coalesce(sum(CASE WHEN entry_type = 'RESERVE' THEN epsilon WHEN entry_type = 'REFUND' THEN -epsilon END), 0) "
                + "AS epsilon, "
                + "coalesce(sum(CASE WHEN entry_type = 'RESERVE' THEN delta WHEN entry_type = 'REFUND' THEN -delta END), 0) "
                + "AS delta FROM ledger_entry WHERE dataset_id = ? AND caller = ?" + CURRENT_PERIOD, (ResultSet rs) -> {
                    rs.next();
                    return tracks(rs, "", "");
                }, datasetId, subject);
    }

    /** Creates or replaces a subject's allocation with these caps and spent amounts. */
    public void putAllocation(UUID datasetId, String subject, Tracks cap, Tracks spent, Instant now) {
        jdbc.update("INSERT INTO budget_allocation (dataset_id, subject, rho_cap, epsilon_cap, delta_cap, rho_spent, "
                        + "epsilon_spent, delta_spent, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?) "
                        + "ON CONFLICT (dataset_id, subject) DO UPDATE SET rho_cap = excluded.rho_cap, "
                        + "epsilon_cap = excluded.epsilon_cap, delta_cap = excluded.delta_cap, "
                        + "rho_spent = excluded.rho_spent, epsilon_spent = excluded.epsilon_spent, "
                        + "delta_spent = excluded.delta_spent, updated_at = excluded.updated_at",
                datasetId, subject, cap.rho(), cap.epsilon(), cap.delta(), spent.rho(), spent.epsilon(), spent.delta(),
                Timestamp.from(now), Timestamp.from(now));
    }

    public boolean deleteAllocation(UUID datasetId, String subject) {
        return jdbc.update("DELETE FROM budget_allocation WHERE dataset_id = ? AND subject = ?", datasetId, subject) > 0;
    }

    /** Adds to (or, with {@code subtract}, removes from) a subject's spent amounts, if it has an allocation. */
    public void adjustAllocation(UUID datasetId, String subject, Tracks amount, boolean subtract) {
        String sign = subtract ? "-" : "+";
        jdbc.update("UPDATE budget_allocation SET rho_spent = rho_spent " + sign + " ?, epsilon_spent = epsilon_spent "
                        + sign + " ?, delta_spent = delta_spent " + sign + " ? WHERE dataset_id = ? AND subject = ?",
                amount.rho(), amount.epsilon(), amount.delta(), datasetId, subject);
    }

    static Tracks tracks(ResultSet rs, String prefix, String suffix) throws SQLException {
        return new Tracks(rs.getBigDecimal(prefix + "rho" + suffix), rs.getBigDecimal(prefix + "epsilon" + suffix),
                rs.getBigDecimal(prefix + "delta" + suffix));
    }
}
