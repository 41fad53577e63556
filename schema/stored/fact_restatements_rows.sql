-- reads: fact_restatements_of
-- The rows of fact_restatements_rows (migration 0014) for the companies $ciks: one row per change of
-- a fact's value between consecutive published versions, computed by the one definition,
-- fact_restatements_of (which reads their current facts: facts_current_rows is kept first), and
-- inserted sorted by company so a company's restatement history is read by key. Loads run it with
-- facts_current_rows (warehouse.load.refresh_current_facts); warehouse/stored_rows.py runs it for
-- every company when a definition it reads changes.
-- grain: (cik, taxonomy, concept, unit, period_start, period_end, new_accession, new_value)
DELETE FROM fact_restatements_rows
WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik);
INSERT INTO fact_restatements_rows
SELECT * FROM fact_restatements_of($ciks)
ORDER BY cik, taxonomy, concept, unit, period_start, period_end, new_filed, new_accession
