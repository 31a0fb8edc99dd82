-- Strategies of LINEAR_QUERIES (OPTIMIZED, LOW_RANK_MECHANISM): public, data-independent artifacts
-- computed from a workload and options alone, cached here so that every replica and every later plan
-- reuses the same bytes. id is the hex SHA-256 of cache_key (workload hash / mechanism / options);
-- codec is the versioned StrategyCodec encoding; info the public StrategyInfo and task facts. A
-- computation is deterministic, so replicas that compute the same key write the same bytes: the first
-- insert wins (ON CONFLICT DO NOTHING) and nothing is ever updated. No dataset is referenced.
CREATE TABLE strategy (
    id          text        PRIMARY KEY CHECK (id ~ '^[0-9a-f]{64}$'),
    cache_key   text        NOT NULL,
    mechanism   text        NOT NULL CHECK (mechanism IN ('OPTIMIZED', 'LOW_RANK_MECHANISM')),
    info        jsonb       NOT NULL,
    codec       bytea       NOT NULL,
    created_at  timestamptz NOT NULL
);
ALTER TABLE strategy ALTER COLUMN codec SET STORAGE EXTERNAL;
