-- Query workloads an analyst uploads once and names by id (LINEAR_QUERIES, workload CUSTOM). A
-- workload is public (it says which linear queries to answer, nothing about any dataset) and
-- immutable; payload is its rows × cols values, row-major little-endian float64. sha256 identifies
-- its content (plans store it, so a plan never runs on other queries than it was charged for).
CREATE TABLE workload (
    id          uuid PRIMARY KEY,
    creator     text        NOT NULL,
    name        text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    rows        integer     NOT NULL CHECK (rows > 0),
    cols        integer     NOT NULL CHECK (cols > 0),
    sha256      text        NOT NULL,
    format      text        NOT NULL,
    payload     bytea       NOT NULL,
    created_at  timestamptz NOT NULL
);
ALTER TABLE workload ALTER COLUMN payload SET STORAGE EXTERNAL;
CREATE INDEX workload_creator_idx ON workload (creator, created_at, id);
