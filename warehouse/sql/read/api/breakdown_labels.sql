-- The readable names of one filing's members of one axis (grain: member), from filing_fact_members.
-- reads: filing_fact_members
SELECT member, any_value(member_label) AS label
FROM filing_fact_members
WHERE accession = $accession AND axis = $axis
GROUP BY member;
