-- The reconciling items a filing tags for a concept beside its business segments (grain: period_start,
-- period_end, unit, member): facts whose one dimension is srt:ConsolidationItemsAxis = corporate,
-- reconciling items or intersegment eliminations, what the segments' sum leaves to the consolidated total.
-- reads: filing_facts, filing_fact_members
SELECT f.period_start, f.period_end, f.unit, f.dimensions['srt:ConsolidationItemsAxis'] AS member,
       any_value(m.member_label) AS label, any_value(f.value) AS value, any_value(f.decimals) AS decimals,
       any_value(f.element_id) AS element_id
FROM filing_facts f
JOIN filing_fact_members m ON m.accession = f.accession AND m.fact_number = f.fact_number
WHERE f.accession = $accession AND f.concept = $concept AND f.fact_kind = 'numeric' AND f.value IS NOT NULL
  AND cardinality(f.dimensions) = 1
  AND f.dimensions['srt:ConsolidationItemsAxis'] IN ('us-gaap:CorporateNonSegmentMember',
      'us-gaap:MaterialReconcilingItemsMember', 'us-gaap:IntersegmentEliminationMember',
      'us-gaap:SegmentReconcilingItemsMember')
GROUP BY ALL
ORDER BY f.period_end DESC, member;
