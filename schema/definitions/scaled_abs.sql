-- reads:
-- scaled_abs(v): |v| x 10^10 as an exact HUGEINT (facts.value has 10 decimals).
CREATE OR REPLACE MACRO scaled_abs(v) AS CAST(abs(v) * 10000000000 AS HUGEINT);
