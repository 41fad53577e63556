-- 0026 text per tracked company (issue 22 item 3): a company tracked with text (`track --with-text`)
-- has the primary documents of its 10-K/10-Q/8-K filings filed on or after text_since fetched by the
-- refresh and the nightly; NULL: numbers only. Described in schema/columns.toml.
ALTER TABLE tracked_companies ADD COLUMN text_since DATE;
