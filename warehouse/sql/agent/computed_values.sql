-- Claim verifier: values of a standard concept the warehouse COMPUTED (derived quarters) for one
-- company and fiscal period, to recognise a computed value cited as reported. Reads standard_facts
-- (the current standard facts loads keep, read by company).
-- Params: $cik, $concept, $fy, $fp. Grain: one computed value.
-- reads: standard_facts
SELECT value, derivation, matched_tag, accession, period_start, period_end
FROM standard_facts
WHERE cik = $cik AND standard_concept = $concept AND fiscal_year = $fy AND fiscal_period = $fp
  AND derivation <> 'reported'
