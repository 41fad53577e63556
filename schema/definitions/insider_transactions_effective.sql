-- reads: insider_filings, insider_transactions
-- Effective transactions: per amendment chain (original + its /A filings) and per table kind, the
-- lines of the latest filing that carries lines of that kind. A /A carrying no transaction lines
-- (e.g. holdings only) supersedes nothing; originals are never deleted.
CREATE OR REPLACE VIEW insider_transactions_effective AS
WITH chain AS (
    SELECT accession, coalesce(amends_accession, accession) AS chain_accession, acceptance_time, filed
    FROM insider_filings
), carriers AS (
    SELECT DISTINCT c.chain_accession, t.table_kind, c.accession, c.acceptance_time, c.filed
    FROM insider_transactions t JOIN chain c USING (accession)
), winners AS (
    SELECT chain_accession, table_kind, accession AS effective_accession,
           count(*) OVER (PARTITION BY chain_accession, table_kind) AS filings_in_chain
    FROM carriers
    QUALIFY row_number() OVER (PARTITION BY chain_accession, table_kind
                               ORDER BY (accession = chain_accession), acceptance_time DESC NULLS LAST,
                                        filed DESC NULLS LAST, accession DESC) = 1
)
SELECT t.*, w.chain_accession AS original_accession, t.accession <> w.chain_accession AS from_amendment,
       w.filings_in_chain - 1 AS superseded_filings
FROM insider_transactions t
JOIN chain c USING (accession)
JOIN winners w ON w.chain_accession = c.chain_accession AND w.table_kind = t.table_kind
              AND w.effective_accession = t.accession;
