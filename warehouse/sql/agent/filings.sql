-- Agent tools: the filings of one company, newest first, optionally one form (base form or exact)
-- and filed on/after $since. Reads filings. Grain: one (cik, accession).
SELECT accession, form, filing_date, acceptance_time, report_date, primary_document, amends_accession,
       superseded_by
FROM filings
WHERE cik = $cik
  AND ($form IS NULL OR upper(form) = upper($form) OR upper(base_form) = upper($form))
  AND ($since IS NULL OR filing_date >= CAST($since AS DATE))
ORDER BY filing_date DESC, acceptance_time DESC NULLS LAST, accession DESC
LIMIT $limit
