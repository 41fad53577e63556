-- A fact version (key, accession, value) carried by several companyfacts payloads keeps what the
-- EARLIEST payload (smallest payload_vintage) said about it: its form, filed date, frame, the
-- filing's fy/fp, payload_vintage and source document (whose fetch time dates an SEC correction).
-- Applied when a staged payload (cf_stage, company $cik's rows) is older than the one that inserted
-- the row, so the stored row does not depend on the order in which the payloads arrived.
-- reads: facts, cf_stage. writes: facts (those columns only; values and keys never change).
UPDATE facts
SET payload_vintage = s.payload_vintage, form = s.form, filed = s.filed, frame = s.frame,
    filing_fy = s.filing_fy, filing_fp = s.filing_fp,
    source_document_id = s.source_document_id, load_id = $load_id
FROM cf_stage s
WHERE facts.cik = $cik AND s.cik = $cik
  AND facts.taxonomy = s.taxonomy AND facts.concept = s.concept AND facts.unit = s.unit
  AND facts.period_start IS NOT DISTINCT FROM s.period_start AND facts.period_end = s.period_end
  AND facts.accession = s.accession AND facts.value = s.value
  AND s.payload_vintage < facts.payload_vintage;
