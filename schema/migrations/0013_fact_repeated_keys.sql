-- 0013 fact keys that one payload lists twice under one accession (grain: cik, taxonomy, concept,
-- unit, period_start, period_end). facts keeps every such row (fact_versions numbers the later ones
-- revision 1, 2...), so such a key cannot be told current by its order alone: facts_current_of ranks
-- these keys version by version, as it does keys whose values differ, and every other key with one
-- aggregate. Kept by warehouse/load_companyfacts.py when a payload carries a repeat (the samples
-- carry none); a row for a key stored once is harmless (that key is only ranked the long way).
-- Described in schema/columns.toml.

CREATE TABLE fact_repeated_keys (
    cik          INTEGER NOT NULL,
    taxonomy     VARCHAR NOT NULL,
    concept      VARCHAR NOT NULL,
    unit         VARCHAR NOT NULL,
    period_start DATE,
    period_end   DATE NOT NULL
);

INSERT INTO fact_repeated_keys
SELECT DISTINCT cik, taxonomy, concept, unit, period_start, period_end
FROM (SELECT cik, taxonomy, concept, unit, period_start, period_end
      FROM facts
      GROUP BY cik, taxonomy, concept, unit, period_start, period_end, accession
      HAVING count(*) > 1)
ORDER BY ALL;
