-- STREAM datasets (docs/adr/0008-streams.md): rows (or weighted edge events) are appended in
-- batches and never stored. What persists is the stream's exact open block and, per standing
-- subscription, the window mechanism's slots and its secret stream key. A subscription is charged
-- once at creation and recorded as a job (kind SUBSCRIPTION, DONE at once) so that its ledger
-- entries and its releases name a job.
ALTER TABLE dataset DROP CONSTRAINT dataset_kind_check;
ALTER TABLE dataset ADD CONSTRAINT dataset_kind_check CHECK (kind IN ('MATRIX', 'GRAPH', 'HISTOGRAM', 'STREAM'));
ALTER TABLE dataset ADD CONSTRAINT stream_is_declared CHECK (kind <> 'STREAM' OR declaration IS NOT NULL);
-- A matrix stream has a row bound; an edge stream has none (weights lie in [0, 1]).
ALTER TABLE dataset DROP CONSTRAINT matrix_has_bound;
ALTER TABLE dataset ADD CONSTRAINT matrix_has_bound CHECK (CASE kind
    WHEN 'MATRIX' THEN row_norm_bound IS NOT NULL
    WHEN 'STREAM' THEN TRUE
    ELSE row_norm_bound IS NULL END);
-- An edge stream declares its vertex universe like a graph.
ALTER TABLE dataset DROP CONSTRAINT declared_vertices_graph_only;
ALTER TABLE dataset ADD CONSTRAINT declared_vertices_graph_only
    CHECK (declared_vertices IS NULL OR kind IN ('GRAPH', 'STREAM'));

-- The shared state of a stream: the block counter, the open block's exact packed Gram (upper
-- triangle, little-endian float64; secret like the rows) and its row count (private under TIME).
-- Appends and block closings lock this row, so a stream has one writer at a time on any replica.
CREATE TABLE stream (
    dataset_id        uuid PRIMARY KEY REFERENCES dataset (id) ON DELETE CASCADE,
    started_at        timestamptz NOT NULL,
    completed_blocks  bigint      NOT NULL DEFAULT 0 CHECK (completed_blocks >= 0),
    open_rows         bigint      NOT NULL DEFAULT 0 CHECK (open_rows >= 0),
    open_block        bytea       NOT NULL,
    appended_rows     bigint      NOT NULL DEFAULT 0 CHECK (appended_rows >= 0),
    clipped_rows      bigint      NOT NULL DEFAULT 0 CHECK (clipped_rows >= 0),
    last_event_at     timestamptz,
    -- Start of the next block to close under TIME (started_at + completed_blocks · blockSeconds).
    next_close_at     timestamptz
);
ALTER TABLE stream ALTER COLUMN open_block SET STORAGE EXTERNAL;
CREATE INDEX stream_due_idx ON stream (next_close_at) WHERE next_close_at IS NOT NULL;

-- A standing query on a stream. Its stream key (256 bits from SecureRandom) keys the noise of every
-- release it makes; it never leaves the service. first_block is the stream block it started with;
-- completed_blocks counts its own releases.
CREATE TABLE subscription (
    id                uuid PRIMARY KEY,
    dataset_id        uuid        NOT NULL REFERENCES dataset (id) ON DELETE CASCADE,
    job_id            uuid        NOT NULL UNIQUE REFERENCES job (id) ON DELETE CASCADE,
    caller            text        NOT NULL,
    kind              text        NOT NULL CHECK (kind IN ('COVARIANCE', 'PCA', 'SKETCH')),
    mechanism         text        NOT NULL,
    spec              jsonb       NOT NULL,
    loss              jsonb       NOT NULL,
    stream_key        bytea       NOT NULL CHECK (length(stream_key) = 32),
    state             text        NOT NULL CHECK (state IN ('ACTIVE', 'CANCELLED', 'FINISHED', 'FAILED')),
    error_code        text,
    first_block       bigint      NOT NULL CHECK (first_block >= 0),
    completed_blocks  bigint      NOT NULL DEFAULT 0 CHECK (completed_blocks >= 0),
    created_at        timestamptz NOT NULL,
    cancelled_at      timestamptz
);
CREATE INDEX subscription_dataset_idx ON subscription (dataset_id, created_at, id);

-- The mechanism's slots (WindowState): packed symmetric matrices under a long key, each written
-- once; secret ones hold exact sums, published ones released values.
CREATE TABLE subscription_slot (
    subscription_id   uuid    NOT NULL REFERENCES subscription (id) ON DELETE CASCADE,
    secret            boolean NOT NULL,
    slot              bigint  NOT NULL,
    payload           bytea   NOT NULL,
    PRIMARY KEY (subscription_id, secret, slot)
);
ALTER TABLE subscription_slot ALTER COLUMN payload SET STORAGE EXTERNAL;

-- Window releases: block by block, at most one per (subscription, block); the release row holds
-- the estimate (free directional variances and cuts), answer the kind's post-processing (PCA).
ALTER TABLE release DROP CONSTRAINT release_kind_check;
ALTER TABLE release ADD CONSTRAINT release_kind_check
    CHECK (kind IN ('GRAPH_SKETCH', 'MATRIX_SKETCH', 'COVARIANCE', 'WINDOW_COVARIANCE', 'WINDOW_LAPLACIAN'));
CREATE TABLE subscription_release (
    subscription_id   uuid   NOT NULL REFERENCES subscription (id) ON DELETE CASCADE,
    block             bigint NOT NULL CHECK (block >= 0),
    stream_block      bigint NOT NULL CHECK (stream_block >= 0),
    release_id        uuid   NOT NULL UNIQUE REFERENCES release (id) ON DELETE CASCADE,
    answer            jsonb,
    PRIMARY KEY (subscription_id, block)
);
