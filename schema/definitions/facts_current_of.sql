-- reads: facts_ranked_as_of
-- The current version of every fact key of the companies listed in ciks (NULL = every company),
-- computed from all their versions: the one definition of facts_current's rows. The company filter
-- is applied where the facts are read (a filter on the partition key of every window below), so
-- the cost is that of the companies asked for: the range test lets the scan skip the row groups
-- whose cik range misses the list (facts arrive company by company), where list_contains alone
-- would test every row of the warehouse against the whole list. Loads store its rows in facts_current_rows for the
-- companies they changed (warehouse/sql/companyfacts/current_facts.sql); the view facts_current
-- reads that table. restated = the key has two different values, i.e. the current version's run
-- of equal values is not the key's first: it has a prior value (values are never NULL).
CREATE OR REPLACE MACRO facts_current_of(ciks) AS TABLE
SELECT r.cik, r.taxonomy, r.concept, r.unit, r.period_start, r.period_end, r.value,
       r.accession, r.form, r.filed, r.known_from, r.frame, r.filing_fy, r.filing_fp,
       r.fiscal_year, r.fiscal_period, r.duration_days, r.duration_class,
       r.versions, r.confirmations,
       r.prior_value IS NOT NULL AS restated,
       r.value_first_accession, r.value_first_filed,
       r.prior_value, r.prior_accession, r.prior_filed,
       r.first_value, r.first_accession, r.first_filed,
       r.source_document_id, r.load_id
FROM facts_ranked_as_of(NULL) r
WHERE (ciks IS NULL OR (r.cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, r.cik)))
  AND r.version_number = r.versions;
