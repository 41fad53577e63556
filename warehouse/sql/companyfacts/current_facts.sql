-- Recompute facts_current_rows (grain: cik, taxonomy, concept, unit, period_start, period_end) for
-- the companies $ciks from all their stored versions (facts_current_of: the one definition), rows
-- inserted sorted by company and concept so a company's or a concept's current facts are read by key.
-- reads: facts_current_of. writes: facts_current_rows (those companies' rows only).
-- (the range test first: row groups outside the list's cik range are skipped, not read row by row)
DELETE FROM facts_current_rows
WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik);
INSERT INTO facts_current_rows
SELECT * FROM facts_current_of($ciks)
ORDER BY cik, taxonomy, concept, unit, period_start, period_end;
