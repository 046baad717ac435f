-- An answer that quoted only the closest passage ("The docs don't state this directly; …"): counted
-- in the report's totals and listed with the coverage gaps.
ALTER TABLE answers ADD COLUMN uncertain INTEGER NOT NULL DEFAULT 0;
