-- growth(): a standard concept's growth between two fiscal years of one company, as a fraction:
-- to / from - 1 over company_standard_facts_as_of($cik, $as_of) (the caller passes 9999-12-31 for current). Same unit and duration
-- class on both sides (USD preferred); from must be positive and taxonomies equal, else NULL.
-- reads: company_standard_facts_as_of_only
-- grain: cik
WITH v AS (
    SELECT * FROM company_standard_facts_as_of_only([$cik], CAST($as_of AS TIMESTAMP), [$concept], NULL::VARCHAR[])
    WHERE cik = $cik AND standard_concept = $concept AND fiscal_period = $fp
      AND duration_class IN ('instant', CASE WHEN $fp = 'FY' THEN 'annual' ELSE 'quarter' END)
)
SELECT t.cik, t.standard_concept AS concept, f.fiscal_year AS from_fiscal_year, t.fiscal_year AS to_fiscal_year,
       t.fiscal_period, t.unit,
       CASE WHEN f.taxonomy = t.taxonomy AND f.value > 0
            THEN CAST(round(CAST(t.value AS DOUBLE) / CAST(f.value AS DOUBLE) - 1, 10) AS DECIMAL(38, 10)) END AS value,
       CASE WHEN f.taxonomy <> t.taxonomy THEN 'taxonomy mismatch: ' || f.taxonomy || ' vs ' || t.taxonomy
            WHEN f.value = 0 THEN 'earlier value is zero'
            WHEN f.value < 0 THEN 'earlier value is negative' END AS null_reason,
       f.value AS from_value, t.value AS to_value,
       f.period_start AS from_period_start, f.period_end AS from_period_end,
       t.period_start AS to_period_start, t.period_end AS to_period_end,
       f.duration_days AS from_duration_days, t.duration_days AS to_duration_days,
       f.matched_tag AS from_matched_tag, t.matched_tag AS to_matched_tag,
       f.accession AS from_accession, t.accession AS to_accession,
       f.derivation AS from_derivation, t.derivation AS to_derivation,
       greatest(f.known_from, t.known_from) AS known_from
FROM v t JOIN v f ON f.unit = t.unit AND f.duration_class = t.duration_class
WHERE t.fiscal_year = $fy_to AND f.fiscal_year = $fy_from
ORDER BY t.unit = 'USD' DESC, t.unit
LIMIT 1
