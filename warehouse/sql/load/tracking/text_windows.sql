-- Companies tracked with text among $ciks and the day their text is fetched from (reads
-- tracked_companies; grain: cik).
SELECT cik, text_since FROM tracked_companies WHERE text_since IS NOT NULL AND list_contains($ciks, cik);
