-- Derived-metric totals (needs the 0004 metrics migration).
SELECT 'derived metric versions' AS what, count(*) AS n FROM derived_metrics
UNION ALL SELECT 'metric lineage edges', count(*) FROM metric_lineage;
