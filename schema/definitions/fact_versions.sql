-- reads: accession_acceptance, facts, source_documents, fact_known_from, fact_revision
-- Every fact version with its revision (fact_revision) and the moment it became public (the rule:
-- fact_known_from), from its filing's true UTC acceptance time when the accession is in filings
-- (accession_acceptance: the latest if payloads disagree, kept as data when filings load, never
-- aggregated per query), else from the end of its filed day; known_from_basis says which (or
-- correction_fetched_at: a re-issued value public only from our first fetch of it).
CREATE OR REPLACE VIEW fact_versions AS
SELECT v.* EXCLUDE (acceptance_time, base_basis, payload_fetched_at),
       fact_known_from(v.revision, v.acceptance_time, v.filed, v.payload_fetched_at) AS known_from,
       CASE WHEN fact_known_from(v.revision, v.acceptance_time, v.filed, v.payload_fetched_at)
                 > fact_known_from(0, v.acceptance_time, v.filed, NULL) THEN 'correction_fetched_at'
            ELSE v.base_basis END AS known_from_basis
FROM (
    SELECT f.*,
           fact_revision(f.cik, f.taxonomy, f.concept, f.unit, f.period_start, f.period_end, f.accession,
                         f.payload_vintage, f.source_document_id) AS revision,
           a.acceptance_time,
           CASE WHEN a.acceptance_time IS NOT NULL THEN 'acceptance_time' ELSE 'filed_day_end' END AS base_basis,
           d.fetched_at AS payload_fetched_at
    FROM facts f
    LEFT JOIN accession_acceptance a ON a.accession = f.accession
    LEFT JOIN source_documents d ON d.source_document_id = f.source_document_id
) v;
