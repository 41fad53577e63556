-- reads: insider_filings, insider_owners, insider_transactions_effective
-- Open-market purchases (P) and sales (S), one row per effective line, with owners and roles.
CREATE OR REPLACE VIEW insider_open_market AS
WITH owners AS (
    SELECT accession,
           string_agg(owner_name, '; ' ORDER BY owner_number) AS owner_names,
           list(owner_cik ORDER BY owner_number) AS owner_ciks,
           string_agg(concat_ws(', ',
               CASE WHEN is_director THEN 'Director' END,
               CASE WHEN is_officer THEN coalesce('Officer: ' || officer_title, 'Officer') END,
               CASE WHEN is_ten_percent_owner THEN '10% Owner' END,
               CASE WHEN is_other THEN coalesce('Other: ' || other_text, 'Other') END), '; ' ORDER BY owner_number)
               AS owner_roles,
           bool_or(is_director) AS any_director,
           bool_or(is_officer) AS any_officer,
           bool_or(is_ten_percent_owner) AS any_ten_percent_owner,
           count(*) AS owner_count
    FROM insider_owners GROUP BY accession
)
SELECT f.issuer_cik, f.issuer_name, f.issuer_ticker, t.accession, f.document_type, f.filed,
       f.acceptance_time, f.period_of_report, t.table_kind, t.line_number, t.transaction_date,
       t.transaction_code, CASE t.transaction_code WHEN 'P' THEN 'purchase' ELSE 'sale' END AS side,
       t.security_title, t.shares, t.price_per_share,
       CASE WHEN abs(CAST(t.shares AS DOUBLE) * CAST(t.price_per_share AS DOUBLE)) < 1e17
            THEN CAST(t.shares * t.price_per_share AS DECIMAL(38, 10)) END AS line_value,
       t.price_is_weighted_average, t.price_range_low, t.price_range_high, t.acquired_disposed,
       t.shares_owned_following, t.direct_indirect, t.nature_of_ownership, f.aff10b5one,
       o.owner_names, o.owner_ciks, o.owner_roles, o.any_director, o.any_officer, o.any_ten_percent_owner,
       o.owner_count, t.footnote_ids, t.from_amendment, t.source_document_id
FROM insider_transactions_effective t
JOIN insider_filings f USING (accession)
LEFT JOIN owners o USING (accession)
WHERE t.transaction_code IN ('P', 'S');
