-- reads: company_tickers, source_documents
CREATE OR REPLACE VIEW tickers_current AS
SELECT cik, ticker,
       upper(replace(replace(ticker, '.', '-'), '/', '-')) AS ticker_key,
       max(title) AS title,
       max(exchange) AS exchange,
       max(source_document_id) AS source_document_id
FROM company_tickers
WHERE source_document_id IN (
    -- newest snapshot per file by SEC's Last-Modified when known, else by when it was fetched
    -- (not by load order: an older file loaded later must not become current)
    SELECT arg_max(t.source_document_id,
                   coalesce(try_strptime(d.last_modified, '%a, %d %b %Y %H:%M:%S GMT'), d.fetched_at))
    FROM (SELECT DISTINCT source_kind, source_document_id FROM company_tickers) t
    JOIN source_documents d ON d.source_document_id = t.source_document_id
    GROUP BY t.source_kind)
GROUP BY cik, ticker;
