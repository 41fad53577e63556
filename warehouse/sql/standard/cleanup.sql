-- Drop the session objects refresh_metrics created.
DROP MACRO TABLE IF EXISTS same_period_pair;
DROP TABLE IF EXISTS metric_new;
DROP TABLE IF EXISTS metric_candidates;
DROP TABLE IF EXISTS sfv;
DROP TABLE IF EXISTS std_der;
DROP TABLE IF EXISTS std_rep;
DROP TABLE IF EXISTS std_cand;
