-- Fetch the text of tracked companies from $since on (reads and writes tracked_companies): opts in a
-- company already tracked too; an earlier window is kept (never shrinks what a company has asked for).
UPDATE tracked_companies SET text_since = $since
WHERE list_contains($ciks, cik) AND (text_since IS NULL OR text_since > $since);
