-- One budget account per dataset: caps derived from the dataset's budget by the privacy filter,
-- and running totals of committed and reserved charges. A reservation counts as spent.
CREATE TABLE budget_account (
    dataset_id        uuid PRIMARY KEY REFERENCES dataset (id) ON DELETE CASCADE,
    accounting        text    NOT NULL CHECK (accounting IN ('ZCDP', 'BASIC', 'PURE')),
    rho_cap           numeric NOT NULL CHECK (rho_cap >= 0),
    epsilon_cap       numeric NOT NULL CHECK (epsilon_cap >= 0),
    delta_cap         numeric NOT NULL CHECK (delta_cap >= 0),
    rho_committed     numeric NOT NULL DEFAULT 0 CHECK (rho_committed >= 0),
    epsilon_committed numeric NOT NULL DEFAULT 0 CHECK (epsilon_committed >= 0),
    delta_committed   numeric NOT NULL DEFAULT 0 CHECK (delta_committed >= 0),
    rho_reserved      numeric NOT NULL DEFAULT 0 CHECK (rho_reserved >= 0),
    epsilon_reserved  numeric NOT NULL DEFAULT 0 CHECK (epsilon_reserved >= 0),
    delta_reserved    numeric NOT NULL DEFAULT 0 CHECK (delta_reserved >= 0),
    created_at        timestamptz NOT NULL,
    -- The database itself refuses any state beyond the caps, whatever the code does.
    CONSTRAINT within_rho_cap     CHECK (rho_committed + rho_reserved <= rho_cap),
    CONSTRAINT within_epsilon_cap CHECK (epsilon_committed + epsilon_reserved <= epsilon_cap),
    CONSTRAINT within_delta_cap   CHECK (delta_committed + delta_reserved <= delta_cap)
);

-- The append-only privacy record. No foreign key to dataset: entries outlive a deleted dataset.
CREATE TABLE ledger_entry (
    id          bigserial PRIMARY KEY,
    dataset_id  uuid        NOT NULL,
    job_id      uuid        NOT NULL,
    entry_type  text        NOT NULL CHECK (entry_type IN ('RESERVE', 'COMMIT', 'RELEASE')),
    kind        text        NOT NULL,
    mechanism   text        NOT NULL,
    parameters  jsonb       NOT NULL,
    loss        jsonb       NOT NULL,
    rho         numeric     NOT NULL CHECK (rho >= 0),
    epsilon     numeric     NOT NULL CHECK (epsilon >= 0),
    delta       numeric     NOT NULL CHECK (delta >= 0),
    caller      text        NOT NULL,
    created_at  timestamptz NOT NULL,
    UNIQUE (job_id, entry_type)
);
CREATE INDEX ledger_entry_dataset_idx ON ledger_entry (dataset_id, id);

CREATE FUNCTION ledger_entry_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger entries are append-only (% refused)', TG_OP;
END;
$$;
CREATE TRIGGER ledger_entry_no_update_or_delete
    BEFORE UPDATE OR DELETE ON ledger_entry
    FOR EACH ROW EXECUTE FUNCTION ledger_entry_append_only();
CREATE TRIGGER ledger_entry_no_truncate
    BEFORE TRUNCATE ON ledger_entry
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_entry_append_only();
