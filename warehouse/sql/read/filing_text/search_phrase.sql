-- Items whose text says a phrase (reads filing_terms, filing_sections, filing_documents, filings).
-- $terms: the phrase's index terms (pipelines.filing_search.query_terms; empty: every item is a
-- candidate); $pattern: its normalised regular expression (filing_search.phrase_pattern); filters
-- $cik, $form (a form or a family: 10-K matches 10-K405, 10-K/A), $item, $filed_from, $filed_to
-- (NULL: any); newest filings first, at most $limit rows.
-- reads: filing_documents, filing_sections, filing_terms, filings
-- grain: accession, item
WITH cand AS (
    SELECT accession, item FROM filing_terms WHERE list_contains($terms, term)
    GROUP BY accession, item HAVING count(*) = len($terms)
    UNION ALL
    SELECT accession, item FROM filing_sections WHERE len($terms) = 0
), filed AS (
    SELECT accession, min(filing_date) AS filing_date FROM filings GROUP BY accession
)
SELECT s.accession, s.item, s.heading, s.text, s.body_start, s.byte_start, s.byte_end, s.confidence,
       d.cik, d.form, coalesce(d.filed, f.filing_date) AS filed, d.company_name, d.document_url
FROM cand
JOIN filing_sections s USING (accession, item)
JOIN filing_documents d USING (accession)
LEFT JOIN filed f USING (accession)
WHERE regexp_matches(s.text, $pattern)
  AND ($cik IS NULL OR d.cik = $cik)
  AND ($form IS NULL OR d.form = $form OR d.form_family = $form)
  AND ($item IS NULL OR s.item = $item OR list_contains(s.covers, $item))
  AND ($filed_from IS NULL OR coalesce(d.filed, f.filing_date) >= $filed_from)
  AND ($filed_to IS NULL OR coalesce(d.filed, f.filing_date) <= $filed_to)
ORDER BY filed DESC NULLS LAST, s.accession, s.ordinal
LIMIT $limit;
