-- reads: facts, fact_repeated_keys, accession_acceptance, source_documents, fact_known_from, fact_revision, fact_version_order
-- The current version of every fact key of the companies listed in ciks (NULL = every company),
-- computed from all their versions: the one definition of facts_current's rows (loads store them in
-- facts_current_rows for the companies they changed, schema/stored/facts_current_rows.sql;
-- the view facts_current reads that table). The company filter is applied where facts are read
-- (the range test first: row groups whose cik range misses the list are skipped).
-- The bookkeeping is facts_ranked_as_of's for the key's last version, found with as little work as
-- the key needs (late materialisation: keys, order and row ids only; the current and first
-- versions' columns are read back by row id at the end):
-- * a key whose versions all carry ONE value, each under its own accession (most keys: one version,
--   or the same value re-filed), needs no ranking: every revision is 0 (a load stores a value under
--   an accession already stored only when it differs, and fact_repeated_keys lists the keys one
--   payload carries twice under one accession), its last version in fact_version_order is the
--   current one, the first is where the value was first filed, every later one a confirmation;
-- * the other keys (a value changed, or an accession carries the key twice) are ranked version by
--   version as facts_ordered_as_of does (fact_revision, fact_known_from, fact_version_order): the
--   current run of equal values starts at the key's last version whose value differs from the one
--   before it; that version's predecessor is the prior value, it is the value's first filing, and
--   the versions since it are confirmations. restated = there is a prior value.
-- tests/warehouse/test_companyfacts_load.py checks these rows against facts_ranked's.
CREATE OR REPLACE MACRO facts_current_of(ciks) AS TABLE
WITH f AS (  -- the companies' versions: keys, value, order and row id
    SELECT f.rowid AS rid, f.cik, f.taxonomy, f.concept, f.unit, f.period_start, f.period_end, f.value,
           f.accession, f.filed, fact_known_from(0, a.acceptance_time, f.filed, NULL) AS known_from
    FROM facts f LEFT JOIN accession_acceptance a ON a.accession = f.accession
    WHERE ciks IS NULL OR (f.cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, f.cik))
),
k AS (  -- per key: its versions, whether they need ranking, and (if not) its last and first version
    SELECT g.* EXCLUDE (moved), g.moved OR r.cik IS NOT NULL AS ranked
    FROM (SELECT cik, taxonomy, concept, unit, period_start, period_end, count(*) AS versions,
                 min(value) <> max(value) AS moved,
                 arg_max({'rid': rid, 'known_from': known_from},
                         fact_version_order(known_from, filed, accession, 0)) AS last,
                 arg_min(rid, fact_version_order(known_from, filed, accession, 0)) AS first_rid
          FROM f GROUP BY ALL) g
    LEFT JOIN (SELECT * FROM fact_repeated_keys
               WHERE ciks IS NULL OR (cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, cik))) r
      ON r.cik = g.cik AND r.taxonomy = g.taxonomy AND r.concept = g.concept AND r.unit = g.unit
     AND r.period_start IS NOT DISTINCT FROM g.period_start AND r.period_end = g.period_end
),
rv AS (  -- every version of the keys to rank, as fact_versions has it
    SELECT x.*, fact_known_from(x.revision, a.acceptance_time, x.filed, d.fetched_at) AS known_from
    FROM (SELECT f.rowid AS rid, f.cik, f.taxonomy, f.concept, f.unit, f.period_start, f.period_end, f.value,
                 f.accession, f.filed, f.source_document_id,
                 fact_revision(f.cik, f.taxonomy, f.concept, f.unit, f.period_start, f.period_end, f.accession,
                               f.payload_vintage, f.source_document_id) AS revision
          FROM facts f
          SEMI JOIN (SELECT * FROM k WHERE ranked) r
            ON r.cik = f.cik AND r.taxonomy = f.taxonomy AND r.concept = f.concept AND r.unit = f.unit
           AND r.period_start IS NOT DISTINCT FROM f.period_start AND r.period_end = f.period_end
          WHERE ciks IS NULL OR (f.cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, f.cik))) x
    LEFT JOIN accession_acceptance a ON a.accession = x.accession
    LEFT JOIN source_documents d ON d.source_document_id = x.source_document_id
),
o AS (
    SELECT rid, cik, taxonomy, concept, unit, period_start, period_end, value, accession, filed, known_from,
           row_number() OVER w AS version_number,
           lag(value) OVER w AS lag_value, lag(accession) OVER w AS lag_accession, lag(filed) OVER w AS lag_filed
    FROM rv
    WINDOW w AS (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end
                 ORDER BY fact_version_order(known_from, filed, accession, revision))
),
rk AS (  -- per ranked key: current and first version and the start of the current run of equal values
    SELECT cik, taxonomy, concept, unit, period_start, period_end, count(*) AS versions,
           arg_max(rid, version_number) AS last_rid, arg_max(known_from, version_number) AS last_known_from,
           arg_min(rid, version_number) AS first_rid,
           arg_max({'prior_value': lag_value, 'prior_accession': lag_accession, 'prior_filed': lag_filed,
                    'accession': accession, 'filed': filed, 'version_number': version_number},
                   version_number) FILTER (WHERE lag_value IS DISTINCT FROM value) AS s
    FROM o GROUP BY ALL
),
cur AS (  -- per key: current and first version (row ids) and the bookkeeping
    SELECT versions, last.rid AS last_rid, last.known_from AS last_known_from, first_rid,
           CAST(versions - 1 AS INTEGER) AS confirmations,
           false AS restated, NULL::VARCHAR AS value_first_accession, NULL::DATE AS value_first_filed,
           NULL::DECIMAL(38, 10) AS prior_value, NULL::VARCHAR AS prior_accession, NULL::DATE AS prior_filed
    FROM k WHERE NOT ranked
    UNION ALL
    SELECT versions, last_rid, last_known_from, first_rid, CAST(versions - s.version_number AS INTEGER),
           s.prior_value IS NOT NULL, s.accession, s.filed, s.prior_value, s.prior_accession, s.prior_filed
    FROM rk
)
SELECT r.cik, r.taxonomy, r.concept, r.unit, r.period_start, r.period_end, r.value,
       r.accession, r.form, r.filed, c.last_known_from AS known_from, r.frame, r.filing_fy, r.filing_fp,
       r.fiscal_year, r.fiscal_period, r.duration_days, r.duration_class,
       c.versions, c.confirmations, c.restated,
       coalesce(c.value_first_accession, v.accession) AS value_first_accession,
       coalesce(c.value_first_filed, v.filed) AS value_first_filed,
       c.prior_value, c.prior_accession, c.prior_filed,
       v.value AS first_value, v.accession AS first_accession, v.filed AS first_filed,
       r.source_document_id, r.load_id
FROM cur c
JOIN (SELECT rowid AS rid, * FROM facts
      WHERE ciks IS NULL OR (cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, cik))) r
  ON r.rid = c.last_rid
JOIN (SELECT rowid AS rid, value, accession, filed FROM facts
      WHERE ciks IS NULL OR (cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, cik))) v
  ON v.rid = c.first_rid;
