-- period_inputs: inputs_at(anchor, needs) for every (anchor, needs) the metric rule files ask it
-- for ($inputs_at: {anchor, needs} structs, read from the rule files by warehouse.derive.metrics),
-- in ONE pass over sfv instead of one per rule: for every period of the anchor standard concept
-- (fiscal years, discrete quarters, or balance-sheet instants) and every moment one of its inputs
-- changed, the version of each concept in [anchor] + needs current then: flows of the same exact
-- period, balance-sheet instants at the period's end, in the anchor's unit. One row per (cik,
-- period, unit, moment) holding every concept found: v (concept -> value), tax (concept ->
-- taxonomy; map(keys, values) of two lists of one aggregate: the same order, and cheaper than
-- map_from_entries of structs), inputs (lineage edges, role = concept). A metric tests which
-- concepts it has.
-- grain: (key_anchor, key_needs, cik, period_start, period_end, unit, known_from).
-- reads: sfv, edge
-- creates: period_inputs
CREATE OR REPLACE TEMP TABLE period_inputs AS
WITH d AS (SELECT row_number() OVER () AS key_id, k.anchor AS key_anchor, k.needs AS key_needs
           FROM (SELECT DISTINCT unnest($inputs_at) AS k)),
dc AS (SELECT DISTINCT key_id, key_anchor, unnest(list_prepend(key_anchor, key_needs)) AS concept FROM d),
a AS (SELECT DISTINCT d.key_id, d.key_anchor, s.cik, s.fiscal_year, s.fiscal_period, s.duration_class, s.period_start,
                      s.period_end, s.unit
      FROM d JOIN sfv s ON s.standard_concept = d.key_anchor AND s.duration_class IN ('quarter', 'annual', 'instant')),
parts AS (
    SELECT a.key_id, a.key_anchor, a.cik, a.fiscal_year, a.fiscal_period, a.duration_class, a.period_start,
           a.period_end, a.unit, s.standard_concept, s.value, s.taxonomy, s.inputs, s.metric_id, s.known_from, s.valid_to
    FROM a JOIN dc ON dc.key_id = a.key_id
    JOIN sfv s ON s.cik = a.cik AND s.unit = a.unit AND s.period_end = a.period_end AND s.standard_concept = dc.concept
     AND (s.duration_class = 'instant' OR (a.duration_class <> 'instant' AND s.period_start = a.period_start))
),
ev AS (SELECT DISTINCT key_id, cik, period_start, period_end, unit, known_from AS t FROM parts),
cur AS (
    SELECT ev.t, p.* FROM ev
    JOIN parts p ON p.key_id = ev.key_id AND p.cik = ev.cik AND p.period_start IS NOT DISTINCT FROM ev.period_start
                AND p.period_end = ev.period_end AND p.unit = ev.unit
                AND p.known_from <= ev.t AND ev.t < coalesce(p.valid_to, TIMESTAMP 'infinity')
),
g AS (
    SELECT key_id, key_anchor, t AS known_from, cik, any_value(fiscal_year) AS fiscal_year,
           any_value(fiscal_period) AS fiscal_period, any_value(duration_class) AS duration_class, period_start,
           period_end, unit,
           map(list(standard_concept), list(value)) AS v,
           map(list(standard_concept), list(taxonomy)) AS tax,
           flatten(list(list_transform(inputs, lambda x: edge(standard_concept, x, metric_id)))) AS inputs  -- any order: metric_key sorts
    FROM cur
    GROUP BY key_id, key_anchor, cik, period_start, period_end, unit, t
    HAVING bool_or(standard_concept = key_anchor)
)
SELECT d.key_needs, g.* EXCLUDE (key_id) FROM g JOIN d ON d.key_id = g.key_id;
