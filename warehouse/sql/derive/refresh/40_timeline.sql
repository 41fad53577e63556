-- sfv: every version interval of every standard value (reported or derived quarter) for the
-- companies being refreshed; known_from = the moment the value became the answer, valid_to = the
-- moment it stopped being it (NULL = current). inputs (lineage_edge list) name the exact fact
-- versions. A derived quarter carries metric_id: its own derived_metrics id (metric = standard
-- concept), and flags (tag_differs_from_ytd_pick); chain_rank = the matched tag's place in its chain
-- (the checks' staging adds tags_tried from it: no metric reads it).
-- grain: (cik, standard_concept, unit, period_start, period_end, known_from).
-- reads: std_rep, std_der, lineage_edge, edge, metric_key
-- creates: sfv
CREATE OR REPLACE TEMP TABLE sfv AS
WITH rep AS (
    SELECT cik, standard_concept, fiscal_year, fiscal_period, duration_class, duration_days, period_start,
           period_end, value, unit, taxonomy, concept AS matched_tag, chain_rank, scope, accession,
           'reported' AS derivation, valid_from AS known_from, valid_to, CAST([] AS VARCHAR[]) AS flags,
           [lineage_edge(NULL, 'reported', standard_concept, 'reported', taxonomy, concept, unit, period_start,
                         period_end, accession, revision, value, fact_known_from, NULL)] AS inputs,
           CAST(NULL AS VARCHAR) AS metric_id
    FROM std_rep
),
der AS (
    SELECT cik, standard_concept, fiscal_year, fiscal_period, duration_class, duration_days, period_start,
           period_end, value, unit, taxonomy, concept AS matched_tag, chain_rank, scope, accession,
           derivation, valid_from AS known_from, valid_to, flags,
           list_transform(raw_inputs, lambda x: lineage_edge(NULL, x.step, x.standard_concept, derivation, x.taxonomy,
                                                        x.concept, x.unit, x.period_start, x.period_end,
                                                        x.accession, x.revision, x.value, x.known_from, NULL))
               AS inputs
    FROM std_der
)
SELECT * FROM rep
UNION ALL BY NAME
SELECT *, metric_key(standard_concept, cik, period_start, period_end, unit, 'discrete_quarter.v1',
                     list_transform(inputs, lambda x: edge(x.step, x, NULL))) AS metric_id
FROM der;
