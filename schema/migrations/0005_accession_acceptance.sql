-- 0005 accession acceptance: when each accession was accepted, kept as data so that
-- fact_versions.known_from joins one row per accession instead of aggregating all of filings on
-- every query (issue 13: 13 ms -> 637 ms once filings holds 5M rows). Kept in step with filings by
-- warehouse/sql/submissions/accession_acceptance.sql whenever filings load.

-- grain: accession (one row per accession with a known acceptance time; the latest when the
-- submissions histories that list it disagree).
CREATE TABLE accession_acceptance (
    accession       VARCHAR NOT NULL,
    acceptance_time TIMESTAMP NOT NULL
);

INSERT INTO accession_acceptance
SELECT accession, max(acceptance_time)
FROM filings
WHERE acceptance_time IS NOT NULL
GROUP BY accession;
