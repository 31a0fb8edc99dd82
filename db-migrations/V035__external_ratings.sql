-- EXTERNAL ratings (docs/ratings.md, "EXTERNAL ratings"): an EXTERNAL dataset whose declaration
-- holds a RATINGS declaration reads (user, item, rating) triples; like a RATINGS dataset it has no
-- row bound (ratings are bounded by their range and the per-user cap). An external matrix keeps its
-- bound.
ALTER TABLE dataset DROP CONSTRAINT matrix_has_bound;
ALTER TABLE dataset ADD CONSTRAINT matrix_has_bound CHECK (CASE kind
    WHEN 'MATRIX' THEN row_norm_bound IS NOT NULL
    WHEN 'EXTERNAL' THEN (row_norm_bound IS NOT NULL) = (declaration -> 'ratings' IS NULL)
    WHEN 'STREAM' THEN TRUE
    ELSE row_norm_bound IS NULL END);
