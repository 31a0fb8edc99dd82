-- MATRIX datasets: the column names of an uploaded CSV/TSV header, in column order. Public like
-- the shape (they describe what each column measures, not any row); null without a header.
ALTER TABLE dataset ADD COLUMN column_labels text[];
