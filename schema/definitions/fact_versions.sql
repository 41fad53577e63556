-- reads: accession_acceptance, facts, source_documents
-- Version order of a fact: the moment it became public. A fact version is public from its filing's
-- true UTC acceptance time when the accession is in filings (accession_acceptance: the latest if
-- payloads disagree, kept as data when filings load, never aggregated per query), else
-- from the end of its filed day in New York (05:00 UTC next day is never earlier than midnight
-- EST/EDT). A value SEC re-issued later under the same accession (revision > 0) is public no earlier
-- than when we first fetched the payload that carried it.
CREATE OR REPLACE VIEW fact_versions AS
SELECT v.* EXCLUDE (base_known_from, base_basis, payload_fetched_at),
       CASE WHEN v.revision > 0 THEN greatest(v.base_known_from, v.payload_fetched_at)
            ELSE v.base_known_from END AS known_from,
       CASE WHEN v.revision > 0 AND v.payload_fetched_at > v.base_known_from THEN 'correction_fetched_at'
            ELSE v.base_basis END AS known_from_basis
FROM (
    SELECT f.*,
           (row_number() OVER (PARTITION BY f.cik, f.taxonomy, f.concept, f.unit, f.period_start, f.period_end,
                                            f.accession
                               ORDER BY f.payload_vintage, f.source_document_id) - 1)::SMALLINT AS revision,
           coalesce(a.acceptance_time, CAST(f.filed + INTERVAL 1 DAY + INTERVAL 5 HOUR AS TIMESTAMP)) AS base_known_from,
           CASE WHEN a.acceptance_time IS NOT NULL THEN 'acceptance_time' ELSE 'filed_day_end' END AS base_basis,
           d.fetched_at AS payload_fetched_at
    FROM facts f
    LEFT JOIN accession_acceptance a ON a.accession = f.accession
    LEFT JOIN source_documents d ON d.source_document_id = f.source_document_id
) v;
