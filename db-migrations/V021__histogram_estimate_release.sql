-- HISTOGRAM_ESTIMATE releases: the consistent estimate x̂ (1 × n) of a LINEAR_QUERIES job, stored so
-- that further linear queries in its row space are answered for free (post-processing).
ALTER TABLE release DROP CONSTRAINT release_kind_check;
ALTER TABLE release ADD CONSTRAINT release_kind_check
    CHECK (kind IN ('GRAPH_SKETCH', 'MATRIX_SKETCH', 'COVARIANCE', 'WINDOW_COVARIANCE', 'WINDOW_LAPLACIAN',
                    'HISTOGRAM_ESTIMATE'));
