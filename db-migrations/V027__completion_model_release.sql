-- COMPLETION_MODEL releases: the global model of a COMPLETION job (item directions or factors and the
-- released spectrum), kept so that the data owner's per-user predictions are computed on demand.
ALTER TABLE release DROP CONSTRAINT release_kind_check;
ALTER TABLE release ADD CONSTRAINT release_kind_check
    CHECK (kind IN ('GRAPH_SKETCH', 'MATRIX_SKETCH', 'COVARIANCE', 'WINDOW_COVARIANCE', 'WINDOW_LAPLACIAN',
                    'HISTOGRAM_ESTIMATE', 'COMPLETION_MODEL'));
