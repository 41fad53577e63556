-- sfv: every version interval of every standard value (reported or derived quarter) for the
-- companies being refreshed; known_from = the moment the value became the answer, valid_to = the
-- moment it stopped being it (NULL = current). Input elements name the exact fact versions.
-- A derived quarter carries metric_id: its own derived_metrics id (metric = standard concept).
-- grain: (cik, standard_concept, unit, period_start, period_end, known_from).
CREATE OR REPLACE TEMP TABLE sfv AS
WITH rep AS (
    SELECT cik, standard_concept, fiscal_year, fiscal_period, duration_class, duration_days, period_start,
           period_end, value, unit, taxonomy, concept AS matched_tag, chain_rank, scope, tags_tried, accession,
           'reported' AS derivation, valid_from AS known_from, valid_to,
           [{'step': 'reported', 'standard_concept': standard_concept, 'derivation': 'reported',
             'taxonomy': taxonomy, 'concept': concept, 'unit': unit, 'period_start': period_start,
             'period_end': period_end, 'accession': accession, 'revision': revision, 'value': value,
             'known_from': fact_known_from}] AS inputs,
           CAST(NULL AS VARCHAR) AS metric_id
    FROM std_rep
),
der AS (
    SELECT cik, standard_concept, fiscal_year, fiscal_period, duration_class, duration_days, period_start,
           period_end, value, unit, taxonomy, concept AS matched_tag, chain_rank, scope, tags_tried, accession,
           derivation, valid_from AS known_from, valid_to,
           list_transform(raw_inputs, x -> {'step': x.step, 'standard_concept': standard_concept,
                                            'derivation': derivation, 'taxonomy': x.taxonomy,
                                            'concept': x.concept, 'unit': x.unit,
                                            'period_start': x.period_start, 'period_end': x.period_end,
                                            'accession': x.accession, 'revision': x.revision, 'value': x.value,
                                            'known_from': x.known_from}) AS inputs
    FROM std_der
)
SELECT * FROM rep
UNION ALL BY NAME
SELECT *, metric_key(standard_concept, cik, period_start, period_end, unit, 'discrete_quarter.v1',
                     list_transform(inputs, x -> edge(x.step, x, NULL))) AS metric_id
FROM der;
