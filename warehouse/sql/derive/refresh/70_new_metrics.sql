-- Candidate metric rows -> metric_new (rid: the candidate's rowid in metric_candidates, metric_id):
-- their deterministic metric_id, one row per id (the earliest moment that combination of input
-- versions was current), without the candidates whose value (at the precision it is stored at,
-- DECIMAL(38, 10)) and null reason are those of the candidate before them: a metric gets a version
-- only when its value changes (a re-filed input, the same value under another tag, or inputs that
-- moved and give the same number add none; the standing version's lineage names the filings that
-- first gave it), minus ids already stored.
-- Narrow rows only (row id, key, moment, value): the candidate rows themselves are read by 80/81
-- through rid.
-- grain: metric_id.
-- reads: metric_candidates, metric_key, derived_metrics
-- creates: metric_new
CREATE OR REPLACE TEMP TABLE metric_new AS
WITH keyed AS (
    SELECT rowid AS rid, metric_key(metric, cik, period_start, period_end, input_unit, rule_version, inputs) AS metric_id,
           metric, cik, period_start, period_end, input_unit, rule_version, known_from,
           {'value': value, 'null_reason': null_reason} AS said
    FROM metric_candidates
),
ids AS (
    SELECT * FROM keyed
    QUALIFY row_number() OVER (PARTITION BY metric_id ORDER BY known_from) = 1
),
changed AS (
    SELECT rid, metric_id FROM ids
    QUALIFY lag(said) OVER (PARTITION BY metric, cik, period_start, period_end, input_unit, rule_version
                                    ORDER BY known_from, metric_id) IS DISTINCT FROM said
)
SELECT c.rid, c.metric_id FROM changed c
-- a metric_id hashes its cik: only the refreshed companies' stored ids can match (never all of them;
-- the range first: it skips other companies' row groups)
ANTI JOIN (SELECT metric_id FROM derived_metrics
           WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik)) d
     ON d.metric_id = c.metric_id;
