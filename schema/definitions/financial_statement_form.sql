-- reads:
-- financial_statement_form(base_form): the forms that carry financial statements (and so XBRL
-- facts): 10-K, 10-Q, 20-F, 40-F and their transition reports; amendments share the base form.
CREATE OR REPLACE MACRO financial_statement_form(base_form) AS
    base_form IN ('10-K', '10-Q', '20-F', '40-F', '10-KT', '10-QT');
