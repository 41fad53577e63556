-- reads: facts_ordered_as_of, fact_version_order
-- Every fact version public at ts (NULL = now) numbered in publication order within its key.
-- prior_* = the last DIFFERENT value before this version's value (a later filing that re-files the
-- same value is a confirmation, never a restatement); value_first_* = the filing that first reported
-- this version's value; confirmations = how many later filings re-filed it unchanged so far.
-- The one definition of version order and "prior value": facts_ranked, the agent and API receipts
-- all read it (the order itself: facts_ordered_as_of). grain: one fact version (key + accession + revision).
-- A second pass over the same order (w = r) carries the last change of value forward (last_value ...
-- IGNORE NULLS over the rows so far), so a run of equal values needs no partition of its own. Values
-- are never NULL (facts.value NOT NULL): the lag is NULL only on a key's first version, whose run has
-- no prior value. facts_current_of computes the same for each key's last version with one aggregate.
CREATE OR REPLACE MACRO facts_ranked_as_of(ts) AS TABLE
WITH runs AS (
    SELECT *, lag_value IS DISTINCT FROM value AS run_start FROM facts_ordered_as_of(NULL, ts)
)
SELECT * EXCLUDE (lag_value, lag_accession, lag_filed, run_start),
       last_value(CASE WHEN run_start THEN lag_value END IGNORE NULLS) OVER r AS prior_value,
       last_value(CASE WHEN run_start THEN lag_accession END IGNORE NULLS) OVER r AS prior_accession,
       last_value(CASE WHEN run_start THEN lag_filed END IGNORE NULLS) OVER r AS prior_filed,
       last_value(CASE WHEN run_start THEN accession END IGNORE NULLS) OVER r AS value_first_accession,
       last_value(CASE WHEN run_start THEN filed END IGNORE NULLS) OVER r AS value_first_filed,
       CAST(version_number - last_value(CASE WHEN run_start THEN version_number END IGNORE NULLS) OVER r
            AS INTEGER) AS confirmations
FROM runs
WINDOW r AS (PARTITION BY cik, taxonomy, concept  -- the key's versions so far (see facts_ordered_as_of)
             ORDER BY unit, period_start, period_end, fact_version_order(known_from, filed, accession, revision)
             ROWS BETWEEN version_number - 1 PRECEDING AND CURRENT ROW);
