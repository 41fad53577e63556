-- reads: derived_metrics
CREATE OR REPLACE MACRO derived_metrics_as_of(ts) AS TABLE
SELECT d.* FROM derived_metrics d
WHERE d.known_from <= CAST(ts AS TIMESTAMP)
QUALIFY row_number() OVER (PARTITION BY d.metric, d.cik, d.period_start, d.period_end, d.input_unit
                           ORDER BY d.known_from DESC, d.computed_at DESC, d.metric_id DESC) = 1;
