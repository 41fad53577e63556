-- Items ranked for a keyword query by BM25 (k1 1.2, b 0.75) over the keyword index (reads
-- filing_terms, filing_sections, filing_documents, filings). $terms: the query's index terms
-- (pipelines.filing_search.query_terms); an item with any of them is a hit. Filters as in
-- search_phrase.sql; document frequencies and lengths are those of the whole index. Best first,
-- at most $limit rows, without the items' text (read after, for those rows only: item_texts_of.sql).
-- reads: filing_documents, filing_sections, filing_terms, filings
-- grain: accession, item
WITH q AS (
    SELECT term, accession, item, tf FROM filing_terms WHERE term = ANY($terms)
), corpus AS (
    SELECT count(*)::DOUBLE AS n, avg(term_count)::DOUBLE AS avgdl FROM filing_sections
), df AS (  -- each term's inverse document frequency, in doubles (decimals cost more than the scan)
    SELECT term, ln(1 + (any_value(corpus.n) - count(*) + 0.5) / (count(*) + 0.5)) AS idf FROM q, corpus GROUP BY term
), scored AS (
    SELECT q.accession, q.item,
           sum(df.idf * q.tf * 2.2 / (q.tf + 1.2 * (0.25 + 0.75 * s.term_count / corpus.avgdl))) AS score,
           count(*) AS terms_matched
    FROM q JOIN df USING (term) JOIN filing_sections s USING (accession, item), corpus
    GROUP BY q.accession, q.item
)
SELECT sc.accession, sc.item, sc.score, sc.terms_matched, s.heading, s.body_start, s.byte_start,
       s.byte_end, s.confidence, d.cik, d.form, coalesce(d.filed, f.filing_date) AS filed, d.company_name,
       d.document_url
FROM scored sc
JOIN filing_sections s USING (accession, item)
JOIN filing_documents d USING (accession)
LEFT JOIN (SELECT accession, min(filing_date) AS filing_date FROM filings
           WHERE accession IN (SELECT accession FROM scored) GROUP BY accession) f USING (accession)
WHERE ($cik IS NULL OR d.cik = $cik)
  AND ($form IS NULL OR d.form = $form OR d.form_family = $form)
  AND ($item IS NULL OR s.item = $item OR list_contains(s.covers, $item))
  AND ($filed_from IS NULL OR coalesce(d.filed, f.filing_date) >= $filed_from)
  AND ($filed_to IS NULL OR coalesce(d.filed, f.filing_date) <= $filed_to)
ORDER BY sc.score DESC, sc.accession, s.ordinal
LIMIT $limit;
