-- Problems that would make a companyfacts payload unstorable, counted before anything is inserted
-- (so a bad document is rejected on its own instead of failing the whole batch). Accessions and
-- date formats were checked by the parser (pipelines.companyfacts).
SELECT count(*) FILTER (WHERE period_start > period_end)                                  AS start_after_end,
       count(*) FILTER (WHERE val_int IS NULL AND val_float IS NULL)                       AS missing_value,
       count(*) FILTER (WHERE val_float IS NOT NULL AND (isnan(val_float) OR isinf(val_float)
                        OR TRY_CAST(CAST(val_float AS VARCHAR) AS DECIMAL(38, 10)) IS NULL
                        OR CAST(TRY_CAST(CAST(val_float AS VARCHAR) AS DECIMAL(38, 10)) AS DOUBLE) <> val_float))
                                                                                       AS value_not_storable
FROM cf_arrow;
