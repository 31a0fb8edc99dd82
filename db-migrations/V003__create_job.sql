-- Asynchronous jobs: one per admitted query. States and transitions are defined in code
-- (io.privmat.job.JobState); the CHECK keeps the column honest.
CREATE TABLE job (
    id                     uuid PRIMARY KEY,
    dataset_id             uuid        NOT NULL REFERENCES dataset (id) ON DELETE CASCADE,
    kind                   text        NOT NULL,
    mechanism              text        NOT NULL,
    parameters             jsonb       NOT NULL,
    request_hash           text        NOT NULL,
    idempotency_key        text,
    caller                 text        NOT NULL,
    state                  text        NOT NULL CHECK (state IN ('QUEUED', 'RUNNING', 'DONE', 'FAILED', 'CANCELLED')),
    progress               double precision NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 1),
    loss                   jsonb       NOT NULL,
    cost_rho               numeric     NOT NULL,
    cost_epsilon           numeric     NOT NULL,
    cost_delta             numeric     NOT NULL,
    attempts               integer     NOT NULL DEFAULT 0,
    lease_owner            text,
    heartbeat_at           timestamptz,
    data_access_started_at timestamptz,
    created_at             timestamptz NOT NULL,
    started_at             timestamptz,
    finished_at            timestamptz,
    error_code             text,
    error_message          text,
    UNIQUE (dataset_id, idempotency_key)
);
CREATE INDEX job_queued_idx ON job (created_at, id) WHERE state = 'QUEUED';
CREATE INDEX job_running_idx ON job (heartbeat_at) WHERE state = 'RUNNING';
CREATE INDEX job_dataset_idx ON job (dataset_id, created_at);

-- A job's result, written exactly once.
CREATE TABLE job_result (
    job_id        uuid PRIMARY KEY REFERENCES job (id) ON DELETE CASCADE,
    body          jsonb       NOT NULL,
    array_name    text,
    array_shape   integer[],
    array_data    bytea,
    created_at    timestamptz NOT NULL
);
ALTER TABLE job_result ALTER COLUMN array_data SET STORAGE EXTERNAL;
