-- Form 3/4/5 filings listed in filings and not loaded yet ($forms: the ownership forms), or loaded only
-- from a container $headerless (a bare XML, without the SEC header); a rejected one is not asked for again.
-- $ciks: only those companies (NULL: every company).
-- reads: filings, insider_filings, source_documents
-- grain: accession
SELECT f.accession, any_value(f.cik) AS cik, any_value(f.form) AS form
FROM filings f
WHERE list_contains($forms, f.form)
  AND f.accession NOT IN (SELECT accession FROM insider_filings WHERE container <> $headerless)
  AND f.accession NOT IN (SELECT accession FROM source_documents
                          WHERE kind = 'ownership' AND status = 'rejected' AND accession IS NOT NULL)
  AND ($ciks IS NULL OR list_contains($ciks, f.cik))
GROUP BY f.accession ORDER BY f.accession
