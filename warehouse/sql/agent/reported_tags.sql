-- Claim verifier: the tags a reported claim of a standard concept may be read from for one company
-- and fiscal period: the general-scope tags of its chain, plus the first tag of the chain the
-- company reported for that period (so a company whose chain lands on a narrower tag is still
-- read, but a narrower goods-only/bank/... tag is never read beside a general one). Reads
-- standard_concepts and facts directly (standard_facts would compute every period).
-- Params: $cik, $concept, $fy, $fp. Grain: one 'taxonomy:Concept'.
-- reads: facts, standard_concepts
-- grain: tag
SELECT taxonomy || ':' || concept AS tag FROM standard_concepts
WHERE standard_concept = $concept AND scope = 'general'
UNION
SELECT arg_min(sc.taxonomy || ':' || sc.concept, sc.chain_rank) AS tag
FROM standard_concepts sc
JOIN facts f ON f.taxonomy = sc.taxonomy AND f.concept = sc.concept
WHERE sc.standard_concept = $concept AND f.cik = $cik AND f.fiscal_year = $fy AND f.fiscal_period = $fp
HAVING count(*) > 0
