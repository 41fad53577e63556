-- 0021 one metric version per value in a warehouse derived before (issue 21 item 3): since
-- refresh/70 a metric gets a new version only when its value (as stored, DECIMAL(38, 10)) or its
-- null reason changes, but a warehouse derived by the rule before kept a version for every change of
-- an input's tag or filing, repeating its predecessor's value (937 over the 23 vendored companies).
-- Those versions are deleted with their lineage, so the warehouse is what the refresh makes today:
-- a metric of another metric that named one as its input names the version that stands for it
-- (the one that first gave the value, as refresh/70's metric_alias does for a new derive), and the
-- versions are numbered again (refresh/90's rule: known_from, computed_at, metric_id within metric,
-- cik, period and input unit). Values are never touched; flags are put on the standing versions by
-- the next refresh of each company (refresh/82). A warehouse derived by the current rule has no such
-- version and is left as it is.
CREATE TEMP TABLE metric_repeats_0021 AS
SELECT metric_id, stored_id FROM (
    SELECT metric_id, repeats,
           last_value(CASE WHEN NOT repeats THEN metric_id END IGNORE NULLS) OVER (w ROWS UNBOUNDED PRECEDING) AS stored_id
    FROM (SELECT *, lag({'value': value, 'null_reason': null_reason}) OVER w
                        IS NOT DISTINCT FROM {'value': value, 'null_reason': null_reason} AS repeats
          FROM derived_metrics
          WINDOW w AS (PARTITION BY metric, cik, period_start, period_end, input_unit
                       ORDER BY known_from, computed_at, metric_id))
    WINDOW w AS (PARTITION BY metric, cik, period_start, period_end, input_unit
                 ORDER BY known_from, computed_at, metric_id)
)
WHERE repeats;

UPDATE metric_lineage SET input_metric_id = r.stored_id
FROM metric_repeats_0021 r
WHERE metric_lineage.input_metric_id = r.metric_id;

DELETE FROM metric_lineage WHERE metric_id IN (SELECT metric_id FROM metric_repeats_0021);

DELETE FROM derived_metrics WHERE metric_id IN (SELECT metric_id FROM metric_repeats_0021);

UPDATE derived_metrics
SET version = r.version, superseded_by_metric_id = r.next_id, superseded_at = r.next_at
FROM (
    SELECT metric_id,
           row_number() OVER w AS version,
           lead(metric_id) OVER w AS next_id,
           lead(known_from) OVER w AS next_at
    FROM derived_metrics
    WINDOW w AS (PARTITION BY metric, cik, period_start, period_end, input_unit
                 ORDER BY known_from, computed_at, metric_id)
) r
WHERE derived_metrics.metric_id = r.metric_id
  AND (derived_metrics.version IS DISTINCT FROM r.version
       OR derived_metrics.superseded_by_metric_id IS DISTINCT FROM r.next_id
       OR derived_metrics.superseded_at IS DISTINCT FROM r.next_at);

DROP TABLE metric_repeats_0021;
