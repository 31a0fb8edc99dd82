-- GET /v1/jobs: an analyst's own jobs and an owner's jobs on their datasets, newest first.
CREATE INDEX job_caller_idx ON job (caller, created_at DESC, id DESC);
CREATE INDEX job_owner_idx ON job (dataset_owner, created_at DESC, id DESC);
