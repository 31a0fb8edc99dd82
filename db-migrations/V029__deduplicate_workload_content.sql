-- Workload content stored once, addressed by its SHA-256 (issue 36): identical uploads, by one
-- caller or many, share one row of workload_content; each caller holds one reference (a row of
-- workload, its id the one queries name). Content is stored as what it is: DENSE (rows × cols
-- little-endian float64, row-major) or SPARSE (nnz entries of int32 row, int32 col, float64 value,
-- little-endian, in row-major order), whichever is smaller. A reference records the stored size
-- (bytes) that counts towards its creator's quota. Content without references is deleted with the
-- last one (under the content row's lock, so an upload of the same content cannot race it).
CREATE TABLE workload_content (
    sha256      text        PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    rows        integer     NOT NULL CHECK (rows > 0),
    cols        integer     NOT NULL CHECK (cols > 0),
    encoding    text        NOT NULL CHECK (encoding IN ('DENSE', 'SPARSE')),
    nnz         bigint      NOT NULL CHECK (nnz >= 0),
    payload     bytea       NOT NULL,
    created_at  timestamptz NOT NULL
);
ALTER TABLE workload_content ALTER COLUMN payload SET STORAGE EXTERNAL;

INSERT INTO workload_content (sha256, rows, cols, encoding, nnz, payload, created_at)
SELECT DISTINCT ON (sha256) sha256, rows, cols, 'DENSE', rows::bigint * cols, payload, created_at
FROM workload ORDER BY sha256, created_at;

ALTER TABLE workload ADD COLUMN bytes bigint;
UPDATE workload SET bytes = octet_length(payload);
ALTER TABLE workload ALTER COLUMN bytes SET NOT NULL;
ALTER TABLE workload ADD CONSTRAINT workload_bytes_check CHECK (bytes >= 0);
ALTER TABLE workload DROP COLUMN payload;
ALTER TABLE workload ADD CONSTRAINT workload_content_fk FOREIGN KEY (sha256) REFERENCES workload_content (sha256);
CREATE INDEX workload_sha256_idx ON workload (sha256);
CREATE INDEX workload_creator_sha256_idx ON workload (creator, sha256);
