-- The concepts of the staged payloads (registered Arrow table concepts_arrow, pos = the payload's place
-- in load order) not known yet, each as the first payload describes it.
-- reads: concepts_arrow, concepts
-- creates: concepts_new
-- grain: taxonomy, concept
CREATE OR REPLACE TEMP TABLE concepts_new AS
SELECT DISTINCT ON (taxonomy, concept) * FROM concepts_arrow c
WHERE NOT EXISTS (SELECT 1 FROM concepts k WHERE k.taxonomy = c.taxonomy AND k.concept = c.concept)
ORDER BY taxonomy, concept, pos
