-- reads: metric_bases_of
-- The audit of bases, every company: current derived metrics whose inputs come from different
-- filings or were recast after the filing they were taken from (the rules: metric_bases_of).
CREATE OR REPLACE VIEW metric_bases AS SELECT * FROM metric_bases_of(NULL::INTEGER[]);
