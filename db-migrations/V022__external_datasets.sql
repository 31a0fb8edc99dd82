-- EXTERNAL datasets (docs/scale-out.md): the rows stay where the owner keeps them (Parquet or CSV
-- that an engine such as Apache Spark reads); privmat stores only the declaration (location,
-- format, columns, and n under REPLACE_ONE). Numbered V022 (the number assigned to this work; V020–V021
-- are linear queries), and the kind list below must be the union of every kind added by then.
ALTER TABLE dataset DROP CONSTRAINT dataset_kind_check;
ALTER TABLE dataset ADD CONSTRAINT dataset_kind_check
    CHECK (kind IN ('MATRIX', 'GRAPH', 'HISTOGRAM', 'STREAM', 'EXTERNAL'));
ALTER TABLE dataset ADD CONSTRAINT external_is_declared CHECK (kind <> 'EXTERNAL' OR declaration IS NOT NULL);
-- An external matrix has a row bound, like a matrix.
ALTER TABLE dataset DROP CONSTRAINT matrix_has_bound;
ALTER TABLE dataset ADD CONSTRAINT matrix_has_bound CHECK (CASE kind
    WHEN 'MATRIX' THEN row_norm_bound IS NOT NULL
    WHEN 'EXTERNAL' THEN row_norm_bound IS NOT NULL
    WHEN 'STREAM' THEN TRUE
    ELSE row_norm_bound IS NULL END);
-- An external dataset is ready from its declaration: d is declared, n only under REPLACE_ONE, and
-- nothing is counted from the data (no non-zeros).
ALTER TABLE dataset DROP CONSTRAINT ready_has_shape;
ALTER TABLE dataset ADD CONSTRAINT ready_has_shape CHECK (status <> 'READY' OR CASE kind
    WHEN 'EXTERNAL' THEN cols IS NOT NULL AND nnz IS NULL
    ELSE rows IS NOT NULL AND cols IS NOT NULL AND nnz IS NOT NULL END);
