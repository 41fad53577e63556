-- Agent tools: Form 3/4/5 transaction lines where the company is the issuer, amendment-aware
-- (insider_transactions_effective), optionally since a date and only some codes; owner names
-- attached. Reads insider_transactions_effective, insider_filings, insider_owners.
-- Grain: one transaction line.
SELECT t.accession, i.document_type, t.table_kind, t.line_number, t.transaction_date, t.transaction_code,
       t.security_title, t.shares, t.price_per_share, t.acquired_disposed, t.shares_owned_following,
       t.direct_indirect, i.filed, i.acceptance_time, t.from_amendment,
       (SELECT list(o.owner_name ORDER BY o.owner_number) FROM insider_owners o
        WHERE o.accession = t.accession) AS owner_names
FROM insider_transactions_effective t
JOIN insider_filings i ON i.accession = t.accession
WHERE i.issuer_cik = $cik
  AND ($since IS NULL OR t.transaction_date >= CAST($since AS DATE))
  AND ($codes IS NULL OR list_contains($codes, t.transaction_code))
ORDER BY t.transaction_date DESC NULLS LAST, t.accession, t.table_kind, t.line_number
LIMIT $limit
