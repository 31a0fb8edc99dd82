-- HISTOGRAM datasets: counts of records over the product of public attribute domains. The owner
-- declares the attributes at creation; the declaration (a JSON document, public like the kind and
-- the budget) is what uploads are validated against and what mechanisms may depend on.
ALTER TABLE dataset DROP CONSTRAINT dataset_kind_check;
ALTER TABLE dataset ADD CONSTRAINT dataset_kind_check CHECK (kind IN ('MATRIX', 'GRAPH', 'HISTOGRAM'));
ALTER TABLE dataset ADD COLUMN declaration jsonb;
ALTER TABLE dataset ADD CONSTRAINT histogram_is_declared CHECK (kind <> 'HISTOGRAM' OR declaration IS NOT NULL);
