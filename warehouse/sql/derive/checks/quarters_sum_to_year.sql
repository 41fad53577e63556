-- check: quarters_sum_to_year: for additive standard concepts, the four discrete quarters (tagged
-- or derived) inside a fiscal year sum to the fiscal year's value (same company, unit, tag family).
-- Only years with exactly four quarters that tile the year (first starts on the FY start, last
-- ends on the FY end). tolerance: 0.5 % of the FY value, at least 1 unit.
-- grain of offending rows: (cik, standard_concept, unit, fiscal year period). severity = |difference| / |FY|.
-- input: check_facts = standard_facts of the companies being checked (staged by warehouse.derive.checks).
-- reads: check_facts, standard_concepts, subtractable_unit
WITH s AS (
    SELECT sf.* FROM check_facts sf
    JOIN standard_concepts c ON c.standard_concept = sf.standard_concept AND c.chain_rank = 1 AND c.additive
    WHERE subtractable_unit(sf.unit)
),
fy AS (SELECT * FROM s WHERE duration_class = 'annual'),
q AS (SELECT * FROM s WHERE duration_class = 'quarter')
SELECT fy.cik, fy.standard_concept, fy.unit, fy.fiscal_year, fy.period_start, fy.period_end,
       fy.value AS fiscal_year_value, sum(q.value) AS quarters_sum, fy.value - sum(q.value) AS difference,
       list(q.derivation ORDER BY q.period_end) AS quarter_derivations,
       CAST(abs(fy.value - sum(q.value)) AS DOUBLE) / greatest(abs(CAST(fy.value AS DOUBLE)), 1) AS severity
FROM fy
JOIN q ON q.cik = fy.cik AND q.standard_concept = fy.standard_concept AND q.unit = fy.unit
      AND q.period_start >= fy.period_start AND q.period_end <= fy.period_end
GROUP BY fy.cik, fy.standard_concept, fy.unit, fy.fiscal_year, fy.period_start, fy.period_end, fy.value
HAVING count(*) = 4 AND min(q.period_start) = fy.period_start AND max(q.period_end) = fy.period_end
   AND abs(fy.value - sum(q.value)) > greatest(0.005 * abs(fy.value), 1)
