-- Forget the lineage of every stored metric version of the companies $ciks (their metrics are
-- computed again from scratch; forget_metrics.sql then forgets the versions themselves).
-- The range of $ciks is tested first: the scan skips other companies' row groups (metric_lineage
-- carries its metric's cik).
-- reads: metric_lineage
-- creates: -
DELETE FROM metric_lineage
WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik)
