-- Per-analyst allocations of a dataset's budget (docs/accounting.md §10 "Allocations"). Each row
-- is a share of the account's tracks for one subject (the analyst's API-key subject): caps on the
-- same tracks as budget_account, and what that subject has spent on them (committed plus reserved,
-- like the account: RESERVE adds, REFUND removes, COMMIT leaves it). Rows change only while the
-- account row is locked FOR UPDATE (the lock of admission), so the spent amounts and the rule
-- "sum of allocations plus what unallocated subjects spent <= the account's caps" hold under any
-- concurrency. Allocations are configuration, not charges: they are not ledger entries and are
-- not in the ledger's hash chain (V031); the ledger's columns are unchanged.
CREATE TABLE budget_allocation (
    dataset_id    uuid    NOT NULL REFERENCES budget_account (dataset_id) ON DELETE CASCADE,
    subject       text    NOT NULL CHECK (length(subject) BETWEEN 1 AND 200),
    rho_cap       numeric NOT NULL CHECK (rho_cap >= 0),
    epsilon_cap   numeric NOT NULL CHECK (epsilon_cap >= 0),
    delta_cap     numeric NOT NULL CHECK (delta_cap >= 0),
    rho_spent     numeric NOT NULL DEFAULT 0 CHECK (rho_spent >= 0),
    epsilon_spent numeric NOT NULL DEFAULT 0 CHECK (epsilon_spent >= 0),
    delta_spent   numeric NOT NULL DEFAULT 0 CHECK (delta_spent >= 0),
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL,
    PRIMARY KEY (dataset_id, subject),
    -- The database itself refuses an allocation spent beyond its caps, whatever the code does.
    CONSTRAINT within_rho_allocation     CHECK (rho_spent <= rho_cap),
    CONSTRAINT within_epsilon_allocation CHECK (epsilon_spent <= epsilon_cap),
    CONSTRAINT within_delta_allocation   CHECK (delta_spent <= delta_cap)
);
