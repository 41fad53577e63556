-- reads: fact_versions
-- What was public at ts for the companies listed in ciks (NULL = every company: facts_as_of): the
-- latest version of every fact key known at ts. The company filter is applied where the versions
-- are read (cik is a partition key of the window below); the BETWEEN on the list's bounds is a
-- range the facts scan prunes row groups with and DuckDB can estimate (list_contains alone is
-- estimated at a fixed fraction of the table, which made it build its hash join on all of
-- accession_acceptance). grain: (cik, taxonomy, concept, unit, period_start, period_end).
CREATE OR REPLACE MACRO company_facts_as_of(ciks, ts) AS TABLE
SELECT v.* EXCLUDE (version_rank)
FROM (
    SELECT fv.*,
           row_number() OVER (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end
                              ORDER BY known_from DESC, filed DESC, accession DESC, revision DESC) AS version_rank
    FROM fact_versions fv
    WHERE fv.known_from <= CAST(ts AS TIMESTAMP)
      AND (ciks IS NULL OR (fv.cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, fv.cik)))
) v
WHERE v.version_rank = 1;
