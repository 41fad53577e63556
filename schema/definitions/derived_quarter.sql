-- reads: 
-- The derived-quarter rule, said once: the point-in-time standard facts
-- (company_standard_facts_as_of_only) and the metrics refresh's timeline
-- (warehouse/sql/derive/refresh/30_derived_timeline.sql) both call it. A discrete quarter is the
-- longer year-to-date value of ONE tag less the shorter one of the same tag (same cik, unit, fiscal
-- year and period_start; the pair one quarter apart: ytd_steps_one_quarter): Q2 = H1 - Q1,
-- Q3 = 9M - H1, Q4 = FY - 9M, starting the day after the shorter period ends. (Which tag's
-- derivation is the answer: derived_quarter_pick; only additive flows in a subtractable unit are
-- derived, never per-share values, ratios or instants.)
CREATE OR REPLACE MACRO derived_quarter(long_class, long_end, long_value, short_end, short_value) AS
    {'period_start': CAST(short_end + INTERVAL 1 DAY AS DATE),
     'fiscal_period': CASE long_class WHEN 'six_months' THEN 'Q2' WHEN 'nine_months' THEN 'Q3' ELSE 'Q4' END,
     'derivation': CASE long_class WHEN 'six_months' THEN 'derived_q2' WHEN 'nine_months' THEN 'derived_q3'
                   ELSE 'derived_q4' END,
     'duration_days': CAST(long_end - short_end - 1 AS INTEGER),
     'value': long_value - short_value};
