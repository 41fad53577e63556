-- Keep accession_acceptance (grain: accession; the latest acceptance time filings holds for it, the
-- time fact_versions.known_from uses) in step with the accessions of one submissions payload
-- (registered Arrow table sub_arrow), after its filings were inserted.
-- Reads filings, sub_arrow; writes accession_acceptance.
DELETE FROM accession_acceptance WHERE accession IN (SELECT accession FROM sub_arrow);
INSERT INTO accession_acceptance
SELECT accession, max(acceptance_time)
FROM filings
WHERE acceptance_time IS NOT NULL AND accession IN (SELECT accession FROM sub_arrow)
GROUP BY accession;
