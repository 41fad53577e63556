-- Forget every stored metric version of the companies $ciks (after forget_lineage.sql).
-- The range of $ciks is tested first: the scan skips other companies' row groups.
-- reads: derived_metrics
-- creates: -
DELETE FROM derived_metrics
WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik)
