-- reads: fact_versions, fact_version_order
-- Every fact version public at ts (NULL = now) of the companies in the list ciks (NULL = every
-- company), placed in its key's version order (fact_version_order: known_from, filed, accession,
-- revision) with each version's neighbours in it: version_number, the key's versions,
-- the previous version's value, accession and filed (lag_*: NULL on a key's first version only, as
-- values, accessions and filed dates are never NULL) and the key's first version. The company filter
-- is applied where the versions are read (the range test first: row groups of other companies are
-- skipped). facts_ranked_as_of (every version's prior value) is computed from these rows;
-- facts_current_of ranks the same way only the keys whose versions carry different values.
-- The windows are partitioned by (cik, taxonomy, concept) only, and a fact key (unit and period
-- within that) is a run of peers of its ORDER BY: DuckDB pays a fixed cost per populated partition
-- (~0.2 ms each with these rows: 39 versions of one concept in ~35 keys ranked ~8 ms, as one partition
-- ~1 ms), and filters on cik, taxonomy and concept still reach the scan (they are partition keys).
-- position = place in the (cik, taxonomy, concept) order, key_start = the key's first place (rank
-- over the key's peers), so version_number = position - key_start + 1.
CREATE OR REPLACE MACRO facts_ordered_as_of(ciks, ts) AS TABLE
SELECT o.* EXCLUDE (position, key_start, versions, first, lag_value, lag_accession, lag_filed),
       o.position - o.key_start + 1 AS version_number, o.versions,
       CASE WHEN o.position > o.key_start THEN o.lag_value END AS lag_value,
       CASE WHEN o.position > o.key_start THEN o.lag_accession END AS lag_accession,
       CASE WHEN o.position > o.key_start THEN o.lag_filed END AS lag_filed,
       o.first.value AS first_value, o.first.accession AS first_accession, o.first.filed AS first_filed
FROM (
    SELECT v.*,
           row_number() OVER w AS position, rank() OVER k AS key_start,
           count(*) OVER (k RANGE BETWEEN CURRENT ROW AND CURRENT ROW) AS versions,
           arg_min({'value': value, 'accession': accession, 'filed': filed},
                   fact_version_order(known_from, filed, accession, revision))
               OVER (k RANGE BETWEEN CURRENT ROW AND CURRENT ROW) AS first,
           lag(value) OVER w AS lag_value, lag(accession) OVER w AS lag_accession, lag(filed) OVER w AS lag_filed
    FROM fact_versions v
    WHERE v.known_from <= coalesce(CAST(ts AS TIMESTAMP), TIMESTAMP '9999-12-31')
      AND (ciks IS NULL OR (v.cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, v.cik)))
    WINDOW k AS (PARTITION BY cik, taxonomy, concept ORDER BY unit, period_start, period_end),
           w AS (PARTITION BY cik, taxonomy, concept ORDER BY unit, period_start, period_end,
                 fact_version_order(known_from, filed, accession, revision))
) o;
