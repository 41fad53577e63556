-- The flags of each refreshed metric's standing version, when it was stored before: a later filing
-- that recast one input of its consistent set and not the others changes no value (no new version,
-- refresh/70) but is said on the version that stands ("as filed in X; revenue recast to ... by Y"),
-- and cleared when a filing reports the set again. Values are never touched.
-- reads: metric_runs, derived_metrics
-- creates: -
UPDATE derived_metrics
SET flags = r.flags
FROM metric_runs r
WHERE r.standing AND derived_metrics.metric_id = r.metric_id
  AND derived_metrics.cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, derived_metrics.cik)
  AND derived_metrics.flags IS DISTINCT FROM r.flags;
