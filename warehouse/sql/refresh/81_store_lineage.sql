-- One lineage edge per input fact version of each new metric version.
-- reads: metric_new
-- creates: -
INSERT INTO metric_lineage
SELECT metric_id, e.role, e.step, e.standard_concept, e.derivation, e.taxonomy, e.concept, e.unit,
       e.period_start, e.period_end, e.accession, e.revision, e.value, e.known_from, e.input_metric_id, $load_id
FROM (SELECT metric_id, unnest(inputs) AS e FROM metric_new);
