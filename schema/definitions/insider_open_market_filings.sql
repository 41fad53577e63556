-- reads: insider_open_market
-- One row per filing with open-market trades: totals and weighted average prices per side.
CREATE OR REPLACE VIEW insider_open_market_filings AS
WITH sides AS (  -- per filing and side (purchase, sale): lines, shares, value, share-weighted average price
    SELECT accession, side, count(*) AS lines, sum(shares) AS shares, sum(line_value) AS value,
           CAST(round(sum(line_value) / sum(shares) FILTER (WHERE line_value IS NOT NULL), 6) AS DECIMAL(38, 6))
               AS avg_price
    FROM insider_open_market
    GROUP BY accession, side
)
SELECT m.issuer_cik, any_value(m.issuer_name) AS issuer_name, any_value(m.issuer_ticker) AS issuer_ticker,
       m.accession, any_value(m.document_type) AS document_type, any_value(m.filed) AS filed,
       any_value(m.acceptance_time) AS acceptance_time, any_value(m.period_of_report) AS period_of_report,
       any_value(m.owner_names) AS owner_names, any_value(m.owner_roles) AS owner_roles,
       min(m.transaction_date) AS first_transaction_date, max(m.transaction_date) AS last_transaction_date,
       count(*) AS lines,
       coalesce(any_value(p.lines), 0) AS purchase_lines, any_value(p.shares) AS purchased_shares,
       any_value(p.value) AS purchase_value, any_value(p.avg_price) AS purchase_avg_price,
       coalesce(any_value(s.lines), 0) AS sale_lines, any_value(s.shares) AS sold_shares,
       any_value(s.value) AS sale_value, any_value(s.avg_price) AS sale_avg_price,
       coalesce(any_value(p.shares), 0) - coalesce(any_value(s.shares), 0) AS net_shares,
       bool_or(m.price_is_weighted_average) AS any_weighted_average_price,
       min(m.shares_owned_following) FILTER (WHERE m.table_kind = 'non_derivative') AS min_shares_owned_following
FROM insider_open_market m
LEFT JOIN sides p ON p.accession = m.accession AND p.side = 'purchase'
LEFT JOIN sides s ON s.accession = m.accession AND s.side = 'sale'
GROUP BY m.issuer_cik, m.accession;
