-- Budgets that renew per period on STREAM datasets (docs/accounting.md, "Budgets that renew per
-- period"; docs/adr/0008-streams.md). A stream may declare periodBlocks P: its budget is then per
-- period k (blocks [kP, (k+1)P)), and a subscription holds one charge per period it reads.

-- The period a charge pays for: NULL for every charge that is not periodic (every entry written
-- before this migration, every query's). One RESERVE and one COMMIT per (job, period): the unique
-- key treats NULL periods as equal, so a non-periodic job keeps exactly one of each.
ALTER TABLE ledger_entry ADD COLUMN period bigint CHECK (period >= 0);
ALTER TABLE ledger_entry DROP CONSTRAINT ledger_entry_job_id_entry_type_key;
CREATE UNIQUE INDEX ledger_entry_job_type_period_key ON ledger_entry (job_id, entry_type, coalesce(period, -1));

-- The canonical bytes of an entry with a period: the tag 'privmat-ledger-entry-v2' and the 14
-- fields of V031 followed by a 15th, the period in decimal. An entry without a period keeps the v1
-- bytes exactly (V031's function), so every chain written before still verifies.
CREATE FUNCTION ledger_entry_hash(prev bytea, id bigint, dataset_id uuid, job_id uuid, entry_type text,
        kind text, mechanism text, parameters jsonb, loss jsonb, rho numeric, epsilon numeric, delta numeric,
        caller text, created_at timestamptz, period bigint) RETURNS bytea LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN period IS NULL
        THEN ledger_entry_hash(prev, id, dataset_id, job_id, entry_type, kind, mechanism, parameters, loss, rho,
                epsilon, delta, caller, created_at)
        ELSE sha256(convert_to('privmat-ledger-entry-v2', 'UTF8')
            || ledger_entry_field(coalesce(encode(prev, 'hex'), ''))
            || ledger_entry_field(id::text)
            || ledger_entry_field(dataset_id::text)
            || ledger_entry_field(job_id::text)
            || ledger_entry_field(entry_type)
            || ledger_entry_field(kind)
            || ledger_entry_field(mechanism)
            || ledger_entry_field(parameters::text)
            || ledger_entry_field(loss::text)
            || ledger_entry_field(trim_scale(rho)::text)
            || ledger_entry_field(trim_scale(epsilon)::text)
            || ledger_entry_field(trim_scale(delta)::text)
            || ledger_entry_field(caller)
            || ledger_entry_field(to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
            || ledger_entry_field(period::text)) END
$$;

-- The chaining trigger of V031, hashing through the function above (same locking, same id rule).
CREATE OR REPLACE FUNCTION ledger_entry_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    head_id bigint;
    head_hash bytea;
BEGIN
    PERFORM 1 FROM budget_account WHERE dataset_id = NEW.dataset_id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM pg_advisory_xact_lock(hashtextextended(NEW.dataset_id::text, 31));
    END IF;
    SELECT id, entry_hash INTO head_id, head_hash FROM ledger_entry
        WHERE dataset_id = NEW.dataset_id ORDER BY id DESC LIMIT 1;
    IF head_id IS NOT NULL AND head_id >= NEW.id THEN
        RAISE EXCEPTION 'ledger entry % of dataset % was numbered before entry % was appended (append under the account lock)',
            NEW.id, NEW.dataset_id, head_id;
    END IF;
    NEW.prev_hash := head_hash;
    NEW.entry_hash := ledger_entry_hash(NEW.prev_hash, NEW.id, NEW.dataset_id, NEW.job_id, NEW.entry_type, NEW.kind,
            NEW.mechanism, NEW.parameters, NEW.loss, NEW.rho, NEW.epsilon, NEW.delta, NEW.caller, NEW.created_at,
            NEW.period);
    RETURN NEW;
END;
$$;

-- The account of a periodic dataset holds its current period: committed, reserved and every
-- allocation's spent amount are that period's. A charge for a later period rolls the account (all
-- of them reset to 0, period set), under the account's row lock. NULL: not periodic.
ALTER TABLE budget_account ADD COLUMN period bigint CHECK (period >= 0);

-- A subscription on a periodic stream: the latest period it holds a committed charge for; the
-- period it is paused in (its charge was refused: it reads none of that period's blocks) and the
-- limit that refused; and the stream block its current state and stream key started with (its
-- first block, or the block it restarted with after a pause).
ALTER TABLE subscription ADD COLUMN charged_period bigint CHECK (charged_period >= 0),
    ADD COLUMN paused_period bigint CHECK (paused_period >= 0),
    ADD COLUMN paused_limit text CHECK (paused_limit IN ('ALLOCATION', 'POOL', 'TOTAL')),
    ADD COLUMN run_block bigint CHECK (run_block >= 0);
