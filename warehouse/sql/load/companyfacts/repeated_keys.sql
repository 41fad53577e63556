-- The fact keys one payload lists twice (or more) under one accession (repeated_arrow: the rows whose key and
-- accession another row repeats, from warehouse/load/companyfacts.py), added to fact_repeated_keys for company $cik
-- unless already there (migration 0013: facts_current_of ranks those keys version by version).
-- reads: repeated_arrow, fact_repeated_keys. writes: fact_repeated_keys.
INSERT INTO fact_repeated_keys
SELECT DISTINCT CAST($cik AS INTEGER), r.taxonomy, r.concept, r.unit,
       CAST(r.period_start AS DATE), CAST(r.period_end AS DATE)
FROM repeated_arrow r
WHERE NOT EXISTS (SELECT 1 FROM fact_repeated_keys k
                  WHERE k.cik = $cik AND k.taxonomy = r.taxonomy AND k.concept = r.concept AND k.unit = r.unit
                    AND k.period_start IS NOT DISTINCT FROM CAST(r.period_start AS DATE)
                    AND k.period_end = CAST(r.period_end AS DATE));
