-- reads: derived_metrics_as_of
-- The version of each derived metric current now (the rule is derived_metrics_as_of's, said once).
CREATE OR REPLACE VIEW derived_metrics_current AS
SELECT * FROM derived_metrics_as_of(TIMESTAMP '9999-12-31 00:00:00');
