-- reads: standard_concepts
-- grain: (standard_concept, chain_rank), like standard_concepts, plus the chain prefix.
CREATE OR REPLACE VIEW standard_concept_chains AS
SELECT s.*,
       list(s.taxonomy || ':' || s.concept) OVER (PARTITION BY s.standard_concept ORDER BY s.chain_rank
                                                 ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS tags_tried
FROM standard_concepts s;
