-- reads: 
CREATE OR REPLACE MACRO fiscal_period_of(period_start, period_end, duration_days, fy_start, fy_end) AS
    CASE
        WHEN fy_end IS NULL OR fy_start IS NULL THEN NULL
        WHEN duration_days BETWEEN 350 AND 380 AND abs(period_end - fy_end) <= 10 THEN 'FY'
        WHEN period_start IS NULL AND abs(period_end - fy_end) <= 3 THEN 'FY'
        ELSE 'Q' || CAST(least(greatest(round((period_end - fy_start + 1)
                                              / ((fy_end - fy_start + 1) / 4.0)), 1), 4) AS INTEGER)
    END;
