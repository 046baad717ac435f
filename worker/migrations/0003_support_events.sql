-- The widget's support link: how often it was shown and followed. SQLite cannot widen a CHECK in
-- place, so the table is rebuilt with the same columns and indexes.
CREATE TABLE events_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id TEXT NOT NULL,
  domain TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  day TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('pageview', 'search', 'support_shown', 'support_followed')),
  path TEXT NOT NULL,
  query TEXT,
  query_key TEXT,
  result_count INTEGER
);
INSERT INTO events_new (id, org_id, domain, created_at, day, kind, path, query, query_key, result_count)
  SELECT id, org_id, domain, created_at, day, kind, path, query, query_key, result_count FROM events;
DROP TABLE events;
ALTER TABLE events_new RENAME TO events;
CREATE INDEX events_by_domain_time ON events (domain, created_at);
CREATE INDEX events_by_time ON events (created_at);
