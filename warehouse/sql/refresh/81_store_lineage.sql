-- One lineage edge per input fact version of each new metric version.
-- reads: metric_new, metric_candidates
-- creates: -
INSERT INTO metric_lineage
SELECT metric_id, e.role, e.step, e.standard_concept, e.derivation, e.taxonomy, e.concept, e.unit,
       e.period_start, e.period_end, e.accession, e.revision, e.value, e.known_from, e.input_metric_id, $load_id
FROM (SELECT n.metric_id, unnest(m.inputs) AS e FROM metric_new n JOIN metric_candidates m ON m.rowid = n.rid);
