-- Session helpers for the metric files, created once sfv exists (table macros bind at creation).
-- reads: sfv, edge
-- creates: same_period_pair, ratio_of, inputs_at, quotient_at, sum_at
--
-- same_period_pair(a, b): for two standard concepts, every combination of their versions that was
-- ever current for the same company and exact period (discrete quarters and fiscal years), at the
-- moment it became current (known_from). One row per a-unit: the b with the same unit when there is
-- one (else another unit, which the metric turns into a NULL with a reason).
CREATE OR REPLACE TEMP MACRO same_period_pair(sc_a, sc_b) AS TABLE
WITH a AS (SELECT * FROM sfv WHERE standard_concept = sc_a AND duration_class IN ('quarter', 'annual')),
     b AS (SELECT * FROM sfv WHERE standard_concept = sc_b AND duration_class IN ('quarter', 'annual')),
     ev AS (SELECT cik, period_start, period_end, known_from AS t FROM a
            UNION
            SELECT cik, period_start, period_end, known_from AS t FROM b)
SELECT ev.t AS known_from, a.cik, a.fiscal_year, a.fiscal_period, a.duration_class, a.period_start, a.period_end,
       a.value AS a_value, a.unit AS a_unit, a.taxonomy AS a_taxonomy, a.inputs AS a_inputs, a.metric_id AS a_metric_id,
       b.value AS b_value, b.unit AS b_unit, b.taxonomy AS b_taxonomy, b.inputs AS b_inputs, b.metric_id AS b_metric_id
FROM ev
JOIN a ON a.cik = ev.cik AND a.period_start = ev.period_start AND a.period_end = ev.period_end
      AND a.known_from <= ev.t AND ev.t < coalesce(a.valid_to, TIMESTAMP 'infinity')
JOIN b ON b.cik = ev.cik AND b.period_start = ev.period_start AND b.period_end = ev.period_end
      AND b.known_from <= ev.t AND ev.t < coalesce(b.valid_to, TIMESTAMP 'infinity')
QUALIFY row_number() OVER (PARTITION BY ev.t, a.cik, a.period_start, a.period_end, a.unit
                           ORDER BY (a.unit = b.unit) DESC, (a.taxonomy = b.taxonomy) DESC, b.unit) = 1;

-- ratio_of(metric, numerator, denominator, rule_version): a FRACTION metric over same_period_pair:
-- numerator / denominator when both share unit (currency) and taxonomy family and the
-- denominator is positive; otherwise value NULL with the reason. The margin files call it.
CREATE OR REPLACE TEMP MACRO ratio_of(metric_name, sc_num, sc_den, rule) AS TABLE
SELECT metric_name AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       CASE WHEN a_unit = b_unit AND a_taxonomy = b_taxonomy AND b_value > 0
            THEN CAST(round(CAST(a_value AS DOUBLE) / CAST(b_value AS DOUBLE), 10) AS DECIMAL(38, 10)) END AS value,
       'pure' AS unit, a_unit AS input_unit, a_taxonomy AS taxonomy, 'formula' AS derivation,
       sc_num || ' / ' || sc_den AS formula, rule AS rule_version, known_from,
       CASE WHEN a_unit <> b_unit THEN 'unit mismatch: ' || sc_num || ' in ' || a_unit || ', ' || sc_den || ' in ' || b_unit
            WHEN a_taxonomy <> b_taxonomy
                THEN 'taxonomy mismatch: ' || sc_num || ' from ' || a_taxonomy || ', ' || sc_den || ' from ' || b_taxonomy
            WHEN b_value = 0 THEN sc_den || ' is zero'
            WHEN b_value < 0 THEN sc_den || ' is negative'
       END AS null_reason,
       CAST([] AS VARCHAR[]) AS flags,
       list_concat(list_transform(a_inputs, x -> edge('numerator', x, a_metric_id)),
                   list_transform(b_inputs, x -> edge('denominator', x, b_metric_id))) AS inputs
FROM same_period_pair(sc_num, sc_den);

-- inputs_at(anchor, needs): for every period of the anchor standard concept (fiscal years,
-- discrete quarters, or balance-sheet instants) and every moment one of its inputs changed, the
-- version of each concept in [anchor] + needs current then: flows of the same exact period,
-- balance-sheet instants at the period's end, in the anchor's unit. One row per (cik, period,
-- unit, moment) holding every concept found: v (concept -> value), tax (concept -> taxonomy),
-- inputs (lineage edges, role = concept). A metric tests which concepts it has.
CREATE OR REPLACE TEMP MACRO inputs_at(anchor, needs) AS TABLE
WITH a AS (SELECT DISTINCT cik, fiscal_year, fiscal_period, duration_class, period_start, period_end, unit
           FROM sfv WHERE standard_concept = anchor AND duration_class IN ('quarter', 'annual', 'instant')),
