-- reads: filing_facts, filing_statement_lines, readable_member
-- filing_fact_members: filing_facts by axis and member (grain: accession, fact_number, axis), one row
-- per dimension of each dimensional fact, with the member's readable name: the label of the statement
-- line whose values are all that member alone (Apple's "Products" for us-gaap:ProductMember, the document's own
-- name), else readable_member(member).
CREATE OR REPLACE VIEW filing_fact_members AS
WITH member_lines AS (  -- lines whose every cell is the same one member (the equity statement's members are
                       -- its columns: its lines name changes, not members)
    SELECT l.accession, l.line_number, l.label, any_value(c.dimensions) AS dimensions
    FROM filing_statement_lines l, unnest(l.cells) AS u(c)
    WHERE l.statement <> 'equity'
    GROUP BY l.accession, l.statement, l.line_number, l.label
    HAVING count(DISTINCT CAST(c.dimensions AS VARCHAR)) = 1 AND cardinality(any_value(c.dimensions)) = 1
),
printed AS (
    SELECT accession, d.e.key AS axis, d.e.value AS member, arg_min(label, line_number) AS label
    FROM member_lines, unnest(map_entries(dimensions)) AS d(e)
    GROUP BY ALL
),
dims AS (
    SELECT f.*, d.e.key AS axis, d.e.value AS member
    FROM filing_facts f, unnest(map_entries(f.dimensions)) AS d(e)
)
SELECT f.accession, f.fact_number, f.cik, f.form, f.concept, f.axis, f.member,
       coalesce(p.label, readable_member(f.member)) AS member_label, p.label IS NOT NULL AS label_printed,
       cardinality(f.dimensions) AS dimension_count, f.dimensions, f.value, f.unit, f.period_start,
       f.period_end, f.element_id
FROM dims f
LEFT JOIN printed p ON p.accession = f.accession AND p.axis = f.axis AND p.member = f.member;
