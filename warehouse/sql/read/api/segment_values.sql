-- One company's values of one segment member (grain: period_start, period_end, unit): facts of $concept
-- (a standard concept: the tags of its chain, the first of the chain a period has; or a prefixed XBRL
-- concept, us-gaap:OperatingIncomeLoss) with the member alone on its axis (or with
-- srt:ConsolidationItemsAxis = OperatingSegmentsMember, as segment notes tag them), the member named by
-- its QName or its readable name ($segment, case-insensitive), as the latest filing reporting the
-- period says (accession order: year, then sequence), with the fiscal year and period the warehouse
-- gives the same period (standard_facts; NULL when no standard fact of the company has that period).
-- reads: filing_fact_members, standard_concepts, standard_facts
WITH chain AS (
    SELECT taxonomy || ':' || concept AS concept, chain_rank FROM standard_concepts WHERE standard_concept = $concept
    UNION ALL SELECT $concept, 0 WHERE contains($concept, ':')
),
matched AS (
    SELECT m.*, c.chain_rank
    FROM filing_fact_members m JOIN chain c ON c.concept = m.concept
    WHERE m.cik = $cik AND m.value IS NOT NULL
      AND (m.member = $segment OR lower(m.member_label) = lower($segment))
      AND (m.dimension_count = 1
           OR (m.dimension_count = 2
               AND m.dimensions['srt:ConsolidationItemsAxis'] = 'us-gaap:OperatingSegmentsMember'))
),
best_concept AS (  -- one concept per period: the first of the chain the filings report
    SELECT period_start, period_end, unit, min(chain_rank) AS chain_rank FROM matched GROUP BY ALL
),
latest AS (
    SELECT m.*, row_number() OVER (
        PARTITION BY m.period_start, m.period_end, m.unit
        ORDER BY split_part(m.accession, '-', 2) DESC, split_part(m.accession, '-', 3) DESC) AS newest
    FROM matched m JOIN best_concept b ON b.period_start IS NOT DISTINCT FROM m.period_start
        AND b.period_end = m.period_end AND b.unit = m.unit AND b.chain_rank = m.chain_rank
),
fiscal AS (
    SELECT period_start, period_end, min(fiscal_year) AS fiscal_year, min(fiscal_period) AS fiscal_period
    FROM standard_facts WHERE cik = $cik GROUP BY ALL
)
SELECT l.axis, l.member, l.member_label, l.concept, l.period_start, l.period_end,
       l.period_end - l.period_start + 1 AS duration_days, l.unit, l.value, l.accession, l.element_id,
       f.fiscal_year, f.fiscal_period
FROM latest l
LEFT JOIN fiscal f ON f.period_start IS NOT DISTINCT FROM l.period_start AND f.period_end = l.period_end
WHERE l.newest = 1
ORDER BY l.period_end, l.period_start DESC NULLS LAST, l.unit;
