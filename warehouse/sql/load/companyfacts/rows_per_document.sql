-- Facts stored per payload ($docs: their source documents) of companies that had rows before this
-- load ($ciks; the range first, so the scan skips other companies' row groups).
-- reads: facts
-- grain: source_document_id
SELECT source_document_id, count(*) FROM facts
WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik)
  AND list_contains($docs, source_document_id)
GROUP BY ALL
