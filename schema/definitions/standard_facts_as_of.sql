-- reads: facts_as_of, standard_concept_chains, subtractable_unit, ytd_steps_one_quarter
-- Point-in-time standard facts: the fallback chain is applied PER PERIOD (cik, standard_concept,
-- unit, period_start, period_end) over facts_as_of(ts); discrete quarters Q2/Q3/Q4 are derived from
-- year-to-date values of the SAME tag (same cik, unit, fiscal year and period_start) when no tagged
-- discrete quarter ends on that date. Never derived for per-share values, ratios or instants.
-- grain: (cik, standard_concept, unit, period_start, period_end).
CREATE OR REPLACE MACRO standard_facts_as_of(ts) AS TABLE
WITH cand AS (
    SELECT f.cik, c.standard_concept, c.chain_rank, c.scope, c.additive, c.tags_tried,
           f.taxonomy, f.concept, f.unit, f.period_start, f.period_end, f.value, f.accession, f.form,
           f.filed, f.known_from, f.fiscal_year, f.fiscal_period, f.duration_class, f.duration_days
    FROM facts_as_of(ts) f
    JOIN standard_concept_chains c ON c.taxonomy = f.taxonomy AND c.concept = f.concept
    WHERE CASE WHEN c.period_type = 'instant' THEN f.duration_class = 'instant'
               ELSE f.duration_class IN ('quarter', 'six_months', 'nine_months', 'annual') END
),
reported AS (
    SELECT * FROM cand
    QUALIFY row_number() OVER (PARTITION BY cik, standard_concept, unit, period_start, period_end
                               ORDER BY chain_rank) = 1
),
derived AS (
    SELECT l.cik, l.standard_concept, l.chain_rank, l.scope, l.additive, l.tags_tried,
           l.taxonomy, l.concept, l.unit,
           CAST(s.period_end + INTERVAL 1 DAY AS DATE) AS period_start, l.period_end,
           l.value - s.value AS value, l.accession, l.form, l.filed,
           greatest(l.known_from, s.known_from) AS known_from, l.fiscal_year,
           CASE l.duration_class WHEN 'six_months' THEN 'Q2' WHEN 'nine_months' THEN 'Q3' ELSE 'Q4' END AS fiscal_period,
           'quarter' AS duration_class,
           CAST(l.period_end - s.period_end - 1 AS INTEGER) AS duration_days,
           [{'step': 'ytd', 'taxonomy': l.taxonomy, 'concept': l.concept, 'unit': l.unit,
             'period_start': l.period_start, 'period_end': l.period_end, 'accession': l.accession,
             'value': l.value, 'known_from': l.known_from},
            {'step': 'less_ytd', 'taxonomy': s.taxonomy, 'concept': s.concept, 'unit': s.unit,
             'period_start': s.period_start, 'period_end': s.period_end, 'accession': s.accession,
             'value': s.value, 'known_from': s.known_from}] AS inputs
    FROM reported l
    JOIN reported s
      ON s.cik = l.cik AND s.standard_concept = l.standard_concept AND s.unit = l.unit
     AND s.taxonomy = l.taxonomy AND s.concept = l.concept
     AND s.period_start = l.period_start AND s.fiscal_year = l.fiscal_year
     AND ytd_steps_one_quarter(l.duration_class, s.duration_class, l.period_end, s.period_end)
    WHERE l.additive AND subtractable_unit(l.unit)
      AND NOT EXISTS (SELECT 1 FROM reported r
                      WHERE r.cik = l.cik AND r.standard_concept = l.standard_concept AND r.unit = l.unit
                        AND r.period_end = l.period_end AND r.duration_class = 'quarter')
)
SELECT cik, standard_concept, fiscal_year, fiscal_period, duration_class, duration_days,
       period_start, period_end, value, unit, taxonomy, concept AS matched_tag, chain_rank, scope,
       tags_tried, accession, form, filed, known_from, 'reported' AS derivation,
       [{'step': 'reported', 'taxonomy': taxonomy, 'concept': concept, 'unit': unit,
         'period_start': period_start, 'period_end': period_end, 'accession': accession,
         'value': value, 'known_from': known_from}] AS inputs
FROM reported
UNION ALL BY NAME
SELECT cik, standard_concept, fiscal_year, fiscal_period, duration_class, duration_days,
       period_start, period_end, value, unit, taxonomy, concept AS matched_tag, chain_rank, scope,
       tags_tried, accession, form, filed, known_from, 'derived_' || lower(fiscal_period) AS derivation,
       inputs
FROM derived;
