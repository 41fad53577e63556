-- reads:
-- fact_known_from(revision, acceptance_time, filed, fetched_at): when a fact version became public
-- (the one rule; fact_versions.known_from and facts_current_of read it): its filing's true UTC
-- acceptance time when known (accession_acceptance), else the end of its filed day in New York
-- (05:00 UTC next day is never earlier than midnight EST/EDT); a value SEC re-issued later under the
-- same accession (revision > 0) is public no earlier than when we first fetched the payload that
-- carried it (fetched_at).
CREATE OR REPLACE MACRO fact_known_from(revision, acceptance_time, filed, fetched_at) AS
    CASE WHEN revision > 0
         THEN greatest(coalesce(acceptance_time, CAST(filed + INTERVAL 1 DAY + INTERVAL 5 HOUR AS TIMESTAMP)), fetched_at)
         ELSE coalesce(acceptance_time, CAST(filed + INTERVAL 1 DAY + INTERVAL 5 HOUR AS TIMESTAMP)) END;
