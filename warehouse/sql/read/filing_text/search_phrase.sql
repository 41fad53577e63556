-- Items that can say a phrase, newest filings first, without their text (reads filing_terms,
-- filing_sections, filing_documents, filings): the caller reads the texts of the first ones
-- (item_texts_of.sql) and keeps those its regular expression finds. $terms, $places: the phrase's
-- (term, place) pairs (pipelines.filing_search.phrase_terms; empty: every item is a candidate). An
-- item with word positions (filing_terms.pos) is a candidate where every pair stands at its distance
-- from one start: the starts of the pair with the fewest positions are the anchors, and only the
-- other pairs' positions that meet an anchor are counted; an item loaded before positions (pos
-- NULL) is one where it holds all of the terms. Filters $cik, $form (a form or a family: 10-K
-- matches 10-K405, 10-K/A), $item, $filed_from, $filed_to (NULL: any).
-- reads: filing_documents, filing_sections, filing_terms, filings
-- grain: accession, item
WITH want AS (
    SELECT unnest($terms::VARCHAR[]) AS term, unnest($places::INTEGER[]) AS place
), q AS (
    SELECT accession, item, term, pos FROM filing_terms WHERE term = ANY($terms)
), has_all AS (
    SELECT accession, item, bool_and(pos IS NOT NULL) AS placed FROM q GROUP BY accession, item
    HAVING count(DISTINCT term) = (SELECT count(DISTINCT term) FROM want)
), placed AS (  -- k: one number per item, so that places are matched on integers
    SELECT hash(q.accession, q.item) AS k, q.* FROM q JOIN has_all h USING (accession, item) WHERE h.placed
), rarest AS (
    SELECT w.term, w.place FROM placed p JOIN want w USING (term)
    GROUP BY w.term, w.place ORDER BY sum(len(p.pos)), w.term, w.place LIMIT 1
), anchors AS (
    SELECT p.k, unnest(p.pos) - r.place AS start FROM placed p JOIN rarest r USING (term)
), met AS (  -- anchors and how many of the other pairs stand at their distance from them
    SELECT s.k, s.start, count(*) AS n FROM (
        SELECT p.k, unnest(p.pos) - w.place AS start FROM placed p JOIN want w USING (term)
        WHERE (w.term, w.place) NOT IN (SELECT (term, place) FROM rarest)) s
    SEMI JOIN anchors a USING (k, start) GROUP BY ALL
), found AS (
    SELECT DISTINCT a.k FROM anchors a LEFT JOIN met m USING (k, start)
    WHERE coalesce(m.n, 0) = (SELECT count(*) FROM want) - 1
), cand AS (
    SELECT DISTINCT p.accession, p.item FROM placed p SEMI JOIN found USING (k)
    UNION ALL
    SELECT accession, item FROM has_all WHERE NOT placed
    UNION ALL
    SELECT accession, item FROM filing_sections WHERE len($terms) = 0
), filed AS (
    SELECT accession, min(filing_date) AS filing_date FROM filings
    WHERE accession IN (SELECT accession FROM cand) GROUP BY accession
)
SELECT s.accession, s.item, s.heading, s.body_start, s.byte_start, s.byte_end, s.confidence,
       d.cik, d.form, coalesce(d.filed, f.filing_date) AS filed, d.company_name, d.document_url
FROM cand
JOIN filing_sections s USING (accession, item)
JOIN filing_documents d USING (accession)
LEFT JOIN filed f USING (accession)
WHERE ($cik IS NULL OR d.cik = $cik)
  AND ($form IS NULL OR d.form = $form OR d.form_family = $form)
  AND ($item IS NULL OR s.item = $item OR list_contains(s.covers, $item))
  AND ($filed_from IS NULL OR coalesce(d.filed, f.filing_date) >= $filed_from)
  AND ($filed_to IS NULL OR coalesce(d.filed, f.filing_date) <= $filed_to)
ORDER BY filed DESC NULLS LAST, s.accession, s.ordinal;
