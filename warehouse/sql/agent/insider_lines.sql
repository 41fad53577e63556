-- Claim verifier: every transaction line (both tables) of one Form 3/4/5 accession, with its issuer.
-- Reads insider_filings, insider_transactions. Grain: one line. Params: $accession.
-- reads: insider_filings, insider_transactions
-- grain: table_kind, line_number
SELECT i.accession, i.issuer_cik, i.issuer_name, i.document_type, i.filed, t.table_kind, t.line_number,
       t.transaction_date, t.transaction_code, t.shares
FROM insider_filings i
LEFT JOIN insider_transactions t ON t.accession = i.accession
WHERE i.accession = $accession
ORDER BY t.table_kind DESC, t.line_number
