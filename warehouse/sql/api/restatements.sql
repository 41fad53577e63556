-- Changes of value between consecutive published versions, one company (grain: one change);
-- optionally one concept (and taxonomy) and fiscal year. fact_restatements_of reads that company's
-- versions only (the view fact_restatements is every company's).
SELECT * FROM fact_restatements_of([$cik])
WHERE cik = $cik AND ($concept IS NULL OR concept = $concept)
  AND ($taxonomy IS NULL OR taxonomy = $taxonomy)
  AND ($fiscal_year IS NULL OR fiscal_year = $fiscal_year)
ORDER BY concept, period_end, new_filed;
