-- Recompute amends_accession / amendment_rule / amendment_candidates for every Form 3/4/5 amendment
-- (document type ending /A) of one issuer from its rank-1 candidate in insider_amendment_candidates;
-- an amendment without a candidate gets $unlinked. Only rows whose link changes are written; the
-- statement's count is the number of rows changed.
UPDATE insider_filings SET amends_accession = l.original_accession, amendment_rule = l.rule,
                           amendment_candidates = l.n
FROM (
    SELECT a.accession, c.original_accession,
           coalesce(c.rule, $unlinked) AS rule, coalesce(c.same_rule_candidates, 0) AS n
    FROM insider_filings a
    LEFT JOIN insider_amendment_candidates c
           ON c.amendment_accession = a.accession AND c.candidate_rank = 1
    WHERE a.issuer_cik = $issuer_cik AND a.document_type LIKE '%/A'
) AS l
WHERE insider_filings.accession = l.accession
  AND (insider_filings.amends_accession IS DISTINCT FROM l.original_accession
       OR insider_filings.amendment_rule IS DISTINCT FROM l.rule
       OR insider_filings.amendment_candidates IS DISTINCT FROM l.n);
