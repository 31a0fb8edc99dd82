-- Repeat answers (docs/accounting.md, "Repeat answers"): a dataset's data version, and the version a
-- query job was admitted on. Reuse returns an earlier DONE job's release only while the job's
-- data_version equals the dataset's.
--
-- data_version counts changes of the dataset's row. Everything a release depends on changes that row
-- in the same transaction: an upload or a replacement sets status, counts and time under the upload
-- lock (chunks, labels, dropped ratings with it), a stream append adds to rows, and the public facts
-- (bounds, declaration, budget) live in the row. A trigger bumps the counter on every UPDATE that
-- changes the row, so no code path can change the row and forget it; deletion removes the row with
-- the jobs (nothing is left to reuse).
ALTER TABLE dataset ADD COLUMN data_version bigint NOT NULL DEFAULT 0;

CREATE FUNCTION dataset_bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.data_version := OLD.data_version + 1;
    RETURN NEW;
END
$$;

CREATE TRIGGER dataset_data_version BEFORE UPDATE ON dataset
    FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION dataset_bump_data_version();

-- The dataset's data_version read in the admission transaction; NULL for jobs admitted before this
-- migration and for subscription records, which are never reused.
ALTER TABLE job ADD COLUMN data_version bigint;

CREATE INDEX job_reuse_idx ON job (dataset_id, request_hash) WHERE state = 'DONE' AND data_version IS NOT NULL;
