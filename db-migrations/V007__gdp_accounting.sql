-- GDP accounting mode (docs/adr/0007-gdp-accounting.md): Σμ²/2 is kept on the rho track, so only
-- the allowed mode names change.
ALTER TABLE dataset DROP CONSTRAINT dataset_accounting_check;
ALTER TABLE dataset ADD CONSTRAINT dataset_accounting_check CHECK (accounting IN ('ZCDP', 'BASIC', 'PURE', 'GDP'));
ALTER TABLE budget_account DROP CONSTRAINT budget_account_accounting_check;
ALTER TABLE budget_account ADD CONSTRAINT budget_account_accounting_check
    CHECK (accounting IN ('ZCDP', 'BASIC', 'PURE', 'GDP'));
