-- Forget the stored current standard facts of the companies $ciks (store_standard_facts.sql then
-- inserts them computed again from their current facts). The range of $ciks is tested first: the
-- scan skips other companies' row groups (standard_facts_rows is sorted by company).
-- reads: standard_facts_rows
-- creates: -
DELETE FROM standard_facts_rows
WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik)
