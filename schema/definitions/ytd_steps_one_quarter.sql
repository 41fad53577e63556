-- reads: 
-- The rules for deriving a discrete quarter by subtraction, shared by standard_facts_as_of and
-- the metrics refresh (warehouse/sql/standard/derived_timeline.sql): one definition each.
CREATE OR REPLACE MACRO ytd_steps_one_quarter(long_class, short_class, long_end, short_end) AS
    ((long_class = 'six_months' AND short_class = 'quarter')
     OR (long_class = 'nine_months' AND short_class = 'six_months')
     OR (long_class = 'annual' AND short_class = 'nine_months'))
    AND long_end - short_end - 1 BETWEEN 80 AND 100;
