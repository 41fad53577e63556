-- Claim verifier: the tags a reported claim of a standard concept may be read from for one company
-- and fiscal period: the general-scope tags of its chain, plus whatever tag the chain matched for
-- that period (never a narrower goods-only/bank/... tag it did not match). Reads standard_concepts,
-- standard_facts. Params: $cik, $concept, $fy, $fp. Grain: one 'taxonomy:Concept'.
SELECT taxonomy || ':' || concept AS tag FROM standard_concepts
WHERE standard_concept = $concept AND scope = 'general'
UNION
SELECT taxonomy || ':' || matched_tag FROM standard_facts
WHERE cik = $cik AND standard_concept = $concept AND fiscal_year = $fy AND fiscal_period = $fp
  AND derivation = 'reported'
