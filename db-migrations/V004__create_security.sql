-- API keys: only a SHA-256 of each key is stored; the key itself is shown once at creation.
CREATE TABLE api_key (
    id          uuid PRIMARY KEY,
    prefix      text        NOT NULL,
    key_hash    bytea       NOT NULL UNIQUE,
    name        text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    subject     text        NOT NULL CHECK (length(subject) BETWEEN 1 AND 200),
    role        text        NOT NULL CHECK (role IN ('ADMIN', 'OWNER', 'ANALYST')),
    created_by  text        NOT NULL,
    created_at  timestamptz NOT NULL,
    revoked_at  timestamptz
);

-- Datasets belong to the subject that created them; analysts see only datasets granted to them.
ALTER TABLE dataset ADD COLUMN owner text NOT NULL DEFAULT 'bootstrap';
ALTER TABLE dataset ALTER COLUMN owner DROP DEFAULT;
CREATE INDEX dataset_owner_idx ON dataset (owner, created_at);

CREATE TABLE dataset_grant (
    dataset_id  uuid        NOT NULL REFERENCES dataset (id) ON DELETE CASCADE,
    analyst     text        NOT NULL,
    granted_by  text        NOT NULL,
    granted_at  timestamptz NOT NULL,
    PRIMARY KEY (dataset_id, analyst)
);
CREATE INDEX dataset_grant_analyst_idx ON dataset_grant (analyst);

-- A job is visible to the subject that submitted it and to its dataset's owner.
ALTER TABLE job ADD COLUMN dataset_owner text NOT NULL DEFAULT 'bootstrap';
ALTER TABLE job ALTER COLUMN dataset_owner DROP DEFAULT;

-- Audit log of every state-changing call (who, what, which dataset, when, outcome).
CREATE TABLE audit_event (
    id          bigserial PRIMARY KEY,
    at          timestamptz NOT NULL,
    subject     text,
    role        text,
    key_id      uuid,
    method      text        NOT NULL,
    route       text        NOT NULL,
    dataset_id  uuid,
    target_id   text,
    status      integer     NOT NULL
);
CREATE INDEX audit_event_at_idx ON audit_event (id);

-- Idempotency keys are scoped to the submitter: one analyst's key never reveals another's job.
ALTER TABLE job DROP CONSTRAINT job_dataset_id_idempotency_key_key;
ALTER TABLE job ADD CONSTRAINT job_idempotency_key_unique UNIQUE (dataset_id, caller, idempotency_key);
