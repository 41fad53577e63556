-- compare(): one standard concept for a fiscal year/period across companies ($ciks), one row per
-- company (USD preferred when a company reports several units). FY = the annual value or the
-- instant at the fiscal year end; Qn = the discrete quarter (tagged or derived) or the instant.
SELECT cik, fiscal_year, fiscal_period, duration_class, period_start, period_end, value, unit,
       split_part(unit, '/', 1) AS currency, taxonomy, matched_tag, tags_tried, accession, derivation,
       CAST(NULL AS VARCHAR) AS null_reason, known_from
FROM standard_facts
WHERE standard_concept = $name AND list_contains($ciks, cik) AND fiscal_year = $fy AND fiscal_period = $fp
  AND duration_class IN ('instant', CASE WHEN $fp = 'FY' THEN 'annual' ELSE 'quarter' END)
QUALIFY row_number() OVER (PARTITION BY cik ORDER BY unit = 'USD' DESC, unit, chain_rank) = 1
