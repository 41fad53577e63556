-- reads: 
-- Which tag's derived quarter is the answer, said once (company_standard_facts_as_of_only and the
-- metrics refresh's 30_derived_timeline.sql order the candidates of a quarter by key, least first):
-- the tag the longer period's standard value matched (the year and its parts line up), else chain
-- order (chain_rank, then taxonomy and concept), else the earlier start of the year-to-date periods
-- (one tag's quarter from two year-to-date pairs). flags: tag_differs_from_ytd_pick when the
-- answer's tag is not the one the longer period matched.
CREATE OR REPLACE MACRO derived_quarter_pick(same_tag_as_ytd, chain_rank, taxonomy, concept, ytd_start) AS
    {'key': (NOT same_tag_as_ytd, chain_rank, taxonomy, concept, ytd_start),
     'flags': CASE WHEN same_tag_as_ytd THEN CAST([] AS VARCHAR[]) ELSE ['tag_differs_from_ytd_pick'] END};
