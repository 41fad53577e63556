-- Candidate metric rows -> metric_runs (rid: the candidate's rowid in metric_candidates, metric_id,
-- standing, flags): their deterministic metric_id, one row per id (the earliest moment that
-- combination of input versions was current), without the candidates whose value (at the precision
-- it is stored at, DECIMAL(38, 10)) and null reason are those of the candidate before them: a metric
-- gets a version only when its value changes (a re-filed input, the same value under another tag,
-- or inputs that moved and give the same number add none; the standing version's lineage names the
-- filings that first gave it). The standing (latest) version carries the flags of the latest
-- candidate: a later filing that recast one input of a consistent set (refresh/45, 46: "as filed in
-- X; revenue recast to ... by Y") flags the value it does not change. metric_new: those not stored
-- yet (80/81 store them); refresh/82 puts the standing flags on a stored version.
-- metric_alias: each candidate id left out for repeating its predecessor's value -> the id of the
-- version that stands for it (the one that first gave that value), so a metric that used it as an
-- input names a stored version (81).
-- Narrow rows only (row id, key, moment, value): the candidate rows themselves are read by 80/81
-- through rid.
-- grain: metric_id.
-- reads: metric_candidates, metric_key, derived_metrics
-- creates: metric_ids, metric_runs, metric_alias, metric_new
CREATE OR REPLACE TEMP TABLE metric_ids AS
WITH keyed AS (
    SELECT rowid AS rid, metric_key(metric, cik, period_start, period_end, input_unit, rule_version, inputs) AS metric_id,
           metric, cik, period_start, period_end, input_unit, rule_version, known_from, flags,
           {'value': value, 'null_reason': null_reason} AS said
    FROM metric_candidates
),
ids AS (
    SELECT * FROM keyed
    QUALIFY row_number() OVER (PARTITION BY metric_id ORDER BY known_from) = 1
),
latest AS (  -- the flags of each metric's latest candidate
    SELECT metric, cik, period_start, period_end, input_unit, rule_version,
           arg_max(flags, (known_from, metric_id)) AS latest_flags
    FROM keyed GROUP BY ALL
)
SELECT i.rid, i.metric_id, i.metric, i.cik, i.period_start, i.period_end, i.input_unit, i.rule_version,
       i.known_from, i.flags, l.latest_flags,
       lag(i.said) OVER (PARTITION BY i.metric, i.cik, i.period_start, i.period_end, i.input_unit, i.rule_version
                         ORDER BY i.known_from, i.metric_id) IS DISTINCT FROM i.said AS changes
FROM ids i
JOIN latest l ON l.metric = i.metric AND l.cik = i.cik AND l.period_start IS NOT DISTINCT FROM i.period_start
             AND l.period_end = i.period_end AND l.input_unit IS NOT DISTINCT FROM i.input_unit
             AND l.rule_version = i.rule_version;

CREATE OR REPLACE TEMP TABLE metric_runs AS
WITH changed AS (SELECT * FROM metric_ids WHERE changes),
runs AS (
    SELECT rid, metric_id, flags, latest_flags,
           lead(metric_id) OVER (PARTITION BY metric, cik, period_start, period_end, input_unit, rule_version
                                 ORDER BY known_from, metric_id) IS NULL AS standing
    FROM changed
)
-- the standing version: the latest candidate's flags, and its own derived_quarters_from_different_filings
-- (refresh/65: a flag about its inputs, which its lineage keeps, while a later candidate of the same
-- value may take other input values from one filing)
SELECT rid, metric_id, standing,
       CASE WHEN NOT standing THEN flags
            WHEN list_contains(flags, 'derived_quarters_from_different_filings')
                 AND NOT list_contains(latest_flags, 'derived_quarters_from_different_filings')
            THEN list_append(latest_flags, 'derived_quarters_from_different_filings')
            ELSE latest_flags END AS flags
FROM runs;

CREATE OR REPLACE TEMP TABLE metric_alias AS
SELECT metric_id, stored_id FROM (
    SELECT metric_id, changes,
           last_value(CASE WHEN changes THEN metric_id END IGNORE NULLS)
               OVER (PARTITION BY metric, cik, period_start, period_end, input_unit, rule_version
                     ORDER BY known_from, metric_id ROWS UNBOUNDED PRECEDING) AS stored_id
    FROM metric_ids)
WHERE NOT changes;

CREATE OR REPLACE TEMP TABLE metric_new AS
SELECT r.rid, r.metric_id, r.flags FROM metric_runs r
-- a metric_id hashes its cik: only the refreshed companies' stored ids can match (never all of them;
-- the range first: it skips other companies' row groups)
ANTI JOIN (SELECT metric_id FROM derived_metrics
           WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik)) d
     ON d.metric_id = r.metric_id;
