-- Rejected documents, newest first (grain: source document).
-- reads: source_documents
-- grain: source_document_id
SELECT source_document_id, kind, uri, reject_reason, fetched_at
FROM source_documents
WHERE status = 'rejected'
ORDER BY source_document_id DESC
LIMIT 20;
