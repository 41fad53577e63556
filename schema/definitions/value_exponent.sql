-- reads:
-- value_exponent(v): the power of ten of v's last significant digit as published: 16982000 -> 3,
-- 17000000 -> 6, 1.21 -> -2 (an exact DECIMAL keeps no scale of its own: trailing zeros are read as
-- the filer's rounding). NULL for 0.
CREATE OR REPLACE MACRO value_exponent(v) AS
    CASE WHEN v = 0 THEN NULL
         WHEN abs(v) <> trunc(abs(v))
             THEN -length(split_part(rtrim(CAST(abs(v) AS VARCHAR), '0'), '.', 2))
         ELSE length(CAST(CAST(trunc(abs(v)) AS HUGEINT) AS VARCHAR))
              - length(rtrim(CAST(CAST(trunc(abs(v)) AS HUGEINT) AS VARCHAR), '0')) END;
