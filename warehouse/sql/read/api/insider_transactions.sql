-- Every effective Form 3/4/5 transaction line of one issuer (grain: accession, table_kind,
-- line_number; amendments applied), with the filing's acceptance time and owners; optionally
-- transaction codes and a first transaction date.
SELECT f.issuer_cik, f.issuer_name, t.accession, f.document_type, f.filed, f.acceptance_time,
       t.table_kind, t.line_number, t.transaction_date, t.transaction_code, t.security_title, t.shares,
       t.price_per_share, t.acquired_disposed, t.shares_owned_following, t.direct_indirect,
       o.owner_names, t.from_amendment
FROM insider_transactions_effective t
JOIN insider_filings f USING (accession)
LEFT JOIN (SELECT accession, string_agg(owner_name, '; ' ORDER BY owner_number) AS owner_names
           FROM insider_owners GROUP BY accession) o USING (accession)
WHERE f.issuer_cik = $cik
  AND ($codes IS NULL OR list_contains($codes, t.transaction_code))
  AND ($since IS NULL OR t.transaction_date >= CAST($since AS DATE))
ORDER BY t.transaction_date, t.accession, t.table_kind, t.line_number;
