-- Inputs of the fiscal calendars of the companies $ciks, from their stored facts (plus the staged
-- payloads, cf_stage, when $with_stage), one company per cik:
-- every period end of an annual-duration fact in an annual form (how often it is reported), and
-- each annual filing's own period end with the fy SEC gave that filing. A fact version both stored
-- and in the staged payload counts once (DISTINCT): the calendar is a function of the set of
-- versions, whatever order the payloads arrived in. Only annual rows are deduplicated; the span
-- (earliest and latest period end) needs no deduplication.
-- (the range test first: row groups outside the list's cik range are skipped, not read row by row)
WITH annual AS (
    SELECT DISTINCT cik, taxonomy, concept, unit, period_start, period_end, accession, form, filing_fy
    FROM (
        SELECT cik, taxonomy, concept, unit, period_start, period_end, accession, form, filing_fy
        FROM facts WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik)
        UNION ALL
        SELECT cik, taxonomy, concept, unit, period_start, period_end, accession, form, filing_fy FROM cf_stage
        WHERE $with_stage AND list_contains($ciks, cik)
    )
    WHERE form IN ('10-K', '10-K/A', '10-KT', '10-KT/A', '20-F', '20-F/A', '40-F', '40-F/A')
      AND period_start IS NOT NULL
      AND period_end - period_start BETWEEN 350 AND 380
),
span AS (
    SELECT cik, min(period_end) AS first_end, max(period_end) AS last_end
    FROM (SELECT cik, period_end FROM facts
          WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik)
          UNION ALL
          SELECT cik, period_end FROM cf_stage WHERE $with_stage AND list_contains($ciks, cik))
    GROUP BY cik
)
SELECT cik, 'candidate' AS what, period_end AS fy_end, count(*) AS n, NULL::INTEGER AS fy
FROM annual GROUP BY cik, period_end
UNION ALL
SELECT cik, 'own', max(period_end), count(*), mode(filing_fy)
FROM annual GROUP BY cik, accession
UNION ALL
SELECT cik, 'span', first_end, NULL, NULL FROM span
UNION ALL
SELECT cik, 'span', last_end, NULL, NULL FROM span
ORDER BY 1, 2, 3, 4, 5;
