-- Tamper evidence (docs/accounting.md, "Tamper evidence"): each ledger entry carries the hash of
-- the previous entry of its dataset's ledger (prev_hash; NULL for the first) and its own SHA-256
-- (entry_hash) over its canonical bytes, which include prev_hash: one hash chain per dataset, in id
-- order. A trigger computes both in the transaction that inserts the entry, under the account's row
-- lock; existing entries are chained here, in id order. The Java verifier
-- (io.privmat.ledger.LedgerChain) recomputes the same bytes independently of these functions.
ALTER TABLE ledger_entry ADD COLUMN prev_hash bytea, ADD COLUMN entry_hash bytea;

-- One field of the canonical bytes: its text's UTF-8 length as a 4-byte big-endian integer, then
-- the UTF-8 bytes.
CREATE FUNCTION ledger_entry_field(t text) RETURNS bytea LANGUAGE sql STABLE STRICT AS $$
    SELECT int4send(octet_length(convert_to(t, 'UTF8'))) || convert_to(t, 'UTF8')
$$;

-- SHA-256 of the canonical bytes: the ASCII tag 'privmat-ledger-entry-v1', then 14 fields: the
-- previous hash (lowercase hex, empty for the first entry), id, dataset id, job id (UUIDs lowercase
-- with hyphens), entry type, kind, mechanism, parameters and loss (the stored jsonb's text), rho,
-- epsilon and delta (plain decimals without trailing zeros), caller, created_at (UTC,
-- YYYY-MM-DDTHH:MM:SS.ffffffZ).
CREATE FUNCTION ledger_entry_hash(prev bytea, id bigint, dataset_id uuid, job_id uuid, entry_type text,
        kind text, mechanism text, parameters jsonb, loss jsonb, rho numeric, epsilon numeric, delta numeric,
        caller text, created_at timestamptz) RETURNS bytea LANGUAGE sql STABLE AS $$
    SELECT sha256(convert_to('privmat-ledger-entry-v1', 'UTF8')
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
        || ledger_entry_field(to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')))
$$;

-- Chain the existing entries, dataset by dataset in id order (the append-only guard is lifted for
-- this backfill only, in this migration's transaction, as V008 did).
ALTER TABLE ledger_entry DISABLE TRIGGER ledger_entry_no_update_or_delete;
DO $$
DECLARE
    e record;
    current_dataset uuid;
    prev bytea;
    h bytea;
BEGIN
    FOR e IN SELECT * FROM ledger_entry ORDER BY dataset_id, id LOOP
        IF current_dataset IS DISTINCT FROM e.dataset_id THEN
            current_dataset := e.dataset_id;
            prev := NULL;
        END IF;
        h := ledger_entry_hash(prev, e.id, e.dataset_id, e.job_id, e.entry_type, e.kind, e.mechanism, e.parameters,
                e.loss, e.rho, e.epsilon, e.delta, e.caller, e.created_at);
        UPDATE ledger_entry SET prev_hash = prev, entry_hash = h WHERE id = e.id;
        prev := h;
    END LOOP;
END;
$$;
ALTER TABLE ledger_entry ENABLE TRIGGER ledger_entry_no_update_or_delete;
ALTER TABLE ledger_entry ALTER COLUMN entry_hash SET NOT NULL;

-- Every insert is chained here, whatever the writer: the previous entry is the dataset's entry with
-- the largest id. Appends to one dataset are serialised on its budget_account row (the writers lock
-- it before appending); the trigger takes that lock again (a no-op when held), or an advisory lock
-- on the dataset when its account is gone, so that two transactions can never chain onto the same
-- entry. An entry whose id was drawn before its predecessor was appended is refused: ids must
-- follow the chain.
CREATE FUNCTION ledger_entry_chain() RETURNS trigger LANGUAGE plpgsql AS $$
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
            NEW.mechanism, NEW.parameters, NEW.loss, NEW.rho, NEW.epsilon, NEW.delta, NEW.caller, NEW.created_at);
    RETURN NEW;
END;
$$;
CREATE TRIGGER ledger_entry_chain BEFORE INSERT ON ledger_entry
    FOR EACH ROW EXECUTE FUNCTION ledger_entry_chain();
