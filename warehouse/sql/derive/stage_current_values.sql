-- check_facts: the current interval of every standard value in sfv (built by the metrics refresh
-- for the companies being refreshed), with the tags its chain tried up to the matched tag, and
-- without the lineage lists (no check reads them): the columns of standard_facts.
-- grain: (cik, standard_concept, unit, period_start, period_end).
-- reads: sfv, standard_concept_chains
-- creates: check_facts
CREATE OR REPLACE TEMP TABLE check_facts AS
SELECT v.* EXCLUDE (inputs), c.tags_tried
FROM sfv v
JOIN standard_concept_chains c ON c.standard_concept = v.standard_concept AND c.chain_rank = v.chain_rank
WHERE v.valid_to IS NULL
