-- Advance the sync watermark of companies whose filings through $day are held (reads and writes
-- tracked_companies); never moves one back.
UPDATE tracked_companies SET synced_through = $day, synced_load_id = $load_id
WHERE list_contains($ciks, cik) AND (synced_through IS NULL OR synced_through < $day);
