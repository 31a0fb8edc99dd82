-- Datasets: metadata, the privacy unit and the configured budget (enforced by the ledger).
CREATE TABLE dataset (
    id                     uuid PRIMARY KEY,
    name                   text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    kind                   text        NOT NULL CHECK (kind IN ('MATRIX', 'GRAPH')),
    neighbouring           text        NOT NULL CHECK (neighbouring IN ('REPLACE_ONE', 'ADD_REMOVE')),
    row_norm_bound         double precision CHECK (row_norm_bound > 0),
    status                 text        NOT NULL CHECK (status IN ('EMPTY', 'READY')),
    rows                   bigint      CHECK (rows >= 0),
    cols                   bigint      CHECK (cols >= 0),
    nnz                    bigint      CHECK (nnz >= 0),
    clipped_rows           bigint      CHECK (clipped_rows >= 0),
    source_format          text,
    storage                text        CHECK (storage IN ('DENSE', 'SPARSE', 'MIXED', 'EDGES')),
    upload_bytes           bigint,
    budget_epsilon         numeric     NOT NULL CHECK (budget_epsilon > 0),
    budget_delta           numeric     NOT NULL CHECK (budget_delta >= 0 AND budget_delta < 1),
    accounting             text        NOT NULL CHECK (accounting IN ('ZCDP', 'BASIC', 'PURE')),
    approx_delta_fraction  numeric     NOT NULL CHECK (approx_delta_fraction >= 0 AND approx_delta_fraction < 1),
    created_at             timestamptz NOT NULL,
    uploaded_at            timestamptz,
    CONSTRAINT matrix_has_bound CHECK ((kind = 'MATRIX') = (row_norm_bound IS NOT NULL)),
    CONSTRAINT ready_has_shape CHECK (status <> 'READY' OR (rows IS NOT NULL AND cols IS NOT NULL AND nnz IS NOT NULL))
);

CREATE INDEX dataset_created_at_idx ON dataset (created_at, id);

-- Row chunks of a matrix (DENSE: row-major little-endian float64; SPARSE: per row an int32 count,
-- int32 column indices, float64 values) or edge chunks of a graph (EDGES: int32 u, int32 v,
-- float64 w per edge). One upload writes them in one transaction.
CREATE TABLE data_chunk (
    dataset_id   uuid    NOT NULL REFERENCES dataset (id) ON DELETE CASCADE,
    chunk_no     integer NOT NULL CHECK (chunk_no >= 0),
    first_index  bigint  NOT NULL CHECK (first_index >= 0),
    item_count   integer NOT NULL CHECK (item_count > 0),
    encoding     text    NOT NULL CHECK (encoding IN ('DENSE', 'SPARSE', 'EDGES')),
    nnz          bigint  NOT NULL CHECK (nnz >= 0),
    payload      bytea   NOT NULL,
    PRIMARY KEY (dataset_id, chunk_no)
);
-- Float payloads do not compress: store them out of line without trying.
ALTER TABLE data_chunk ALTER COLUMN payload SET STORAGE EXTERNAL;

-- Vertex labels of a graph as uploaded, mapped to dense ids 0..V-1.
CREATE TABLE graph_vertex (
    dataset_id  uuid    NOT NULL REFERENCES dataset (id) ON DELETE CASCADE,
    vertex_id   integer NOT NULL CHECK (vertex_id >= 0),
    label       text    NOT NULL,
    PRIMARY KEY (dataset_id, vertex_id),
    UNIQUE (dataset_id, label)
);
