-- reads: facts_current_of
-- The rows of facts_current_rows (migration 0008) for the companies $ciks: the latest-published
-- version of each of their fact keys with its version bookkeeping, computed from all their stored
-- versions by the one definition, facts_current_of, and inserted sorted by company and concept so a
-- company's or a concept's rows are read by key. Loads run it for the companies whose facts or filings
-- they changed (warehouse.load.refresh_current_facts); warehouse/stored_rows.py runs it for every
-- company when a definition it reads changes. grain: (cik, taxonomy, concept, unit, period_start, period_end).
-- (the range test first: row groups outside the list's cik range are skipped, not read row by row)
DELETE FROM facts_current_rows
WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik);
INSERT INTO facts_current_rows
SELECT * FROM facts_current_of($ciks)
ORDER BY cik, taxonomy, concept, unit, period_start, period_end
