-- Filings of one company (grain: cik, accession), newest first: the notebook's filings() and the MCP
-- tool list_filings (which keeps fewer columns) read this file, so a form means the same in both:
-- the form or its base form ('10-K' includes 10-K/A), matched case-insensitively ('10-k' is 10-K);
-- optionally a first filing date, and at most $limit rows (NULL: all).
-- reads: filings
-- grain: cik, accession
SELECT cik, accession, form, base_form, is_amendment, filing_date, acceptance_time, report_date,
       primary_document, primary_doc_description, items, is_xbrl, is_inline_xbrl, size, index_url,
       document_url, amends_accession, superseded_by
FROM filings
WHERE cik = $cik
  AND ($form IS NULL OR upper(form) = upper($form) OR upper(base_form) = upper($form))
  AND ($since IS NULL OR filing_date >= CAST($since AS DATE))
ORDER BY filing_date DESC, acceptance_time DESC NULLS LAST, accession DESC
LIMIT $limit;
