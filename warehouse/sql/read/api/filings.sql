-- Filings of one company (grain: cik, accession), newest first; optionally one form (the form or
-- its base form: '10-K' includes 10-K/A) and a first filing date.
SELECT cik, accession, form, base_form, is_amendment, filing_date, acceptance_time, report_date,
       primary_document, primary_doc_description, items, is_xbrl, is_inline_xbrl, size, index_url,
       document_url, amends_accession, superseded_by
FROM filings
WHERE cik = $cik AND ($form IS NULL OR form = $form OR base_form = $form)
  AND ($since IS NULL OR filing_date >= CAST($since AS DATE))
ORDER BY filing_date DESC, acceptance_time DESC NULLS LAST, accession DESC;
