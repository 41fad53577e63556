-- Warehouse totals (one row per table or view of interest).
SELECT 'companies' AS what, count(*) AS n FROM companies
UNION ALL SELECT 'fact versions (facts)', count(*) FROM facts
UNION ALL SELECT 'current facts (facts_current)', count(*) FROM facts_current
UNION ALL SELECT 'restatements (fact_restatements)', count(*) FROM fact_restatements
UNION ALL SELECT 'source documents loaded', count(*) FROM source_documents WHERE status = 'loaded'
UNION ALL SELECT 'source documents rejected', count(*) FROM source_documents WHERE status = 'rejected'
UNION ALL SELECT 'load runs', count(*) FROM load_runs;
