-- reads: insider_filings, insider_owners
-- Amendment candidates: every loaded filing that a /A could amend, ranked. Rules, best first:
-- same owner set before overlapping owners; then original filed on dateOfOriginalSubmission with the
-- same period, original filed on dateOfOriginalSubmission, original with unknown filing date (bare
-- XML) and the same period, and (no dateOfOriginalSubmission given) same period filed no later.
CREATE OR REPLACE VIEW insider_amendment_candidates AS
WITH owner_sets AS (
    SELECT accession, list_sort(list(owner_cik)) AS owner_ciks
    FROM insider_owners GROUP BY accession
), f AS (
    SELECT fi.accession, fi.document_type, fi.issuer_cik, fi.period_of_report, fi.filed,
           fi.acceptance_time, fi.date_of_original_submission, os.owner_ciks
    FROM insider_filings fi LEFT JOIN owner_sets os USING (accession)
), c AS (
    SELECT a.accession AS amendment_accession,
           o.accession AS original_accession,
           a.issuer_cik,
           a.document_type AS amendment_document_type,
           o.document_type AS original_document_type,
           o.filed AS original_filed,
           o.acceptance_time AS original_acceptance_time,
           a.owner_ciks = o.owner_ciks AS same_owners,
           CASE
               WHEN o.filed = a.date_of_original_submission AND o.period_of_report IS NOT DISTINCT FROM a.period_of_report THEN 1
               WHEN o.filed = a.date_of_original_submission THEN 2
               WHEN a.date_of_original_submission IS NOT NULL AND o.filed IS NULL
                    AND o.period_of_report = a.period_of_report THEN 3
               WHEN a.date_of_original_submission IS NULL AND o.period_of_report = a.period_of_report
                    AND (o.filed IS NULL OR a.filed IS NULL OR o.filed <= a.filed) THEN 4
           END AS date_rule
    FROM f a
    JOIN f o ON o.issuer_cik = a.issuer_cik
            AND o.accession <> a.accession
            AND o.document_type = replace(a.document_type, '/A', '')
            AND list_has_any(a.owner_ciks, o.owner_ciks)
    WHERE a.document_type LIKE '%/A'
)
SELECT amendment_accession, original_accession, issuer_cik, amendment_document_type,
       original_document_type, original_filed, original_acceptance_time, same_owners,
       (CASE WHEN same_owners THEN 'issuer+same_owners' ELSE 'issuer+overlapping_owners' END)
       || CASE date_rule WHEN 1 THEN '+period+original_filed_date'
                         WHEN 2 THEN '+original_filed_date'
                         WHEN 3 THEN '+period(original_filed_date_unknown)'
                         ELSE '+period(no_date_of_original_submission)' END AS rule,
       (CASE WHEN same_owners THEN 0 ELSE 10 END) + date_rule AS rule_priority,
       count(*) OVER (PARTITION BY amendment_accession, (CASE WHEN same_owners THEN 0 ELSE 10 END) + date_rule)
           AS same_rule_candidates,
       row_number() OVER (PARTITION BY amendment_accession
                          ORDER BY (CASE WHEN same_owners THEN 0 ELSE 10 END) + date_rule,
                                   original_acceptance_time DESC NULLS LAST, original_filed DESC NULLS LAST,
                                   original_accession DESC) AS candidate_rank
FROM c
WHERE date_rule IS NOT NULL;
