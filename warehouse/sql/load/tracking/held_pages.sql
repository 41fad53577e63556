-- Submissions pages already loaded, per company (reads submission_pages; grain: cik, page_name).
SELECT cik, page_name FROM submission_pages WHERE loaded AND list_contains($ciks, cik);
