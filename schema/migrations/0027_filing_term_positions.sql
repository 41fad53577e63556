-- 0027 word positions in the keyword index (issue 22 item 7): filing_terms.pos lists where each term
-- stands in its item (word numbers), so a phrase's candidates are the items where its terms stand
-- at the phrase's distances (warehouse/sql/read/filing_text/search_phrase.sql) instead of every item
-- holding all of its words. Rows loaded before have pos NULL: a phrase search still finds them (by
-- their words and the text), `rebuild` gives them positions. Described in schema/columns.toml.
ALTER TABLE filing_terms ADD COLUMN pos INTEGER[];
