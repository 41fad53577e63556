-- Session macros of the metrics refresh (temp objects; nothing persistent is created here).
-- reads: -
-- creates: lineage_edge, edge, metric_key, value_exponent, scaled_abs, rounded_scaled_abs, same_within_rounding, chain_pick_key, plain_number
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

-- metric_key(...): the deterministic metric_id: md5 over the metric's identity, rule version and
-- the sorted exact input fact version keys (role:taxonomy:concept:unit:start:end:accession:revision).
CREATE OR REPLACE TEMP MACRO metric_key(metric, cik, period_start, period_end, input_unit, rule_version, inputs) AS
    md5(concat_ws('|', metric, CAST(cik AS VARCHAR), coalesce(CAST(period_start AS VARCHAR), ''),
                  CAST(period_end AS VARCHAR), coalesce(input_unit, ''), rule_version,
                  array_to_string(list_sort(list_transform(inputs, x -> concat_ws(':',
                      x.role, x.taxonomy, x.concept, x.unit, coalesce(CAST(x.period_start AS VARCHAR), ''),
                      CAST(x.period_end AS VARCHAR), x.accession, CAST(x.revision AS VARCHAR)))), ',')));

-- value_exponent(v): the power of ten of v's last significant digit as published: 16982000 -> 3,
-- 17000000 -> 6, 1.21 -> -2 (an exact DECIMAL keeps no scale of its own: trailing zeros are read as
-- the filer's rounding). NULL for 0.
CREATE OR REPLACE TEMP MACRO value_exponent(v) AS
    CASE WHEN v = 0 THEN NULL
         WHEN abs(v) <> trunc(abs(v))
             THEN -length(split_part(rtrim(CAST(abs(v) AS VARCHAR), '0'), '.', 2))
         ELSE length(CAST(CAST(trunc(abs(v)) AS HUGEINT) AS VARCHAR))
              - length(rtrim(CAST(CAST(trunc(abs(v)) AS HUGEINT) AS VARCHAR), '0')) END;

-- scaled_abs(v): |v| x 10^10 as an exact HUGEINT (facts.value has 10 decimals);
-- rounded_scaled_abs(v, p): |v| rounded half away from zero to 10^p, on the same scale.
CREATE OR REPLACE TEMP MACRO scaled_abs(v) AS CAST(abs(v) * 10000000000 AS HUGEINT);
CREATE OR REPLACE TEMP MACRO rounded_scaled_abs(v, p) AS
    (scaled_abs(v) + CAST('1' || repeat('0', CAST(p + 10 AS INTEGER)) AS HUGEINT) // 2)
    // CAST('1' || repeat('0', CAST(p + 10 AS INTEGER)) AS HUGEINT)
    * CAST('1' || repeat('0', CAST(p + 10 AS INTEGER)) AS HUGEINT);

-- same_within_rounding(a, b): a and b differ only by rounding: the more precise one, rounded to the
-- precision of the less precise one, IS the less precise one, which has at least two significant
-- digits (16982000 and 17000000: yes; 140 and 100: no).
CREATE OR REPLACE TEMP MACRO same_within_rounding(a, b) AS
    a IS NOT NULL AND b IS NOT NULL AND a <> 0 AND b <> 0 AND sign(a) = sign(b) AND a <> b AND (
        CASE WHEN value_exponent(a) >= value_exponent(b)
             THEN rounded_scaled_abs(b, value_exponent(a)) = scaled_abs(a) AND abs(a) >= 10 * pow(10, value_exponent(a))
             ELSE rounded_scaled_abs(a, value_exponent(b)) = scaled_abs(b) AND abs(b) >= 10 * pow(10, value_exponent(b))
        END);

-- chain_pick_key(scope, additive, value_kind, value, chain_rank, top): sort key of the candidates
-- of one period (lowest first wins); top = the largest general-scope currency flow of the period.
-- Tags of general scope (totals) before narrower ones (parts: goods_only, bank, ...); among
-- general-scope currency flows the largest value wins (several revenue tags for one period: the
-- total, never a sum), values equal to it within rounding tie and chain order decides; otherwise
-- chain order.
CREATE OR REPLACE TEMP MACRO chain_pick_key(scope_, additive_, value_kind_, value_, chain_rank_, top_) AS
    [CASE WHEN scope_ = 'general' THEN 0 ELSE 1 END,
     CASE WHEN NOT (scope_ = 'general' AND additive_ AND value_kind_ = 'currency') THEN 0
          WHEN value_ = top_ THEN 0
          WHEN same_within_rounding(value_, top_) THEN 0
          ELSE 1 END,
     chain_rank_];

-- plain_number(v): an exact DECIMAL without its trailing zeros, as text (26974000000, 1.21).
CREATE OR REPLACE TEMP MACRO plain_number(v) AS
    CASE WHEN CAST(v AS VARCHAR) LIKE '%.%' THEN rtrim(rtrim(CAST(v AS VARCHAR), '0'), '.') ELSE CAST(v AS VARCHAR) END;
