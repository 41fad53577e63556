-- reads: fact_versions
-- Every fact version public at ts (NULL = now) numbered in publication order within its key.
-- prior_* = the last DIFFERENT value before this version's value (a later filing that re-files the
-- same value is a confirmation, never a restatement); value_first_* = the filing that first reported
-- this version's value; confirmations = how many later filings re-filed it unchanged so far.
-- The one definition of version order and "prior value": facts_ranked, the agent and API receipts
-- all read it. grain: one fact version (key + accession + revision).
CREATE OR REPLACE MACRO facts_ranked_as_of(ts) AS TABLE
WITH o AS (
    SELECT v.*,
           row_number() OVER w AS version_number,
           count(*) OVER (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end) AS versions,
           lag(value) OVER w AS lag_value, lag(accession) OVER w AS lag_accession, lag(filed) OVER w AS lag_filed,
           first_value(value) OVER w AS first_value, first_value(accession) OVER w AS first_accession,
           first_value(filed) OVER w AS first_filed
    FROM fact_versions v
    WHERE v.known_from <= coalesce(CAST(ts AS TIMESTAMP), TIMESTAMP '9999-12-31')
    WINDOW w AS (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end
                 ORDER BY known_from, filed, accession, revision)
),
runs AS (
    SELECT *, sum(CASE WHEN lag_value IS DISTINCT FROM value THEN 1 ELSE 0 END)
                  OVER (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end
                        ORDER BY known_from, filed, accession, revision ROWS UNBOUNDED PRECEDING) AS value_run
    FROM o
)
SELECT * EXCLUDE (lag_value, lag_accession, lag_filed, value_run),
       first_value(lag_value) OVER r AS prior_value,
       first_value(lag_accession) OVER r AS prior_accession,
       first_value(lag_filed) OVER r AS prior_filed,
       first_value(accession) OVER r AS value_first_accession,
       first_value(filed) OVER r AS value_first_filed,
       CAST(row_number() OVER r - 1 AS INTEGER) AS confirmations
FROM runs
WINDOW r AS (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end, value_run
             ORDER BY known_from, filed, accession, revision);
