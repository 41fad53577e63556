-- Every item of one filing document, in document order (reads filing_sections, filing_documents).
-- $accession: the filing. One row per item; none when the document is not held.
-- reads: filing_documents, filing_sections, filings
-- grain: item
SELECT s.item, s.part, s.heading, s.text, s.flags, s.covers, s.confidence, s.confidence_reason, s.ordinal,
       s.text_start, s.text_end, s.body_start, s.byte_start, s.byte_end,
       d.accession, d.cik, d.form, coalesce(d.filed, f.filing_date) AS filed, d.company_name, d.document_url,
       d.sha256
FROM filing_sections s
JOIN filing_documents d USING (accession)
LEFT JOIN (SELECT accession, min(filing_date) AS filing_date FROM filings GROUP BY accession) f USING (accession)
WHERE s.accession = $accession
ORDER BY s.ordinal;
