-- A RELEASE entry was a refund of a reservation (no data was read); call it what it is. The ledger is
-- append-only, so its guard triggers are lifted for this one rename and restored in the same
-- transaction (Flyway runs each migration in one transaction).
ALTER TABLE ledger_entry DISABLE TRIGGER ledger_entry_no_update_or_delete;
ALTER TABLE ledger_entry DROP CONSTRAINT ledger_entry_entry_type_check;
UPDATE ledger_entry SET entry_type = 'REFUND' WHERE entry_type = 'RELEASE';
ALTER TABLE ledger_entry ADD CONSTRAINT ledger_entry_entry_type_check
    CHECK (entry_type IN ('RESERVE', 'COMMIT', 'REFUND'));
ALTER TABLE ledger_entry ENABLE TRIGGER ledger_entry_no_update_or_delete;
