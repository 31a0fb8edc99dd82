package io.privmat.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What every fault scenario must leave behind, checked on the whole database: each account's
 * committed and reserved totals equal the sums of its ledger entries; every job's settlement
 * matches its state (a job that started reading data is COMMITted, a finished job that did not is
 * REFUNDed, a queued one is still only reserved); every DONE job has its result. With
 * {@code allSettled}, no reservation is left open at all. Every dataset's entries form one hash
 * chain ({@link #checkChains}). Every allocation holds what its subject's entries hold, within its
 * caps, and no account's allocations plus pool spending exceed its caps ({@link #checkAllocations}).
 * An account whose budget renews per period (docs/accounting.md, "Budgets that renew per period")
 * holds its current period: its totals and allocations are compared with that period's entries, and
 * each (job, period) is settled like a job.
 */
public final class LedgerInvariants {

    private LedgerInvariants() {}

    public static void check(JdbcTemplate jdbc, boolean allSettled) {
        for (String track : List.of("rho", "epsilon", "delta")) {
            List<Map<String, Object>> accounts = jdbc.queryForList(("""
                    SELECT a.dataset_id,
                           a.{t}_committed - coalesce(sum(e.{t}) FILTER (WHERE e.entry_type = 'COMMIT'), 0) AS committed_gap,
                           a.{t}_reserved - coalesce(sum(CASE WHEN e.entry_type = 'RESERVE' THEN e.{t}
                                     WHEN e.entry_type IN ('COMMIT', 'REFUND') THEN -e.{t} END), 0) AS reserved_gap
                    FROM budget_account a LEFT JOIN ledger_entry e ON e.dataset_id = a.dataset_id
                        AND e.period IS NOT DISTINCT FROM a.period
                    GROUP BY a.dataset_id, a.{t}_committed, a.{t}_reserved""").replace("{t}", track));
            assertThat(accounts).as(track + ": account totals equal ledger sums").allSatisfy(a -> {
                assertThat(((java.math.BigDecimal) a.get("committed_gap")).signum()).as(a.toString()).isZero();
                assertThat(((java.math.BigDecimal) a.get("reserved_gap")).signum()).as(a.toString()).isZero();
            });
            // Every period of a budget that renews, past ones included (the account holds only the
            // current one): its commits stayed within the account's cap on the track.
            List<Map<String, Object>> periods = jdbc.queryForList(("""
                    SELECT e.dataset_id, e.period, a.{t}_cap - sum(e.{t}) AS headroom
                    FROM ledger_entry e JOIN budget_account a ON a.dataset_id = e.dataset_id
                    WHERE e.period IS NOT NULL AND e.entry_type = 'COMMIT'
                    GROUP BY e.dataset_id, e.period, a.{t}_cap""").replace("{t}", track));
            assertThat(periods).as(track + ": no period committed beyond its cap").allSatisfy(p ->
                    assertThat(((java.math.BigDecimal) p.get("headroom")).signum()).as(p.toString()).isNotNegative());
        }
        List<Map<String, Object>> jobs = jdbc.queryForList("""
                SELECT j.id, j.state, j.data_access_started_at IS NOT NULL AS accessed,
                       count(*) FILTER (WHERE e.entry_type = 'RESERVE') AS reserves,
                       count(*) FILTER (WHERE e.entry_type = 'COMMIT') AS commits,
                       count(*) FILTER (WHERE e.entry_type = 'REFUND') AS refunds,
                       (SELECT count(*) FROM job_result r WHERE r.job_id = j.id) AS results
                FROM job j LEFT JOIN ledger_entry e ON e.job_id = j.id
                GROUP BY j.id, j.state, j.data_access_started_at, e.period""");
        for (Map<String, Object> j : jobs) {
            String state = (String) j.get("state");
            boolean accessed = (Boolean) j.get("accessed");
            long reserves = ((Number) j.get("reserves")).longValue();
            long commits = ((Number) j.get("commits")).longValue();
            long refunds = ((Number) j.get("refunds")).longValue();
            String what = j.toString();
            assertThat(reserves).as(what).isEqualTo(1);
            assertThat(commits + refunds).as(what).isLessThanOrEqualTo(1);
            if (accessed) {
                assertThat(commits).as("data was read: the charge is final " + what).isEqualTo(1);
            } else if (!state.equals("QUEUED") && !state.equals("RUNNING")) {
                assertThat(refunds).as("finished without reading data: refunded " + what).isEqualTo(1);
            } else {
                assertThat(commits + refunds).as("not yet read: only reserved " + what).isZero();
            }
            if (state.equals("DONE")) {
                assertThat(((Number) j.get("results")).longValue()).as("a DONE job has its result " + what).isEqualTo(1);
            }
            if (allSettled) {
                assertThat(state).as("every job finished " + what).isIn("DONE", "FAILED", "CANCELLED");
            }
        }
        checkChains(jdbc);
        checkAllocations(jdbc);
        // Entries of deleted datasets' jobs (the jobs are gone): every reservation settled.
        Long orphanOpen = jdbc.queryForObject("""
                SELECT count(*) FROM ledger_entry r WHERE r.entry_type = 'RESERVE'
                AND NOT EXISTS (SELECT 1 FROM job j WHERE j.id = r.job_id)
                AND NOT EXISTS (SELECT 1 FROM ledger_entry s WHERE s.job_id = r.job_id AND s.entry_type <> 'RESERVE')""",
                Long.class);
        assertThat(orphanOpen).as("reservations of deleted jobs left open").isZero();
    }

    /**
     * Each dataset's ledger is one hash chain in id order (docs/accounting.md, "Tamper evidence"):
     * its first entry names no predecessor, every other names the entry just before it, so no two
     * entries chain onto the same one (no fork, whatever the concurrency). The hashes themselves are
     * recomputed by the verify endpoint ({@code LedgerVerifyApiTest}).
     */
    public static void checkChains(JdbcTemplate jdbc) {
        List<Map<String, Object>> broken = jdbc.queryForList("""
                SELECT dataset_id, id FROM (
                    SELECT dataset_id, id, entry_hash,
                           prev_hash IS NOT DISTINCT FROM lag(entry_hash) OVER (PARTITION BY dataset_id ORDER BY id)
                               AS linked
                    FROM ledger_entry) l
                WHERE NOT linked OR entry_hash IS NULL""");
        assertThat(broken).as("entries not chained to the entry before them").isEmpty();
        List<Map<String, Object>> forks = jdbc.queryForList("""
                SELECT dataset_id, prev_hash, count(*) AS n FROM ledger_entry
                GROUP BY dataset_id, prev_hash HAVING count(*) > 1""");
        assertThat(forks).as("entries chained onto the same predecessor").isEmpty();
    }

    /**
     * Allocations (docs/accounting.md §10), on the whole database and per track: each allocation's
     * spent amount is exactly what its subject's entries on the dataset hold (RESERVE − REFUND) and
     * within its cap; each account's spent amount is the sum of its allocations' spent amounts and
     * of what unallocated subjects' entries hold (the sums equal); and the allocations' caps plus
     * that unallocated spending never exceed the account's cap (so no allocation and no total is
     * overspent, and the pool never went negative).
     */
    public static void checkAllocations(JdbcTemplate jdbc) {
        for (String track : List.of("rho", "epsilon", "delta")) {
            List<Map<String, Object>> allocations = jdbc.queryForList(("""
                    SELECT a.dataset_id, a.subject, a.{t}_cap AS cap, a.{t}_spent AS spent,
                           coalesce((SELECT sum(CASE WHEN e.entry_type = 'RESERVE' THEN e.{t}
                                                     WHEN e.entry_type = 'REFUND' THEN -e.{t} END)
                                     FROM ledger_entry e WHERE e.dataset_id = a.dataset_id AND e.caller = a.subject
                                     AND e.period IS NOT DISTINCT FROM b.period), 0)
                               AS held
                    FROM budget_allocation a JOIN budget_account b ON b.dataset_id = a.dataset_id""").replace("{t}", track));
            assertThat(allocations).as(track + ": allocations hold their subjects' entries, within their caps")
                    .allSatisfy(a -> {
                        java.math.BigDecimal spent = (java.math.BigDecimal) a.get("spent");
                        assertThat(spent).as(a.toString()).isEqualByComparingTo((java.math.BigDecimal) a.get("held"));
                        assertThat(spent).as(a.toString()).isLessThanOrEqualTo((java.math.BigDecimal) a.get("cap"));
                    });
            List<Map<String, Object>> accounts = jdbc.queryForList(("""
                    SELECT b.dataset_id, b.{t}_cap AS cap, b.{t}_committed + b.{t}_reserved AS spent,
                           coalesce((SELECT sum(a.{t}_cap) FROM budget_allocation a WHERE a.dataset_id = b.dataset_id), 0)
                               AS allocated,
                           coalesce((SELECT sum(a.{t}_spent) FROM budget_allocation a WHERE a.dataset_id = b.dataset_id), 0)
                               AS allocated_spent,
                           coalesce((SELECT sum(CASE WHEN e.entry_type = 'RESERVE' THEN e.{t}
                                                     WHEN e.entry_type = 'REFUND' THEN -e.{t} END)
                                     FROM ledger_entry e WHERE e.dataset_id = b.dataset_id
                                     AND e.period IS NOT DISTINCT FROM b.period AND NOT EXISTS (
                                         SELECT 1 FROM budget_allocation a
                                         WHERE a.dataset_id = e.dataset_id AND a.subject = e.caller)), 0) AS pool_spent
                    FROM budget_account b""").replace("{t}", track));
            assertThat(accounts).as(track + ": allocations and the pool add up to the account, within its cap")
                    .allSatisfy(a -> {
                        java.math.BigDecimal cap = (java.math.BigDecimal) a.get("cap");
                        java.math.BigDecimal spent = (java.math.BigDecimal) a.get("spent");
                        java.math.BigDecimal allocatedSpent = (java.math.BigDecimal) a.get("allocated_spent");
                        java.math.BigDecimal poolSpent = (java.math.BigDecimal) a.get("pool_spent");
                        java.math.BigDecimal allocated = (java.math.BigDecimal) a.get("allocated");
                        assertThat(allocatedSpent.add(poolSpent)).as(a.toString()).isEqualByComparingTo(spent);
                        assertThat(allocated.add(poolSpent)).as(a.toString()).isLessThanOrEqualTo(cap);
                        assertThat(spent).as(a.toString()).isLessThanOrEqualTo(cap);
                    });
        }
    }
}
