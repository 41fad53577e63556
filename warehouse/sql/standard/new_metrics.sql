-- Candidate metric rows -> metric_new: their deterministic metric_id, one row per id (the earliest
-- moment that combination of input versions was current), minus ids already stored.
-- grain: metric_id.
CREATE OR REPLACE TEMP TABLE metric_new AS
SELECT * FROM (
    SELECT metric_key(metric, cik, period_start, period_end, input_unit, rule_version, inputs) AS metric_id, *
    FROM metric_candidates
    QUALIFY row_number() OVER (PARTITION BY metric_id ORDER BY known_from) = 1
) m
ANTI JOIN derived_metrics d ON d.metric_id = m.metric_id;
