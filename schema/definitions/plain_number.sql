-- reads:
-- plain_number(v): an exact DECIMAL as text without trailing zeros (26974000000, 1.21).
CREATE OR REPLACE MACRO plain_number(v) AS
    CASE WHEN CAST(v AS VARCHAR) LIKE '%.%' THEN rtrim(rtrim(CAST(v AS VARCHAR), '0'), '.') ELSE CAST(v AS VARCHAR) END;