parts AS (
    SELECT a.cik, a.fiscal_year, a.fiscal_period, a.duration_class, a.period_start, a.period_end, a.unit,
           s.standard_concept, s.value, s.taxonomy, s.inputs, s.metric_id, s.known_from, s.valid_to
    FROM a JOIN sfv s ON s.cik = a.cik AND s.unit = a.unit AND s.period_end = a.period_end
     AND list_contains(list_prepend(anchor, needs), s.standard_concept)
     AND (s.duration_class = 'instant' OR (a.duration_class <> 'instant' AND s.period_start = a.period_start))
),
ev AS (SELECT DISTINCT cik, period_start, period_end, unit, known_from AS t FROM parts),
cur AS (
    SELECT ev.t, p.* FROM ev
    JOIN parts p ON p.cik = ev.cik AND p.period_start IS NOT DISTINCT FROM ev.period_start
                AND p.period_end = ev.period_end AND p.unit = ev.unit
                AND p.known_from <= ev.t AND ev.t < coalesce(p.valid_to, TIMESTAMP 'infinity')
)
SELECT t AS known_from, cik, any_value(fiscal_year) AS fiscal_year, any_value(fiscal_period) AS fiscal_period,
       any_value(duration_class) AS duration_class, period_start, period_end, unit,
       map_from_entries(list({'key': standard_concept, 'value': value})) AS v,
       map_from_entries(list({'key': standard_concept, 'value': taxonomy})) AS tax,
       flatten(list(list_transform(inputs, x -> edge(standard_concept, x, metric_id)))) AS inputs  -- any order: metric_key sorts
FROM cur
GROUP BY cik, period_start, period_end, unit, t
HAVING bool_or(standard_concept = anchor);

-- quotient_at(metric_name, num, den, anchor, formula_text, rule): num / den (a pure number) for every
-- period of the anchor concept (num or den) and moment from inputs_at, when the other concept has a
-- value; one taxonomy family, den positive, else value NULL with null_reason.
CREATE OR REPLACE TEMP MACRO quotient_at(metric_name, num, den, anchor, formula_text, rule) AS TABLE
SELECT metric_name AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       CASE WHEN len(list_distinct(map_values(tax))) = 1 AND NOT (v[den] <= 0)
            THEN CAST(round(CAST(v[num] AS DOUBLE) / CAST(v[den] AS DOUBLE), 10) AS DECIMAL(38, 10)) END AS value,
       'pure' AS unit, unit AS input_unit, tax[anchor] AS taxonomy, 'formula' AS derivation,
       formula_text AS formula, rule AS rule_version, known_from,
       CASE WHEN len(list_distinct(map_values(tax))) > 1 THEN 'taxonomy mismatch: ' || CAST(tax AS VARCHAR)
            WHEN v[den] <= 0 THEN den || ' is zero or negative'
       END AS null_reason,
       CAST([] AS VARCHAR[]) AS flags, inputs
FROM inputs_at(anchor, [CASE WHEN anchor = num THEN den ELSE num END])
WHERE v[CASE WHEN anchor = num THEN den ELSE num END] IS NOT NULL;

-- sum_at(metric_name, a, b, formula_text, rule): a + b (in their currency) for every period of a and
-- moment from inputs_at, when b has a value; one taxonomy family, else value NULL with null_reason.
CREATE OR REPLACE TEMP MACRO sum_at(metric_name, a, b, formula_text, rule) AS TABLE
SELECT metric_name AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       CASE WHEN len(list_distinct(map_values(tax))) = 1 THEN v[a] + v[b] END AS value,
       unit AS unit, unit AS input_unit, tax[a] AS taxonomy, 'formula' AS derivation,
       formula_text AS formula, rule AS rule_version, known_from,
       CASE WHEN len(list_distinct(map_values(tax))) > 1 THEN 'taxonomy mismatch: ' || CAST(tax AS VARCHAR) END AS null_reason,
       CAST([] AS VARCHAR[]) AS flags, inputs
FROM inputs_at(a, [b])
WHERE v[b] IS NOT NULL;
