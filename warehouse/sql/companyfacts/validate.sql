-- Problems that would make a companyfacts payload unstorable, counted before anything is inserted
-- (so a bad document is rejected on its own instead of failing the whole batch).
SELECT count(*) FILTER (WHERE TRY_CAST(period_end AS DATE) IS NULL)                       AS bad_period_end,
       count(*) FILTER (WHERE period_start IS NOT NULL AND TRY_CAST(period_start AS DATE) IS NULL)
                                                                                       AS bad_period_start,
       count(*) FILTER (WHERE TRY_CAST(period_start AS DATE) > TRY_CAST(period_end AS DATE)) AS start_after_end,
       count(*) FILTER (WHERE TRY_CAST(filed AS DATE) IS NULL)                            AS bad_filed,
       count(*) FILTER (WHERE val_int IS NULL AND val_float IS NULL)                       AS missing_value,
       count(*) FILTER (WHERE val_float IS NOT NULL AND (isnan(val_float) OR isinf(val_float)
                        OR TRY_CAST(CAST(val_float AS VARCHAR) AS DECIMAL(38, 10)) IS NULL
                        OR CAST(TRY_CAST(CAST(val_float AS VARCHAR) AS DECIMAL(38, 10)) AS DOUBLE) <> val_float))
                                                                                       AS value_not_storable,
       count(*) FILTER (WHERE NOT regexp_full_match(accession, '[0-9]{10}-[0-9]{2}-[0-9]{6}')) AS bad_accession
FROM cf_arrow;
