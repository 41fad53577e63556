-- metric:   <standard concept> (revenue, operating_cash_flow, capital_expenditure, ...) for a DERIVED quarter
-- formula:  Q2 = H1 - Q1 (derived_q2), Q3 = 9M - H1 (derived_q3), Q4 = FY - 9M (derived_q4)
-- inputs:   role ytd = the longer year-to-date fact version, role less_ytd = the shorter one; same
--           tag, cik, unit, fiscal year and period_start; additive currency flows only (never
--           per-share values, ratios or instants); only when no tagged discrete quarter ends that day
-- rows:     one per (standard concept, cik, period_start, period_end, unit, input versions)
-- flags:    tag_differs_from_ytd_pick when the quarter comes from another tag than the one the longer
--           period's standard value matched (that tag does not report the shorter period)
--           and a part whose value a later filing recast (it differs from the figure the first filing
--           reporting that period gave: std_obs), named: 'revenue 2025-01-01..2025-09-30 recast to ... by X'
--           (the quarter combines two filings by its formula: the flag says which part is on another basis)
--           ended: a derived quarter stops when a tagged discrete quarter ending that day becomes
--           public (refresh/30 ends its interval there); then a version with value NULL, null_reason
--           REPORTED_ITSELF and, as its input, the tagged quarter's fact version, so the derived
--           metric current after that moment is not the old derived figure (issue 21)
-- rule_version: discrete_quarter.v1
-- reads: sfv, std_obs, edge, recast_note
-- appends: metric_candidates
WITH derived AS (SELECT * FROM sfv WHERE derivation LIKE 'derived_%'),
ended AS (  -- the derived interval that ends when the tagged quarter is first public (refresh/30 keeps no
            -- derived interval after that moment, and ends an earlier one before it): the reported quarter took over
    SELECT d.standard_concept, d.cik, d.fiscal_year, d.fiscal_period, d.duration_class, d.period_start, d.period_end,
           d.unit, d.taxonomy, d.derivation, r.known_from, r.inputs
    FROM derived d
    JOIN sfv r ON r.derivation = 'reported' AND r.duration_class = 'quarter' AND r.cik = d.cik
              AND r.standard_concept = d.standard_concept AND r.unit = d.unit AND r.period_end = d.period_end
              AND r.known_from = d.valid_to
    QUALIFY row_number() OVER (PARTITION BY d.cik, d.standard_concept, d.unit, d.period_start, d.period_end, d.valid_to
                               ORDER BY r.period_start) = 1
),
first_said AS (  -- each year-to-date period's figure as first filed
    SELECT slot, arg_min(value, filing_order) AS first_value FROM std_obs
    WHERE duration_class IN ('quarter', 'six_months', 'nine_months', 'annual') GROUP BY slot
)
SELECT standard_concept AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       value, unit, unit AS input_unit, taxonomy, derivation,
       CASE derivation
           WHEN 'derived_q2' THEN standard_concept || '(six months YTD) - ' || standard_concept || '(Q1)'
           WHEN 'derived_q3' THEN standard_concept || '(nine months YTD) - ' || standard_concept || '(six months YTD)'
           ELSE standard_concept || '(FY) - ' || standard_concept || '(nine months YTD)' END AS formula,
       'discrete_quarter.v1' AS rule_version, known_from, CAST(NULL AS VARCHAR) AS null_reason,
       list_concat(flags, list_filter(
           [CASE WHEN inputs[1].value <> f1.first_value
                 THEN recast_note(standard_concept || ' ' || inputs[1].period_start || '..' || inputs[1].period_end,
                                  inputs[1].value, inputs[1].accession) END,
            CASE WHEN inputs[2].value <> f2.first_value
                 THEN recast_note(standard_concept || ' ' || inputs[2].period_start || '..' || inputs[2].period_end,
                                  inputs[2].value, inputs[2].accession) END], lambda x: x IS NOT NULL)) AS flags,
       list_transform(inputs, lambda x: edge(x.step, x, NULL)) AS inputs
FROM derived  -- inputs: [the ytd part, the less_ytd part] (refresh/30)
LEFT JOIN first_said f1 ON f1.slot = hash(cik, standard_concept, unit, inputs[1].period_start, inputs[1].period_end)
LEFT JOIN first_said f2 ON f2.slot = hash(cik, standard_concept, unit, inputs[2].period_start, inputs[2].period_end)
UNION ALL
SELECT standard_concept, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end, NULL, unit, unit,
       taxonomy, derivation, standard_concept || ' as the company reported the quarter', 'discrete_quarter.v1',
       known_from, 'the company reported this quarter itself (a tagged discrete quarter: standard_facts)',
       CAST([] AS VARCHAR[]), list_transform(inputs, lambda x: edge(x.step, x, NULL))
FROM ended
