-- Every effective Form 3/4/5 transaction line of one issuer (grain: accession, table_kind,
-- line_number; amendments applied), newest first, with the filing's acceptance time and its owners'
-- names (a list, in the filing's order); optionally transaction codes, a first transaction date and
-- at most $limit rows (NULL: all). The notebook's insider_transactions() and the MCP tool
-- get_insider_transactions read this file.
-- reads: insider_transactions_effective, insider_filings, insider_owners
-- grain: accession, table_kind, line_number
SELECT f.issuer_cik, f.issuer_name, t.accession, f.document_type, f.filed, f.acceptance_time,
       t.table_kind, t.line_number, t.transaction_date, t.transaction_code, t.security_title, t.shares,
       t.price_per_share, t.acquired_disposed, t.shares_owned_following, t.direct_indirect,
       coalesce(o.owner_names, []) AS owner_names, t.from_amendment
FROM insider_transactions_effective t
JOIN insider_filings f USING (accession)
LEFT JOIN (SELECT accession, list(owner_name ORDER BY owner_number) AS owner_names
           FROM insider_owners  -- the issuer's filings' owners only, never every owner's aggregated
           WHERE accession IN (SELECT accession FROM insider_filings WHERE issuer_cik = $cik)
           GROUP BY accession) o USING (accession)
WHERE f.issuer_cik = $cik
  AND ($codes IS NULL OR list_contains($codes, t.transaction_code))
  AND ($since IS NULL OR t.transaction_date >= CAST($since AS DATE))
ORDER BY t.transaction_date DESC NULLS LAST, t.accession, t.table_kind, t.line_number
LIMIT $limit;
