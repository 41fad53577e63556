-- Claim verifier: values of a standard concept the warehouse COMPUTED (derived quarters) for one
-- company and fiscal period, to recognise a computed value cited as reported. Reads
-- company_standard_facts_as_of (now = standard_facts) of that company only.
-- Params: $cik, $concept, $fy, $fp. Grain: one computed value.
SELECT value, derivation, matched_tag, accession, period_start, period_end
FROM company_standard_facts_as_of_only([$cik], TIMESTAMP '9999-12-31 00:00:00', [$concept], NULL::VARCHAR[])
WHERE cik = $cik AND standard_concept = $concept AND fiscal_year = $fy AND fiscal_period = $fp
  AND derivation <> 'reported'
