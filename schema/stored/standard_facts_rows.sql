-- reads: company_standard_facts_as_of
-- The rows of standard_facts_rows (migration 0016) for the companies $ciks: their current standard
-- facts, computed by the one definition of the rules, company_standard_facts_as_of now (which reads
-- their current facts by key: facts_current_rows is kept first), and inserted sorted by company and
-- standard concept so a company's values are read by key. Loads run it for the companies whose current
-- facts they recomputed (warehouse.derive.store_standard_facts); warehouse/stored_rows.py runs it for
-- every company when a definition it reads changes (the rules, the chains, standard_concepts.csv,
-- facts_current, ...). grain: (cik, standard_concept, unit, period_start, period_end).
-- (the range test first: standard_facts_rows is sorted by company, other row groups are skipped)
DELETE FROM standard_facts_rows
WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik);
INSERT INTO standard_facts_rows
SELECT * FROM company_standard_facts_as_of($ciks, TIMESTAMP '9999-12-31 00:00:00')
ORDER BY cik, standard_concept, unit, period_end, period_start
