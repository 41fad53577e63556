-- One filing's statement as presented (grain: line_number), in printed order: the statement's title
-- and receipts (accession, form, company, the document's sha256 and URI) beside each line's label,
-- concept, depth and cells (period, value as shown, fact value, element id, byte offset).
-- reads: filing_statements, filing_statement_lines, source_documents
-- grain: line_number
SELECT s.accession, s.statement, s.title, s.form, s.cik, s.byte_offset AS table_byte_offset, d.sha256, d.uri,
       l.line_number, l.label, l.concept, l.depth, l.cells
FROM filing_statements s
JOIN filing_statement_lines l USING (accession, statement)
JOIN source_documents d ON d.source_document_id = s.source_document_id
WHERE s.accession = $accession AND s.statement = $statement
ORDER BY l.line_number;
