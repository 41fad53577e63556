-- reads: company_observations
CREATE OR REPLACE VIEW company_history AS
WITH vals AS (
    SELECT cik, observed_at, source_document_id, 'name' AS field, name AS value FROM company_observations
    UNION ALL
    SELECT cik, observed_at, source_document_id, 'tickers', nullif(array_to_string(list_sort(tickers), ','), '')
    FROM company_observations
    UNION ALL
    SELECT cik, observed_at, source_document_id, 'exchanges', nullif(array_to_string(list_sort(exchanges), ','), '')
    FROM company_observations
), seq AS (
    SELECT *, lag(value) OVER w AS old_value, row_number() OVER w AS n
    FROM vals
    WINDOW w AS (PARTITION BY cik, field ORDER BY observed_at, source_document_id)
)
SELECT cik, field, old_value, value AS new_value, observed_at, source_document_id,
       CASE WHEN n = 1 THEN 'first_seen' ELSE 'changed' END AS change_kind
FROM seq
WHERE n = 1 OR old_value IS DISTINCT FROM value;
