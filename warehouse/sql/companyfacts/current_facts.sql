-- Recompute facts_current_rows (grain: cik, taxonomy, concept, unit, period_start, period_end) and
-- fact_restatements_rows (one row per change of a value) for the companies $ciks from all their
-- stored versions (facts_current_of and fact_restatements_of: the one definitions), rows inserted
-- sorted by company and concept so a company's or a concept's rows are read by key.
-- reads: facts_current_of, fact_restatements_of. writes: facts_current_rows, fact_restatements_rows
-- (those companies' rows only).
-- (the range test first: row groups outside the list's cik range are skipped, not read row by row)
DELETE FROM facts_current_rows
WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik);
INSERT INTO facts_current_rows
SELECT * FROM facts_current_of($ciks)
ORDER BY cik, taxonomy, concept, unit, period_start, period_end;
DELETE FROM fact_restatements_rows
WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik);
INSERT INTO fact_restatements_rows
SELECT * FROM fact_restatements_of($ciks)
ORDER BY cik, taxonomy, concept, unit, period_start, period_end, new_filed, new_accession;
