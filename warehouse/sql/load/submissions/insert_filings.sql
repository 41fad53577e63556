-- Insert the filings of one submissions payload (registered Arrow table sub_arrow) that the company's
-- history does not hold yet. A filing already stored is never replaced. Returns the inserted count.
INSERT INTO filings BY NAME
SELECT $cik::INTEGER AS cik, s.accession, s.form, s.base_form, s.is_amendment, s.filing_date,
       s.acceptance_time, s.acceptance_time_raw, s.acceptance_time_basis, s.report_date, s.act,
       s.file_number, s.film_number, s.items, s.core_type, s.size, s.is_xbrl, s.is_inline_xbrl,
       s.is_xbrl_numeric, s.primary_document, s.primary_doc_description, s.index_url, s.document_url,
       NULL::VARCHAR AS amends_accession, NULL::VARCHAR AS superseded_by, NULL::VARCHAR AS amend_rule,
       $page::VARCHAR AS page, $source_document_id::BIGINT AS source_document_id, $load_id::VARCHAR AS load_id
FROM sub_arrow s
WHERE NOT EXISTS (SELECT 1 FROM filings f WHERE f.cik = $cik AND f.accession = s.accession);
