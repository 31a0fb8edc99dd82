-- Private artifacts released once by a job and queried for free afterwards (post-processing).
-- A release is served only while its job is DONE: a job cancelled after data access keeps its
-- charge but its release is never served.
CREATE TABLE release (
    id          uuid PRIMARY KEY,
    dataset_id  uuid        NOT NULL REFERENCES dataset (id) ON DELETE CASCADE,
    job_id      uuid        NOT NULL REFERENCES job (id) ON DELETE CASCADE,
    kind        text        NOT NULL CHECK (kind IN ('GRAPH_SKETCH', 'MATRIX_SKETCH', 'COVARIANCE')),
    mechanism   text        NOT NULL,
    parameters  jsonb       NOT NULL,
    loss        jsonb       NOT NULL,
    meta        jsonb       NOT NULL,
    rows        integer     NOT NULL CHECK (rows > 0),
    cols        integer     NOT NULL CHECK (cols > 0),
    encoding    text        NOT NULL CHECK (encoding IN ('FLOAT32', 'FLOAT64')),
    payload     bytea       NOT NULL,
    created_at  timestamptz NOT NULL
);
ALTER TABLE release ALTER COLUMN payload SET STORAGE EXTERNAL;
CREATE INDEX release_dataset_idx ON release (dataset_id, created_at);
