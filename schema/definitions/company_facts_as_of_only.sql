-- reads: fact_versions
-- What was public at ts for the companies listed in ciks (NULL = every company: facts_as_of) and the
-- XBRL concept names listed in concept_names (NULL = every concept: company_facts_as_of): the
-- latest version of every fact key known at ts. The company filter is applied where the versions
-- are read (cik is a partition key of the window below). One company is an equality (cik = ciks[1]),
-- which DuckDB estimates at that company's rows, so the join with accession_acceptance builds its
-- hash table on the company's versions and the acceptance scan skips the row groups the join's
-- filter rules out; several are the range of the list's bounds (the facts scan prunes row groups
-- with it) and list_contains. A range or list_contains alone is estimated at a fixed fraction of
-- the table: the join then built on all of accession_acceptance (1M filings: 0.17-0.36 s a query).
-- concept_names is filtered where the versions are read too (concept is a partition key), so a
-- caller that needs a few tags ranks only theirs.
-- grain: (cik, taxonomy, concept, unit, period_start, period_end).
CREATE OR REPLACE MACRO company_facts_as_of_only(ciks, ts, concept_names) AS TABLE
SELECT v.* EXCLUDE (version_rank)
FROM (
    SELECT fv.*,
           row_number() OVER (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end
                              ORDER BY known_from DESC, filed DESC, accession DESC, revision DESC) AS version_rank
    FROM fact_versions fv
    WHERE fv.known_from <= CAST(ts AS TIMESTAMP)
      AND (ciks IS NULL OR CASE WHEN len(ciks) = 1 THEN fv.cik = ciks[1]
                                ELSE fv.cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, fv.cik) END)
      AND (concept_names IS NULL OR list_contains(concept_names, fv.concept))
) v
WHERE v.version_rank = 1;
