-- One filing's breakdown of a concept along one axis (grain: period_start, period_end, unit, member):
-- the members' values (facts with that axis alone, or with it and srt:ConsolidationItemsAxis =
-- OperatingSegmentsMember, as segment notes tag them) beside the consolidated total of the same period
-- (the fact without dimensions), each with its receipt (element id).
-- reads: filing_facts
-- grain: period_start, period_end, unit, member
WITH members AS (
    SELECT period_start, period_end, unit, dimensions[$axis] AS member, value, element_id, decimals
    FROM filing_facts
    WHERE accession = $accession AND concept = $concept AND fact_kind = 'numeric' AND value IS NOT NULL
      AND dimensions[$axis] IS NOT NULL
      AND (cardinality(dimensions) = 1
           OR (cardinality(dimensions) = 2
               AND dimensions['srt:ConsolidationItemsAxis'] = 'us-gaap:OperatingSegmentsMember'))
),
totals AS (
    SELECT period_start, period_end, unit, value AS total, element_id AS total_element_id, decimals AS total_decimals
    FROM filing_facts
    WHERE accession = $accession AND concept = $concept AND fact_kind = 'numeric' AND value IS NOT NULL
      AND cardinality(dimensions) = 0
)
SELECT m.period_start, m.period_end, m.unit, m.member, m.value, m.element_id, t.total, t.total_element_id,
       m.decimals, t.total_decimals
FROM members m
LEFT JOIN totals t ON t.period_start IS NOT DISTINCT FROM m.period_start AND t.period_end = m.period_end
    AND t.unit = m.unit
ORDER BY m.period_end DESC, m.period_start, m.value DESC;
