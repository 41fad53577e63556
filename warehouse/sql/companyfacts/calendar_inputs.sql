-- Inputs of one company's fiscal calendar, from its stored facts (plus the staged payload when
-- $with_stage):
-- every period end of an annual-duration fact in an annual form (how often it is reported), and
-- each annual filing's own period end with the fy SEC gave that filing. A fact version both stored
-- and in the staged payload counts once (UNION): the calendar is a function of the set of versions,
-- whatever order the payloads arrived in.
WITH all_facts AS (
    SELECT taxonomy, concept, unit, period_start, period_end, accession, form, filing_fy
    FROM facts WHERE cik = $cik
    UNION
    SELECT taxonomy, concept, unit, period_start, period_end, accession, form, filing_fy FROM cf_stage
    WHERE $with_stage
),
annual AS (
    SELECT period_end, accession, form, filing_fy
    FROM all_facts
    WHERE form IN ('10-K', '10-K/A', '10-KT', '10-KT/A', '20-F', '20-F/A', '40-F', '40-F/A')
      AND period_start IS NOT NULL
      AND period_end - period_start BETWEEN 350 AND 380
)
SELECT 'candidate' AS what, period_end AS fy_end, count(*) AS n, NULL::INTEGER AS fy
FROM annual GROUP BY period_end
UNION ALL
SELECT 'own', max(period_end), count(*), mode(filing_fy)
FROM annual GROUP BY accession
UNION ALL
SELECT 'span', min(period_end), count(*), NULL FROM all_facts
UNION ALL
SELECT 'span', max(period_end), count(*), NULL FROM all_facts
ORDER BY 1, 2;
