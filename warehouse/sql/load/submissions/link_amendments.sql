-- Recompute one company's amendment links from everything stored, so arrival order never matters.
-- Rule same_form_report_date: an amendment (form ending /A) amends the original of the same company
-- and base form with the same report_date, filed on or before it, when exactly one such original
-- exists. superseded_by chains each original through its amendments in filing order.
UPDATE filings SET amends_accession = d.amends_accession, superseded_by = d.superseded_by,
                   amend_rule = d.amend_rule
FROM (
WITH co AS (
    SELECT accession, base_form, is_amendment, report_date, filing_date, acceptance_time
    FROM filings WHERE cik = $cik
), cand AS (
    SELECT a.accession AS amendment, o.accession AS original,
           count(*) OVER (PARTITION BY a.accession) AS n
    FROM co a JOIN co o
      ON a.is_amendment AND NOT o.is_amendment AND o.base_form = a.base_form
     AND o.report_date = a.report_date AND o.filing_date <= a.filing_date
), links AS (
    SELECT amendment,
           CASE WHEN n = 1 THEN original END AS original,
           CASE WHEN n = 1 THEN 'same_form_report_date' ELSE 'ambiguous_' || n || '_candidates' END AS rule
    FROM cand
    QUALIFY row_number() OVER (PARTITION BY amendment ORDER BY original) = 1
), chain AS (
    SELECT accession, lead(accession) OVER (PARTITION BY root ORDER BY filing_date, acceptance_time NULLS LAST,
                                                       accession) AS next_version
    FROM (SELECT c.accession, c.filing_date, c.acceptance_time, coalesce(l.original, c.accession) AS root
          FROM co c LEFT JOIN links l ON l.amendment = c.accession
          WHERE NOT c.is_amendment OR l.original IS NOT NULL)
), derived AS (
    SELECT c.accession,
           l.original AS amends_accession,
           ch.next_version AS superseded_by,
           CASE WHEN NOT c.is_amendment THEN NULL
                WHEN l.rule IS NOT NULL THEN l.rule
                WHEN c.report_date IS NULL THEN 'no_report_date'
                ELSE 'no_original_loaded' END AS amend_rule
    FROM co c
    LEFT JOIN links l ON l.amendment = c.accession
    LEFT JOIN chain ch ON ch.accession = c.accession
)
SELECT * FROM derived
) d
WHERE filings.cik = $cik AND filings.accession = d.accession
  AND (filings.amends_accession IS DISTINCT FROM d.amends_accession
       OR filings.superseded_by IS DISTINCT FROM d.superseded_by
       OR filings.amend_rule IS DISTINCT FROM d.amend_rule);
