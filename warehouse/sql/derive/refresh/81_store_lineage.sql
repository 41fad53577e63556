-- One lineage edge per input fact version of each new metric version, with the metric's cik (the
-- key the table is clustered by: derive/forget_lineage and readers skip other companies' row groups).
-- A input metric left out for repeating its value (metric_alias) is named by the version standing for it.
-- reads: metric_new, metric_candidates, metric_alias
-- creates: -
INSERT INTO metric_lineage (metric_id, role, step, standard_concept, derivation, taxonomy, concept, unit,
                            period_start, period_end, accession, revision, value, known_from, input_metric_id,
                            load_id, cik)
SELECT n.metric_id, e.role, e.step, e.standard_concept, e.derivation, e.taxonomy, e.concept, e.unit,
       e.period_start, e.period_end, e.accession, e.revision, e.value, e.known_from,
       coalesce(a.stored_id, e.input_metric_id), $load_id, n.cik
FROM (SELECT n.metric_id, m.cik, unnest(m.inputs) AS e FROM metric_new n JOIN metric_candidates m ON m.rowid = n.rid) n
LEFT JOIN metric_alias a ON a.metric_id = e.input_metric_id;
