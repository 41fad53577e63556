-- Session helpers for refresh_metrics (temp objects; nothing persistent is created here).
-- edge(role, x, input_metric_id): one lineage edge from a standard-fact input element x.
CREATE OR REPLACE TEMP MACRO edge(role_, x, mid) AS
    {'role': role_, 'step': x.step, 'standard_concept': x.standard_concept, 'derivation': x.derivation,
     'taxonomy': x.taxonomy, 'concept': x.concept, 'unit': x.unit, 'period_start': x.period_start,
     'period_end': x.period_end, 'accession': x.accession, 'revision': x.revision, 'value': x.value, 'known_from': x.known_from,
     'input_metric_id': CAST(mid AS VARCHAR)};

-- metric_key(...): the deterministic metric_id: md5 over the metric's identity, rule version and
-- the sorted exact input fact version keys (role:taxonomy:concept:unit:start:end:accession).
CREATE OR REPLACE TEMP MACRO metric_key(metric, cik, period_start, period_end, input_unit, rule_version, inputs) AS
    md5(concat_ws('|', metric, CAST(cik AS VARCHAR), coalesce(CAST(period_start AS VARCHAR), ''),
                  CAST(period_end AS VARCHAR), coalesce(input_unit, ''), rule_version,
                  array_to_string(list_sort(list_transform(inputs, x -> concat_ws(':',
                      x.role, x.taxonomy, x.concept, x.unit, coalesce(CAST(x.period_start AS VARCHAR), ''),
                      CAST(x.period_end AS VARCHAR), x.accession, CAST(x.revision AS VARCHAR)))), ',')));

CREATE OR REPLACE TEMP TABLE metric_candidates (
    metric         VARCHAR,
    cik            INTEGER,
    fiscal_year    INTEGER,
    fiscal_period  VARCHAR,
    duration_class VARCHAR,
    period_start   DATE,
    period_end     DATE,
    value          DECIMAL(38, 10),
    unit           VARCHAR,
    input_unit     VARCHAR,
    taxonomy       VARCHAR,
    derivation     VARCHAR,
    formula        VARCHAR,
    rule_version   VARCHAR,
    known_from     TIMESTAMP,
    null_reason    VARCHAR,
    flags          VARCHAR[],
    inputs         STRUCT(role VARCHAR, step VARCHAR, standard_concept VARCHAR, derivation VARCHAR,
                          taxonomy VARCHAR, concept VARCHAR, unit VARCHAR, period_start DATE, period_end DATE,
                          accession VARCHAR, revision SMALLINT, value DECIMAL(38, 10), known_from TIMESTAMP,
                          input_metric_id VARCHAR)[]
);
