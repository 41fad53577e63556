-- Changes of value between consecutive published versions, one company (grain: one change).
SELECT * FROM fact_restatements
WHERE cik = $cik AND ($concept IS NULL OR concept = $concept)
ORDER BY concept, period_end, new_filed;
