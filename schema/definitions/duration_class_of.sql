-- reads: 
-- Scalar rules shared by loaders and views (one definition, used everywhere).
CREATE OR REPLACE MACRO duration_class_of(period_start, duration_days) AS
    CASE
        WHEN period_start IS NULL THEN 'instant'
        WHEN duration_days BETWEEN 80 AND 100 THEN 'quarter'
        WHEN duration_days BETWEEN 170 AND 200 THEN 'six_months'
        WHEN duration_days BETWEEN 260 AND 290 THEN 'nine_months'
        WHEN duration_days BETWEEN 350 AND 380 THEN 'annual'
        ELSE 'other'
    END;
