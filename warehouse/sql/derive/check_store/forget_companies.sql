-- Forget the findings of run $load_id for the companies $ciks about to be checked again (a later
-- batch of the run changed them: its findings replace theirs).
-- reads: check_company_results
-- creates: -
DELETE FROM check_company_results WHERE load_id = $load_id AND list_contains($ciks, cik)
