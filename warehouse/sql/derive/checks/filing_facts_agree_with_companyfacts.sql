-- check: filing_facts_agree_with_companyfacts: every non-dimensional numeric fact of a filing's inline
-- XBRL (filing_facts) equals the companyfacts version of the same accession (facts): same taxonomy,
-- concept, unit and period. Compared only for filings companyfacts has (an accession present in facts)
-- and concepts of the taxonomies companyfacts carries (concepts): SEC's companyfacts leaves out the
-- company's own extension concepts (aapl:..., nvda:...) and every dimensional fact, its one known
-- difference, so those are not disagreements. Consistent duplicates of different precision are one
-- filing fact, the most precise (as companyfacts keeps it); an inconsistent duplicate is a row per value,
-- so the value companyfacts does not have is listed. Inline-XBRL documents only (kind filing_document):
-- a Financial Statement Data Set's values (kind fsds_filing) carry SEC's month-end-rounded dates, so they
-- are compared within that rounding by tests/warehouse/load/test_fsds_load.py, not here.
-- disagreement: value_differs (no companyfacts version of the accession has the filing's value),
-- not_in_companyfacts (the filing tags it, companyfacts has no such fact for that accession),
-- not_in_filing (companyfacts has it for the accession, the filing's document does not).
-- tolerance: none: both values are exact as filed, so equal means equal.
-- grain of offending rows: (cik, accession, taxonomy, concept, unit, period_start, period_end, disagreement).
-- severity = |difference| / |companyfacts value| for value_differs, 1 for a missing fact.
-- input: check_facts = standard_facts of the companies being checked (staged by warehouse.metrics).
-- reads: check_facts, filing_facts, facts, concepts, source_documents
WITH companies AS (SELECT DISTINCT cik FROM check_facts),
filed AS (
    SELECT DISTINCT f.cik, f.accession FROM facts f
    WHERE f.cik IN (SELECT cik FROM companies)
      AND f.accession IN (SELECT ff.accession FROM filing_facts ff JOIN source_documents d USING (source_document_id)
                          WHERE d.kind = 'filing_document' AND ff.cik IN (SELECT cik FROM companies))
),
ff AS (
    SELECT ff.cik, ff.accession, ff.taxonomy, split_part(ff.concept, ':', 2) AS concept, ff.unit, ff.period_start,
           ff.period_end, ff.value, ff.element_id
    FROM filing_facts ff JOIN filed USING (cik, accession)
    WHERE ff.fact_kind = 'numeric' AND cardinality(ff.dimensions) = 0 AND ff.value IS NOT NULL
      AND ff.taxonomy IN (SELECT DISTINCT taxonomy FROM concepts)
),
cf AS (
    SELECT f.cik, f.accession, f.taxonomy, f.concept, f.unit, f.period_start, f.period_end, list(DISTINCT f.value) AS versions
    FROM facts f JOIN filed USING (cik, accession)
    GROUP BY ALL
),
joined AS (
    SELECT coalesce(ff.cik, cf.cik) AS cik, coalesce(ff.accession, cf.accession) AS accession,
           coalesce(ff.taxonomy, cf.taxonomy) AS taxonomy, coalesce(ff.concept, cf.concept) AS concept,
           coalesce(ff.unit, cf.unit) AS unit, coalesce(ff.period_start, cf.period_start) AS period_start,
           coalesce(ff.period_end, cf.period_end) AS period_end, ff.value AS filing_value,
           cf.versions AS companyfacts_values, ff.element_id,
           CASE WHEN cf.versions IS NULL THEN 'not_in_companyfacts'
                WHEN ff.value IS NULL THEN 'not_in_filing'
                WHEN NOT list_contains(cf.versions, ff.value) THEN 'value_differs' END AS disagreement
    FROM ff FULL JOIN cf ON ff.cik = cf.cik AND ff.accession = cf.accession AND ff.taxonomy = cf.taxonomy
        AND ff.concept = cf.concept AND ff.unit = cf.unit AND ff.period_end = cf.period_end
        AND ff.period_start IS NOT DISTINCT FROM cf.period_start
)
SELECT *, CASE WHEN disagreement = 'value_differs'
               THEN CAST(abs(filing_value - companyfacts_values[1]) AS DOUBLE)
                    / greatest(abs(CAST(companyfacts_values[1] AS DOUBLE)), 1)
               ELSE 1.0 END AS severity
FROM joined
WHERE disagreement IS NOT NULL
