-- reads: scaled_abs, rounded_scaled_abs
-- same_within_rounding_at(a, b, ea, eb): same_within_rounding with the values' exponents given
-- (ea = value_exponent(a), eb = value_exponent(b)), for a reader that computes them once per value
-- (a macro's arguments are substituted where they appear: value_exponent expanded a dozen times per
-- call was most of fact_restatements_of's cost). The rule is said here; same_within_rounding calls it.
CREATE OR REPLACE MACRO same_within_rounding_at(a, b, ea, eb) AS
    a IS NOT NULL AND b IS NOT NULL AND a <> 0 AND b <> 0 AND sign(a) = sign(b) AND a <> b AND (
        CASE WHEN ea >= eb
             THEN rounded_scaled_abs(b, ea) = scaled_abs(a) AND abs(a) >= 10 * pow(10, ea)
             ELSE rounded_scaled_abs(a, eb) = scaled_abs(b) AND abs(b) >= 10 * pow(10, eb)
        END);
