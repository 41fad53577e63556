-- Sort the keyword index by term (reads and writes filing_terms): its rows of one term then sit in
-- one or two row groups, whose min/max let a search's scan skip the others. Run by the loader when
-- the index has grown by a quarter since it was last sorted (warehouse/load/filing_documents.py);
-- the rows appended since are scanned whole, the sorted rest only where their terms are.
CREATE OR REPLACE TEMP TABLE filing_terms_unsorted AS SELECT * FROM filing_terms;
DELETE FROM filing_terms;
INSERT INTO filing_terms SELECT * FROM filing_terms_unsorted ORDER BY term, accession, item;
DROP TABLE filing_terms_unsorted;
