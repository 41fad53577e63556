-- period_pairs: same_period_pair(a, b) for every pair of standard concepts the metric rule files
-- ask it for ($pairs: [a, b] lists, read from the rule files by warehouse.derive.metrics), in ONE
-- pass over sfv instead of one per rule: for two standard concepts, every combination of their
-- versions that was ever current for the same company and exact period (discrete quarters and
-- fiscal years), at the moment it became current (known_from). One row per a-unit: the b with the
-- same unit when there is one (else another unit, which the metric turns into a NULL with a reason).
-- grain: (pair_a, pair_b, cik, period_start, period_end, a unit, known_from).
-- reads: sfv
-- creates: period_pairs
CREATE OR REPLACE TEMP TABLE period_pairs AS
WITH d AS (SELECT k[1] AS pair_a, k[2] AS pair_b FROM (SELECT DISTINCT unnest($pairs) AS k)),
     a AS (SELECT d.pair_a, d.pair_b, s.* FROM d JOIN sfv s ON s.standard_concept = d.pair_a
           WHERE s.duration_class IN ('quarter', 'annual')),
     b AS (SELECT d.pair_a, d.pair_b, s.* FROM d JOIN sfv s ON s.standard_concept = d.pair_b
           WHERE s.duration_class IN ('quarter', 'annual')),
     ev AS (SELECT pair_a, pair_b, cik, period_start, period_end, known_from AS t FROM a
            UNION
            SELECT pair_a, pair_b, cik, period_start, period_end, known_from AS t FROM b)
SELECT ev.pair_a, ev.pair_b, ev.t AS known_from, a.cik, a.fiscal_year, a.fiscal_period, a.duration_class,
       a.period_start, a.period_end,
       a.value AS a_value, a.unit AS a_unit, a.taxonomy AS a_taxonomy, a.inputs AS a_inputs, a.metric_id AS a_metric_id,
       b.value AS b_value, b.unit AS b_unit, b.taxonomy AS b_taxonomy, b.inputs AS b_inputs, b.metric_id AS b_metric_id
FROM ev
JOIN a ON a.pair_a = ev.pair_a AND a.pair_b = ev.pair_b
      AND a.cik = ev.cik AND a.period_start = ev.period_start AND a.period_end = ev.period_end
      AND a.known_from <= ev.t AND ev.t < coalesce(a.valid_to, TIMESTAMP 'infinity')
JOIN b ON b.pair_a = ev.pair_a AND b.pair_b = ev.pair_b
      AND b.cik = ev.cik AND b.period_start = ev.period_start AND b.period_end = ev.period_end
      AND b.known_from <= ev.t AND ev.t < coalesce(b.valid_to, TIMESTAMP 'infinity')
QUALIFY row_number() OVER (PARTITION BY ev.pair_a, ev.pair_b, ev.t, a.cik, a.period_start, a.period_end, a.unit
                           ORDER BY (a.unit = b.unit) DESC, (a.taxonomy = b.taxonomy) DESC, b.unit) = 1;
