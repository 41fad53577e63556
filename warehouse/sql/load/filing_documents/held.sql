-- Those of $accessions whose primary document is held, or was fetched and rejected (Archives never
-- change: fetching it again cannot help) (reads filing_documents, source_documents; grain: accession).
SELECT accession FROM filing_documents WHERE list_contains($accessions, accession)
UNION
SELECT coalesce(accession, given_accession) FROM source_documents
WHERE kind = 'filing_document' AND status = 'rejected'
  AND list_contains($accessions, coalesce(accession, given_accession));
