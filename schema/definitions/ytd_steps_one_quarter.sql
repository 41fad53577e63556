-- reads: 
-- Which two year-to-date periods of one tag a discrete quarter is derived from (one quarter apart;
-- the quarter itself: derived_quarter), shared by company_standard_facts_as_of_only and the metrics
-- refresh (warehouse/sql/derive/refresh/30_derived_timeline.sql).
CREATE OR REPLACE MACRO ytd_steps_one_quarter(long_class, short_class, long_end, short_end) AS
    ((long_class = 'six_months' AND short_class = 'quarter')
     OR (long_class = 'nine_months' AND short_class = 'six_months')
     OR (long_class = 'annual' AND short_class = 'nine_months'))
    AND long_end - short_end - 1 BETWEEN 80 AND 100;
