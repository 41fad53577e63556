-- 0007 ingest: runs that tell the truth (running from the start, the process that runs them,
-- documents not fetched) and what a rebuild needs to replay a payload exactly as it was loaded
-- (the CIK and accession the fetcher or user gave with it). Described in schema/columns.toml.

ALTER TABLE load_runs ADD COLUMN pid INTEGER;
ALTER TABLE load_runs ADD COLUMN host VARCHAR;
ALTER TABLE load_runs ADD COLUMN documents_not_fetched INTEGER DEFAULT 0;

ALTER TABLE source_documents ADD COLUMN expected_cik INTEGER;
ALTER TABLE source_documents ADD COLUMN given_accession VARCHAR;

-- A page of older filings may arrive before its company's main submissions file (order
-- independence): it is stored as loaded and not declared, with no declaring document yet.
ALTER TABLE submission_pages ALTER COLUMN declared_by_source_document_id DROP NOT NULL;
