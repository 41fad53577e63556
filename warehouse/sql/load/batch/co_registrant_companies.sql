-- Companies outside the batch ($ciks) whose facts cite an accession of a filing with an acceptance
-- time that the batch's documents ($docs) inserted (a co-registrant's facts take its acceptance time).
-- reads: facts, filings
-- grain: cik
SELECT DISTINCT x.cik FROM facts x
SEMI JOIN (SELECT DISTINCT accession FROM filings
           WHERE source_document_id BETWEEN list_min($docs) AND list_max($docs)
             AND list_contains($docs, source_document_id) AND acceptance_time IS NOT NULL) b
  ON b.accession = x.accession
WHERE NOT list_contains($ciks, x.cik)
