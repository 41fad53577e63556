-- Session macros of the metrics refresh (temp objects; nothing persistent is created here). The
-- rules shared with standard_facts_as_of (chain_pick_key, same_within_rounding, plain_number...)
-- are schema definitions (schema/definitions/).
-- reads: plain_number
-- creates: lineage_edge, edge, metric_key, recast_note
--
-- lineage_edge(...): THE lineage struct, defined once: one input of a metric version = one exact
-- fact version (metric_lineage's columns without metric_id and load_id). Every input list of the
-- refresh (sfv.inputs, metric_candidates.inputs) is built with it.
CREATE OR REPLACE TEMP MACRO lineage_edge(role_, step_, standard_concept_, derivation_, taxonomy_, concept_, unit_,
                                          period_start_, period_end_, accession_, revision_, value_, known_from_,
                                          input_metric_id_) AS
    {'role': CAST(role_ AS VARCHAR), 'step': CAST(step_ AS VARCHAR),
     'standard_concept': CAST(standard_concept_ AS VARCHAR), 'derivation': CAST(derivation_ AS VARCHAR),
     'taxonomy': CAST(taxonomy_ AS VARCHAR), 'concept': CAST(concept_ AS VARCHAR), 'unit': CAST(unit_ AS VARCHAR),
     'period_start': CAST(period_start_ AS DATE), 'period_end': CAST(period_end_ AS DATE),
     'accession': CAST(accession_ AS VARCHAR), 'revision': CAST(revision_ AS SMALLINT),
     'value': CAST(value_ AS DECIMAL(38, 10)), 'known_from': CAST(known_from_ AS TIMESTAMP),
     'input_metric_id': CAST(input_metric_id_ AS VARCHAR)};

-- edge(role, x, input_metric_id): the lineage edge x (a lineage_edge) in the given role of a metric.
CREATE OR REPLACE TEMP MACRO edge(role_, x, mid) AS
    lineage_edge(role_, x.step, x.standard_concept, x.derivation, x.taxonomy, x.concept, x.unit, x.period_start,
                 x.period_end, x.accession, x.revision, x.value, x.known_from, mid);

-- metric_key(...): the deterministic metric_id: the company's CIK as 8 hex digits, '-', and the md5
-- over the metric's identity, rule version and the sorted exact input fact version keys
-- (role:taxonomy:concept:unit:start:end:accession:revision). The CIK first: derived_metrics and
-- metric_lineage are clustered by company, and DuckDB's zone maps of a VARCHAR keep its first 8
-- bytes, so a lookup by id reads its company's row groups only (an md5 alone is spread over every
-- row group; the CIK in decimal, 10 digits, would lose its last two to the 8 bytes).
CREATE OR REPLACE TEMP MACRO metric_key(metric, cik, period_start, period_end, input_unit, rule_version, inputs) AS
    printf('%08x', cik) || '-' ||
    md5(concat_ws('|', metric, CAST(cik AS VARCHAR), coalesce(CAST(period_start AS VARCHAR), ''),
                  CAST(period_end AS VARCHAR), coalesce(input_unit, ''), rule_version,
                  array_to_string(list_sort(list_transform(inputs, lambda x: concat_ws(':',
                      x.role, x.taxonomy, x.concept, x.unit, coalesce(CAST(x.period_start AS VARCHAR), ''),
                      CAST(x.period_end AS VARCHAR), x.accession, CAST(x.revision AS VARCHAR)))), ',')));

-- recast_note(concept, value, accession): how a metric's flag names an input a later filing recast
-- ('revenue recast to 4,054,000,000 by 0001628280-26-007567'; whole numbers with thousands separators).
CREATE OR REPLACE TEMP MACRO recast_note(concept_, value_, accession_) AS
    concept_ || ' recast to '
    || CASE WHEN value_ = trunc(value_) THEN format('{:,}', CAST(value_ AS HUGEINT)) ELSE plain_number(value_) END
    || ' by ' || accession_;
