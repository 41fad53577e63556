-- Inputs of one company's fiscal calendar, from its stored facts (plus the staged payload when
-- $with_stage):
-- every period end of an annual-duration fact in an annual form (how often it is reported), and
-- each annual filing's own period end with the fy SEC gave that filing. A fact version both stored
-- and in the staged payload counts once (DISTINCT): the calendar is a function of the set of
-- versions, whatever order the payloads arrived in. Only annual rows are deduplicated; the span
-- (earliest and latest period end) needs no deduplication.
WITH annual AS (
    SELECT DISTINCT taxonomy, concept, unit, period_start, period_end, accession, form, filing_fy
    FROM (
        SELECT taxonomy, concept, unit, period_start, period_end, accession, form, filing_fy
        FROM facts WHERE cik = $cik
        UNION ALL
        SELECT taxonomy, concept, unit, period_start, period_end, accession, form, filing_fy FROM cf_stage
        WHERE $with_stage
    )
    WHERE form IN ('10-K', '10-K/A', '10-KT', '10-KT/A', '20-F', '20-F/A', '40-F', '40-F/A')
      AND period_start IS NOT NULL
      AND period_end - period_start BETWEEN 350 AND 380
),
span AS (
    SELECT min(period_end) AS first_end, max(period_end) AS last_end
    FROM (SELECT period_end FROM facts WHERE cik = $cik
          UNION ALL
          SELECT period_end FROM cf_stage WHERE $with_stage)
)
SELECT 'candidate' AS what, period_end AS fy_end, count(*) AS n, NULL::INTEGER AS fy
FROM annual GROUP BY period_end
UNION ALL
SELECT 'own', max(period_end), count(*), mode(filing_fy)
FROM annual GROUP BY accession
UNION ALL
SELECT 'span', first_end, NULL, NULL FROM span
UNION ALL
SELECT 'span', last_end, NULL, NULL FROM span
ORDER BY 1, 2;
