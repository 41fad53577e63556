-- Session helpers for the metric files, created once sfv exists (table macros bind at creation).
-- reads: period_pairs, period_inputs, edge
-- creates: same_period_pair, ratio_of, inputs_at, quotient_at, sum_at
--
-- same_period_pair(a, b): the rows of period_pairs (refresh/45: one pass for every pair the rule
-- files name) for two standard concepts: every combination of their versions that was ever current
-- for the same company and exact period (discrete quarters and fiscal years), at the moment it
-- became current (known_from), one row per a-unit.
CREATE OR REPLACE TEMP MACRO same_period_pair(sc_a, sc_b) AS TABLE
SELECT * EXCLUDE (pair_a, pair_b) FROM period_pairs WHERE pair_a = sc_a AND pair_b = sc_b;

-- ratio_of(metric, numerator, denominator, rule_version): a FRACTION metric over same_period_pair:
-- numerator / denominator when both share unit (currency) and taxonomy family, one filing reports
-- both (the pair's basis; flags say when a later filing recast one of them) and the denominator is
-- positive; otherwise value NULL with the reason. The margin files call it.
CREATE OR REPLACE TEMP MACRO ratio_of(metric_name, sc_num, sc_den, rule) AS TABLE
SELECT metric_name AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       CASE WHEN a_unit = b_unit AND a_taxonomy = b_taxonomy AND basis_null_reason IS NULL AND b_value > 0
            THEN CAST(round(CAST(a_value AS DOUBLE) / CAST(b_value AS DOUBLE), 10) AS DECIMAL(38, 10)) END AS value,
       'pure' AS unit, a_unit AS input_unit, a_taxonomy AS taxonomy, 'formula' AS derivation,
       sc_num || ' / ' || sc_den AS formula, rule AS rule_version, known_from,
       CASE WHEN a_unit <> b_unit THEN 'unit mismatch: ' || sc_num || ' in ' || a_unit || ', ' || sc_den || ' in ' || b_unit
            WHEN a_taxonomy <> b_taxonomy
                THEN 'taxonomy mismatch: ' || sc_num || ' from ' || a_taxonomy || ', ' || sc_den || ' from ' || b_taxonomy
            WHEN basis_null_reason IS NOT NULL THEN basis_null_reason
            WHEN b_value = 0 THEN sc_den || ' is zero'
            WHEN b_value < 0 THEN sc_den || ' is negative'
       END AS null_reason,
       basis_flags AS flags,
       list_concat(list_transform(a_inputs, lambda x: edge('numerator', x, a_metric_id)),
                   list_transform(b_inputs, lambda x: edge('denominator', x, b_metric_id))) AS inputs
FROM same_period_pair(sc_num, sc_den);

-- inputs_at(anchor, needs): the rows of period_inputs (refresh/46: one pass for every (anchor,
-- needs) the rule files name): for every period of the anchor standard concept and every moment one
-- of its inputs changed, the version of each concept in [anchor] + needs current then; one row per
-- (cik, period, unit, moment): v (concept -> value), tax (concept -> taxonomy), inputs (lineage
-- edges, role = concept), all from one filing's basis (basis_null_reason, basis_flags). A metric tests
-- which concepts it has.
CREATE OR REPLACE TEMP MACRO inputs_at(anchor, needs) AS TABLE
SELECT * EXCLUDE (key_anchor, key_needs) FROM period_inputs WHERE key_anchor = anchor AND key_needs = needs;

-- quotient_at(metric_name, num, den, anchor, formula_text, rule): num / den (a pure number) for every
-- period of the anchor concept (num or den) and moment from inputs_at, when the other concept has a
-- value; one taxonomy family, one filing saying both (inputs_at's basis), den positive, else value
-- NULL with null_reason.
CREATE OR REPLACE TEMP MACRO quotient_at(metric_name, num, den, anchor, formula_text, rule) AS TABLE
SELECT metric_name AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       CASE WHEN len(list_distinct(map_values(tax))) = 1 AND basis_null_reason IS NULL AND NOT (v[den] <= 0)
            THEN CAST(round(CAST(v[num] AS DOUBLE) / CAST(v[den] AS DOUBLE), 10) AS DECIMAL(38, 10)) END AS value,
       'pure' AS unit, unit AS input_unit, tax[anchor] AS taxonomy, 'formula' AS derivation,
       formula_text AS formula, rule AS rule_version, known_from,
       CASE WHEN len(list_distinct(map_values(tax))) > 1 THEN 'taxonomy mismatch: ' || CAST(tax AS VARCHAR)
            WHEN basis_null_reason IS NOT NULL THEN basis_null_reason
            WHEN v[den] <= 0 THEN den || ' is zero or negative'
       END AS null_reason,
       basis_flags AS flags, inputs
FROM inputs_at(anchor, [CASE WHEN anchor = num THEN den ELSE num END])
WHERE v[CASE WHEN anchor = num THEN den ELSE num END] IS NOT NULL;

-- sum_at(metric_name, a, b, formula_text, rule): a + b (in their currency) for every period of a and
-- moment from inputs_at, when b has a value; one taxonomy family and one filing saying both (inputs_at's
-- basis), else value NULL with null_reason.
CREATE OR REPLACE TEMP MACRO sum_at(metric_name, a, b, formula_text, rule) AS TABLE
SELECT metric_name AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       CASE WHEN len(list_distinct(map_values(tax))) = 1 AND basis_null_reason IS NULL THEN v[a] + v[b] END AS value,
       unit AS unit, unit AS input_unit, tax[a] AS taxonomy, 'formula' AS derivation,
       formula_text AS formula, rule AS rule_version, known_from,
       CASE WHEN len(list_distinct(map_values(tax))) > 1 THEN 'taxonomy mismatch: ' || CAST(tax AS VARCHAR)
            ELSE basis_null_reason END AS null_reason,
       basis_flags AS flags, inputs
FROM inputs_at(a, [b])
WHERE v[b] IS NOT NULL;
