-- reads: fact_versions
CREATE OR REPLACE VIEW facts_ranked AS
SELECT v.*,
       row_number() OVER w AS version_number,
       count(*) OVER (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end) AS versions,
       lag(value) OVER w AS prior_value,
       lag(accession) OVER w AS prior_accession,
       lag(filed) OVER w AS prior_filed,
       first_value(value) OVER w AS first_value,
       first_value(accession) OVER w AS first_accession,
       first_value(filed) OVER w AS first_filed
FROM fact_versions v
WINDOW w AS (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end
             ORDER BY known_from, filed, accession, revision);
