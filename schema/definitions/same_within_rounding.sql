-- reads: value_exponent, scaled_abs, rounded_scaled_abs
-- same_within_rounding(a, b): a and b differ only by rounding: the more precise one, rounded to the
-- precision of the less precise one, IS the less precise one, which has at least two significant
-- digits (16982000 and 17000000: yes; 140 and 100: no; equal values: no, they do not differ).
CREATE OR REPLACE MACRO same_within_rounding(a, b) AS
    a IS NOT NULL AND b IS NOT NULL AND a <> 0 AND b <> 0 AND sign(a) = sign(b) AND a <> b AND (
        CASE WHEN value_exponent(a) >= value_exponent(b)
             THEN rounded_scaled_abs(b, value_exponent(a)) = scaled_abs(a) AND abs(a) >= 10 * pow(10, value_exponent(a))
             ELSE rounded_scaled_abs(a, value_exponent(b)) = scaled_abs(b) AND abs(b) >= 10 * pow(10, value_exponent(b))
        END);
