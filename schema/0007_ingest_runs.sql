-- 0007 ingest: runs that tell the truth (running from the start, the process that runs them,
-- documents not fetched) and what a rebuild needs to replay a payload exactly as it was loaded
-- (the CIK and accession the fetcher or user gave with it).

ALTER TABLE load_runs ADD COLUMN pid INTEGER;
ALTER TABLE load_runs ADD COLUMN host VARCHAR;
ALTER TABLE load_runs ADD COLUMN documents_not_fetched INTEGER DEFAULT 0;
COMMENT ON COLUMN load_runs.pid IS 'Process id of the process that ran the load (with host: a run still marked running whose process is gone was interrupted).';
COMMENT ON COLUMN load_runs.host IS 'Host name of the machine that ran the load.';
COMMENT ON COLUMN load_runs.documents_not_fetched IS 'Documents the run asked SEC for and did not get (404, retries exhausted); a run that fetched none of its documents is failed.';
COMMENT ON COLUMN load_runs.status IS 'running (from the start until the run ends), succeeded, partial (documents rejected or not fetched, or the run was cut short after some batches committed: error says interrupted) or failed (nothing was committed: an error, every document failed to be fetched, or interrupted before its first batch).';

ALTER TABLE source_documents ADD COLUMN expected_cik INTEGER;
ALTER TABLE source_documents ADD COLUMN given_accession VARCHAR;
COMMENT ON COLUMN source_documents.expected_cik IS 'CIK the payload was requested for (the fetcher''s or file name''s), checked against the body; NULL when none was given. Replayed by rebuild.';
COMMENT ON COLUMN source_documents.given_accession IS 'Accession given with the payload by the fetcher or the user (load --accession), before parsing; NULL when none was given. Replayed by rebuild.';
