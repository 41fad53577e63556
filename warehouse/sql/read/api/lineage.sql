-- The input edges of some derived metric versions ($metric_ids) of one company ($cik): the exact
-- fact versions (or metrics) each was computed from, each fact version with the filing's acceptance
-- time, form and filed date. The notebook's lineage() and the MCP tool get_derived_metric read this
-- file. $concepts lists the concepts the edges cite (read/api/lineage_concepts.sql): with $cik, a
-- filter on fact_versions' partition key, so only those versions are read and numbered, not every
-- version of every company. metric_lineage is read by its company (cik: zone maps skip other
-- companies' row groups; the table has no index on metric_id; a metric id starts with its company's
-- CIK in hex).
-- reads: companies, concepts, derived_metrics, fact_versions, filings, metric_lineage
-- grain: metric_id, role, step
SELECT l.metric_id, l.role, l.step, l.standard_concept, l.derivation, l.taxonomy, l.concept, l.unit,
       l.period_start, l.period_end, l.accession, l.revision, l.value, l.known_from, l.input_metric_id,
       dm.cik, c.name AS company_name, fv.form, fv.filed, fv.fiscal_year, fv.fiscal_period, fv.duration_class,
       f.acceptance_time, l.load_id
FROM metric_lineage l
JOIN derived_metrics dm ON dm.metric_id = l.metric_id
LEFT JOIN (SELECT * FROM fact_versions WHERE cik = $cik AND list_contains($concepts, concept)) fv
    ON fv.cik = dm.cik AND fv.taxonomy = l.taxonomy AND fv.concept = l.concept
    AND fv.unit = l.unit AND fv.period_start IS NOT DISTINCT FROM l.period_start AND fv.period_end = l.period_end
    AND fv.accession = l.accession AND fv.revision = l.revision
LEFT JOIN companies c ON c.cik = dm.cik
LEFT JOIN filings f ON f.cik = dm.cik AND f.accession = l.accession
WHERE l.cik = $cik AND dm.cik = $cik AND list_contains($metric_ids, l.metric_id)
ORDER BY l.metric_id, l.role, l.step
