-- The latest 10-K document held of one company (its cik, the one parameter), with its filing date (report's text section).
-- reads: filing_documents, filings
-- grain: accession
SELECT d.accession, d.form, d.document_url, coalesce(d.filed, f.filed) AS filed
FROM filing_documents d
LEFT JOIN (SELECT accession, min(filing_date) AS filed FROM filings GROUP BY accession) f USING (accession)
WHERE d.cik = ? AND d.form_family = '10-K'
ORDER BY coalesce(d.filed, f.filed) DESC NULLS LAST, d.accession DESC LIMIT 1
