-- Companies of $ciks (the batch's) whose stored facts cite an accession of a filing the batch's
-- documents ($docs) inserted: their facts' known_from moved from the filed-day fallback to the
-- acceptance time, so their metrics are computed again from scratch.
-- The range of $docs is tested first: the scan of filings skips the row groups outside it.
-- grain: cik.
-- reads: filings, facts
-- creates: -
SELECT DISTINCT f.cik
FROM filings f
WHERE f.source_document_id BETWEEN list_min($docs) AND list_max($docs)
  AND list_contains($docs, f.source_document_id)
  AND list_contains($ciks, f.cik)
  AND EXISTS (SELECT 1 FROM facts x
              WHERE x.cik = f.cik AND x.accession = f.accession AND NOT list_contains($docs, x.source_document_id))
ORDER BY 1
