-- Assistant analytics, answer feedback and web analytics events (D1, binding ANALYTICS).
-- Applied by `wrangler d1 migrations apply docs-edge-analytics` (npm start and npm test do it locally).
-- Every row carries its organization and domain; none carries an IP address or an API key.

-- One row per answered question (docs_edge_core::analytics::record::AnswerRow).
CREATE TABLE answers (
  message_id TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  domain TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  day TEXT NOT NULL,
  question TEXT NOT NULL,
  question_key TEXT NOT NULL,
  answer TEXT NOT NULL,
  scores TEXT NOT NULL,
  sources TEXT NOT NULL,
  found INTEGER NOT NULL,
  backend TEXT NOT NULL,
  first_byte_ms INTEGER NOT NULL,
  total_ms INTEGER NOT NULL,
  fingerprint TEXT,
  new_thread INTEGER NOT NULL
);
CREATE INDEX answers_by_domain_time ON answers (domain, created_at);
CREATE INDEX answers_by_time ON answers (created_at);

-- One rating per answer; a later rating replaces it.
CREATE TABLE feedback (
  message_id TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  domain TEXT NOT NULL,
  rating TEXT NOT NULL CHECK (rating IN ('up', 'down')),
  comment TEXT,
  created_at INTEGER NOT NULL,
  day TEXT NOT NULL
);
CREATE INDEX feedback_by_domain_time ON feedback (domain, created_at);
CREATE INDEX feedback_by_time ON feedback (created_at);

-- Page views and searches sent by exported pages.
CREATE TABLE events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id TEXT NOT NULL,
  domain TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  day TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('pageview', 'search')),
  path TEXT NOT NULL,
  query TEXT,
  query_key TEXT,
  result_count INTEGER
);
CREATE INDEX events_by_domain_time ON events (domain, created_at);
CREATE INDEX events_by_time ON events (created_at);
