-- reads: fact_versions, fact_version_order
-- Every fact version public at ts (NULL = now) of the companies in the list ciks (NULL = every
-- company), placed in its key's version order (fact_version_order: known_from, filed, accession,
-- revision) with each version's neighbours in it: version_number, the key's versions,
-- the previous version's value, accession and filed (lag_*: NULL on a key's first version only, as
-- values, accessions and filed dates are never NULL) and the key's first version. The company filter
-- is applied where the versions are read (the range test first: row groups of other companies are
-- skipped). facts_ranked_as_of (every version's prior value) is computed from these rows;
-- facts_current_of ranks the same way only the keys whose versions carry different values.
CREATE OR REPLACE MACRO facts_ordered_as_of(ciks, ts) AS TABLE
SELECT v.*,
       row_number() OVER w AS version_number,
       count(*) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS versions,
       lag(value) OVER w AS lag_value, lag(accession) OVER w AS lag_accession, lag(filed) OVER w AS lag_filed,
       first_value(value) OVER w AS first_value, first_value(accession) OVER w AS first_accession,
       first_value(filed) OVER w AS first_filed
FROM fact_versions v
WHERE v.known_from <= coalesce(CAST(ts AS TIMESTAMP), TIMESTAMP '9999-12-31')
  AND (ciks IS NULL OR (v.cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, v.cik)))
WINDOW w AS (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end
             ORDER BY fact_version_order(known_from, filed, accession, revision));
