-- An answer that quoted only the closest passage ("The docs don't state this directly; …"): counted
-- in the report's totals and listed with the coverage gaps (as the worker's D1 migration 0002).
ALTER TABLE answers ADD COLUMN uncertain BIGINT NOT NULL DEFAULT 0;
