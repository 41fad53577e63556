-- reads: same_within_rounding_at
-- chain_pick_key(scope, additive, value_kind, value, chain_rank, top, value_e, top_e): sort key of
-- the candidate tags of one period (lowest first wins); top = the largest general-scope currency
-- flow of the period; value_e, top_e = value_exponent(value), value_exponent(top), computed once per
-- row by the caller, and only where value <> top (they are read nowhere else): same_within_rounding
-- (value, top) expanded here would say each three times, a third of the standard facts' planning
-- time. Tags of general scope (totals) before narrower ones (parts: goods_only, bank, ...); among
-- general-scope currency flows the largest value wins (several revenue tags for one period: the
-- total, never a sum), values equal to it within rounding tie and chain order decides; otherwise
-- chain order. Used by standard_facts_as_of and the metrics refresh alike.
CREATE OR REPLACE MACRO chain_pick_key(scope_, additive_, value_kind_, value_, chain_rank_, top_, value_e_, top_e_) AS
    [CASE WHEN scope_ = 'general' THEN 0 ELSE 1 END,
     CASE WHEN NOT (scope_ = 'general' AND additive_ AND value_kind_ = 'currency') THEN 0
          WHEN value_ = top_ THEN 0
          WHEN same_within_rounding_at(value_, top_, value_e_, top_e_) THEN 0
          ELSE 1 END,
     chain_rank_];
