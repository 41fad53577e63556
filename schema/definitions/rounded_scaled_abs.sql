-- reads: scaled_abs
-- rounded_scaled_abs(v, p): |v| rounded half away from zero to 10^p, on the scale of scaled_abs.
CREATE OR REPLACE MACRO rounded_scaled_abs(v, p) AS
    (scaled_abs(v) + CAST('1' || repeat('0', CAST(p + 10 AS INTEGER)) AS HUGEINT) // 2)
    // CAST('1' || repeat('0', CAST(p + 10 AS INTEGER)) AS HUGEINT)
    * CAST('1' || repeat('0', CAST(p + 10 AS INTEGER)) AS HUGEINT);
