-- docs-edge-serve's storage: one schema for SQLite and PostgreSQL (BIGINT and TEXT only, so the
-- `any` driver reads every column the same way on both). The answers and feedback tables are the
-- worker's (worker/migrations/0001_analytics.sql); threads and messages hold what its thread objects do.

CREATE TABLE threads (
  thread_id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  domain TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  -- Unix milliseconds of the last turn: retention deletes threads by it.
  updated_ms BIGINT NOT NULL,
  -- The sequence number the next message gets; bumped first in every append, which locks the row.
  next_seq BIGINT NOT NULL
);
CREATE INDEX threads_by_update ON threads (updated_ms);

CREATE TABLE messages (
  thread_id TEXT NOT NULL,
  seq BIGINT NOT NULL,
  id TEXT,
  role TEXT NOT NULL,
  content TEXT NOT NULL,
  created_at TEXT NOT NULL,
  -- JSON array of {id, url, title}.
  sources TEXT NOT NULL,
  PRIMARY KEY (thread_id, seq)
);

CREATE TABLE answers (
  message_id TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  domain TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  day TEXT NOT NULL,
  question TEXT NOT NULL,
  question_key TEXT NOT NULL,
  answer TEXT NOT NULL,
  scores TEXT NOT NULL,
  sources TEXT NOT NULL,
  found BIGINT NOT NULL,
  backend TEXT NOT NULL,
  first_byte_ms BIGINT NOT NULL,
  total_ms BIGINT NOT NULL,
  fingerprint TEXT,
  new_thread BIGINT NOT NULL
);
CREATE INDEX answers_by_domain_time ON answers (domain, created_at);
CREATE INDEX answers_by_time ON answers (created_at);

CREATE TABLE feedback (
  message_id TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  domain TEXT NOT NULL,
  rating TEXT NOT NULL CHECK (rating IN ('up', 'down')),
  comment TEXT,
  created_at BIGINT NOT NULL,
  day TEXT NOT NULL
);
CREATE INDEX feedback_by_domain_time ON feedback (domain, created_at);
CREATE INDEX feedback_by_time ON feedback (created_at);
