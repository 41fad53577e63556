-- reads: fact_versions
CREATE OR REPLACE MACRO facts_as_of(ts) AS TABLE
SELECT v.* EXCLUDE (version_rank)
FROM (
    SELECT fv.*,
           row_number() OVER (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end
                              ORDER BY known_from DESC, filed DESC, accession DESC, revision DESC) AS version_rank
    FROM fact_versions fv
    WHERE fv.known_from <= CAST(ts AS TIMESTAMP)
) v
WHERE v.version_rank = 1;
