-- Append one ticker-file snapshot (registered Arrow table tick_arrow) to company_tickers
-- (parameters: the file's kind, its source document, the load run).
-- reads: tick_arrow
INSERT INTO company_tickers (cik, ticker, title, exchange, source_kind, source_document_id, load_id)
SELECT cik, ticker, title, exchange, ?, ?, ? FROM tick_arrow
