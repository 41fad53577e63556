-- reads:
-- fact_version_order(known_from, filed, accession, revision): the sort key of a fact's versions (the
-- one definition of version order): when each became public, then its filed date, accession and
-- revision. facts_ordered_as_of orders its windows by it; facts_current_of takes arg_max/arg_min by it.
CREATE OR REPLACE MACRO fact_version_order(known_from, filed, accession, revision) AS
    {'known_from': known_from, 'filed': filed, 'accession': accession, 'revision': revision};
