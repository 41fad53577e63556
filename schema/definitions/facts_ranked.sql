-- reads: facts_ranked_as_of
-- Every fact version known now, ranked (see facts_ranked_as_of for prior value and confirmations).
-- grain: one fact version (key + accession + revision).
CREATE OR REPLACE VIEW facts_ranked AS SELECT * FROM facts_ranked_as_of(NULL);
