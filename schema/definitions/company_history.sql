-- reads: company_observations, companies, fiscal_calendar
-- Dated history of company identity: name, tickers and exchanges as loaded submissions payloads
-- stated them (first_seen / changed), SEC's former names with the day each stopped being used
-- (former_name), and fiscal-year-end changes seen in the company's fiscal calendar (a year end
-- that moves by more than a week, or a transition period).
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
), former AS (
    SELECT c.cik, f.name, f.from_date, f.to_date, c.name AS current_name, c.submissions_source_document_id,
           lead(f.name) OVER (PARTITION BY c.cik ORDER BY f.to_date, f.from_date) AS next_name
    FROM companies c, unnest(c.former_names) AS u(f)
    WHERE f.name IS NOT NULL
), year_ends AS (
    SELECT cik, fiscal_year, fy_start, fy_end, basis,
           lag(fy_end) OVER (PARTITION BY cik ORDER BY fiscal_year) AS prev_end
    FROM fiscal_calendar
)
SELECT cik, field, old_value, value AS new_value, observed_at, source_document_id,
       CASE WHEN n = 1 THEN 'first_seen' ELSE 'changed' END AS change_kind
FROM seq
WHERE n = 1 OR old_value IS DISTINCT FROM value
UNION ALL
SELECT cik, 'name', name, coalesce(next_name, current_name),
       CAST(coalesce(to_date, from_date) + INTERVAL 1 DAY AS TIMESTAMP), submissions_source_document_id, 'former_name'
FROM former
UNION ALL
SELECT cik, 'fiscal_year_end', strftime(prev_end, '%m%d'), strftime(fy_end, '%m%d'), CAST(fy_start AS TIMESTAMP),
       NULL, 'fiscal_year_end_changed'
FROM year_ends
WHERE prev_end IS NOT NULL
  AND (basis = 'transition'
       OR least(abs(dayofyear(fy_end) - dayofyear(prev_end)), 366 - abs(dayofyear(fy_end) - dayofyear(prev_end))) > 7);
