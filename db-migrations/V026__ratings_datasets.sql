-- RATINGS datasets (docs/ratings.md): (user, item, rating) triples stored sparse, the observed set
-- kept. The declaration (item universe, rating range, per-user cap, relation) is a JSON document,
-- public like the kind and the budget. Numbered V026: existing databases already applied V024 and
-- V025, and the kind list below must be the union of every kind added by then.
ALTER TABLE dataset DROP CONSTRAINT dataset_kind_check;
ALTER TABLE dataset ADD CONSTRAINT dataset_kind_check
    CHECK (kind IN ('MATRIX', 'GRAPH', 'HISTOGRAM', 'STREAM', 'EXTERNAL', 'RATINGS'));
ALTER TABLE dataset ADD CONSTRAINT ratings_is_declared CHECK (kind <> 'RATINGS' OR declaration IS NOT NULL);
-- Ratings beyond the per-user cap, dropped at upload by a rule that never reads values (the first s
-- of each user in upload order are kept). Data-dependent: shown to the owner only.
ALTER TABLE dataset ADD COLUMN dropped_ratings bigint CHECK (dropped_ratings >= 0);
ALTER TABLE dataset ADD CONSTRAINT dropped_ratings_ratings_only CHECK (dropped_ratings IS NULL OR kind = 'RATINGS');

-- A ratings dataset's user labels as uploaded, mapped to dense ids 0..m-1 in order of first
-- appearance (the owner addresses a user by label; never shown to analysts).
CREATE TABLE ratings_user (
    dataset_id  uuid    NOT NULL REFERENCES dataset (id) ON DELETE CASCADE,
    user_id     integer NOT NULL CHECK (user_id >= 0),
    label       text    NOT NULL,
    PRIMARY KEY (dataset_id, user_id),
    UNIQUE (dataset_id, label)
);
