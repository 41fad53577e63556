-- The facts of a filing that name a breakdown's gap (grain: concept): consolidated numeric facts of
-- another concept, same period and unit, whose value is the gap (or its negative), e.g. Alphabet's
-- hedging gains beside its segments' revenue; with the label of the statement line that shows the concept.
-- reads: filing_facts, filing_statement_lines
SELECT f.concept, any_value(f.value) AS value, any_value(f.element_id) AS element_id,
       (SELECT arg_min(l.label, l.line_number) FROM filing_statement_lines l
        WHERE l.accession = f.accession AND l.concept = f.concept) AS label
FROM filing_facts f
WHERE f.accession = $accession AND f.fact_kind = 'numeric' AND f.concept <> $concept AND f.unit = $unit
  AND f.period_end = $period_end AND f.period_start IS NOT DISTINCT FROM $period_start
  AND cardinality(f.dimensions) = 0 AND abs(f.value) = abs($gap)
GROUP BY f.accession, f.concept
ORDER BY f.concept;
