-- reads: value_exponent, same_within_rounding_at
-- same_within_rounding(a, b): a and b differ only by rounding: the more precise one, rounded to the
-- precision of the less precise one, IS the less precise one, which has at least two significant
-- digits (16982000 and 17000000: yes; 140 and 100: no; equal values: no, they do not differ).
-- The rule: same_within_rounding_at (which takes the exponents when a reader has them).
CREATE OR REPLACE MACRO same_within_rounding(a, b) AS
    same_within_rounding_at(a, b, value_exponent(a), value_exponent(b));
