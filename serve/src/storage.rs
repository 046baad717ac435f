//! `[storage]`: threads, feedback and answer analytics in SQLite (one file, WAL) or PostgreSQL
//! (several replicas share it), through sqlx's `any` driver: one set of queries, written in the SQL
//! both accept (`$n` parameters, `ON CONFLICT`, `COUNT(*) FILTER`), BIGINT and TEXT columns only.
//! The one statement that differs is the cited-pages ranking (SQLite's `json_each`, PostgreSQL's
//! `jsonb_array_elements_text`). Migrations are embedded and run at start (PostgreSQL takes an
//! advisory lock, so replicas starting together migrate once). What the worker computes in core
//! (report, CSV rows, answer rows) is computed by the same core code here.

use std::borrow::Cow;

use docs_edge_core::analytics::csv::ConversationRow;
use docs_edge_core::analytics::input::Feedback;
use docs_edge_core::analytics::range::{day_of_ms, DayRange};
use docs_edge_core::analytics::record::AnswerRow;
use docs_edge_core::analytics::report::{Bucket, DayRow, LabelCount, ReportRows, TOP_N};
use docs_edge_core::wire::thread::{
    StoredMessage, StoredSource, ThreadRecord, MAX_STORED_MESSAGES,
};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AnyPool, Row};
use tokio::sync::OnceCell;

use crate::config::Storage;

/// Rows per page of the conversations export (the worker's page size).
pub const CSV_PAGE_ROWS: i64 = 200;

/// Threads and rows carry an organization as on the worker; a self-hosted server has one.
pub const ORG_ID: &str = "self-hosted";

const MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "storage", include_str!("../migrations/0001_storage.sql")),
    (
        2,
        "uncertain answers",
        include_str!("../migrations/0002_uncertain_answers.sql"),
    ),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Sqlite,
    Postgres,
}

pub struct Store {
    pool: AnyPool,
    kind: Kind,
    migrated: OnceCell<()>,
}

/// A failed database call; the detail is for the log.
#[derive(Debug)]
pub struct StoreError(pub String);

impl From<sqlx::Error> for StoreError {
    fn from(err: sqlx::Error) -> Self {
        StoreError(format!("storage: {err}"))
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(err: sqlx::migrate::MigrateError) -> Self {
        StoreError(format!("storage migration: {err}"))
    }
}

type Result<T> = std::result::Result<T, StoreError>;

/// A SQLite URL as sqlx documents it (`sqlite:///var/lib/docs-edge/db`) opens only a file that
/// exists; the file (and its folder) is made when missing instead (`mode=rwc`), unless the URL
/// names a mode of its own or an in-memory database.
pub(crate) fn sqlite_created_when_missing(url: &str) -> Result<String> {
    let (path_part, query) = url.split_once('?').unwrap_or((url, ""));
    let path = path_part
        .trim_start_matches("sqlite:")
        .trim_start_matches("//");
    if path.is_empty()
        || path.contains(":memory:")
        || query.split('&').any(|p| p.starts_with("mode="))
    {
        return Ok(url.to_string());
    }
    if let Some(folder) = std::path::Path::new(path)
        .parent()
        .filter(|f| !f.as_os_str().is_empty())
    {
        std::fs::create_dir_all(folder).map_err(|err| {
            StoreError(format!(
                "storage.url: the SQLite file's folder {} cannot be made: {err}",
                folder.display()
            ))
        })?;
    }
    Ok(format!(
        "{url}{}mode=rwc",
        if query.is_empty() && !url.ends_with('?') {
            "?"
        } else {
            "&"
        }
    ))
}

/// One turn appended to a thread, and how many stored messages it keeps first (a regenerate).
pub struct Append<'a> {
    pub thread_id: &'a str,
    pub domain: &'a str,
    /// When false the thread must exist already.
    pub create: bool,
    pub keep: Option<usize>,
    pub now: &'a str,
    pub now_ms: u64,
    pub messages: Vec<StoredMessage>,
}

impl Store {
    /// The pool connects on first use; [`Store::ready`] runs the migrations once.
    pub fn new(storage: &Storage) -> Result<Store> {
        sqlx::any::install_default_drivers();
        let url = storage.url.expose();
        let kind = if url.starts_with("sqlite:") {
            Kind::Sqlite
        } else {
            Kind::Postgres
        };
        let url = if kind == Kind::Sqlite {
            sqlite_created_when_missing(url)?
        } else {
            url.to_string()
        };
        let url = url.as_str();
        // SQLite has one writer at a time; more connections only queue behind its lock.
        let connections = if kind == Kind::Sqlite { 4 } else { 8 };
        let pool = AnyPoolOptions::new()
            .max_connections(connections)
            .connect_lazy(url)?;
        Ok(Store {
            pool,
            kind,
            migrated: OnceCell::new(),
        })
    }

    /// The pool, its schema migrated (on first call).
    pub async fn ready(&self) -> Result<&AnyPool> {
        self.migrated
            .get_or_try_init(|| async {
                if self.kind == Kind::Sqlite {
                    // Persistent in the file: readers no longer wait for the writer.
                    sqlx::query("PRAGMA journal_mode = WAL")
                        .execute(&self.pool)
                        .await?;
                }
                let migrations = MIGRATIONS
                    .iter()
                    .map(|(version, name, sql)| {
                        Migration::new(
                            *version,
                            Cow::Borrowed(name),
                            MigrationType::Simple,
                            Cow::Borrowed(sql),
                            false,
                        )
                    })
                    .collect::<Vec<_>>();
                let migrator = Migrator {
                    migrations: Cow::Owned(migrations),
                    ignore_missing: false,
                    locking: true,
                    no_tx: false,
                };
                migrator.run(&self.pool).await?;
                Ok::<(), StoreError>(())
            })
            .await?;
        Ok(&self.pool)
    }

    /// The thread if it exists (and is `domain`'s, when given).
    pub async fn thread(
        &self,
        thread_id: &str,
        domain: Option<&str>,
    ) -> Result<Option<ThreadRecord>> {
        let pool = self.ready().await?;
        let Some(row) = sqlx::query(
            "SELECT org_id, domain, created_at, updated_at FROM threads WHERE thread_id = $1",
        )
        .bind(thread_id)
        .fetch_optional(pool)
        .await?
        else {
            return Ok(None);
        };
        let owner: String = row.try_get("domain")?;
        if domain.is_some_and(|d| d != owner) {
            return Ok(None);
        }
        let rows = sqlx::query("SELECT id, role, content, created_at, sources FROM messages WHERE thread_id = $1 ORDER BY seq")
            .bind(thread_id)
            .fetch_all(pool)
            .await?;
        let messages = rows
            .iter()
            .map(stored_message)
            .collect::<Result<Vec<_>>>()?;
        Ok(Some(ThreadRecord {
            thread_id: thread_id.to_string(),
            org_id: row.try_get("org_id")?,
            domain: owner,
            created_at: row.try_get("created_at")?,
            updated_at: row.try_get("updated_at")?,
            messages,
            // docs-edge-serve has no Turnstile.
            human_verified: false,
        }))
    }

    /// Appends turns in one transaction; false when `create` is false and the thread does not exist
    /// for `domain`. The thread's row is updated first, so concurrent appends to one thread (two
    /// replicas) wait for each other instead of colliding on sequence numbers.
    pub async fn append(&self, append: Append<'_>) -> Result<bool> {
        let pool = self.ready().await?;
        let mut tx = pool.begin().await?;
        let count = append.messages.len() as i64;
        let now_ms = append.now_ms as i64;
        let bumped = sqlx::query(
            "UPDATE threads SET next_seq = next_seq + $2, updated_at = $3, updated_ms = $4 WHERE thread_id = $1 AND domain = $5 RETURNING next_seq",
        )
        .bind(append.thread_id)
        .bind(count)
        .bind(append.now)
        .bind(now_ms)
        .bind(append.domain)
        .fetch_optional(&mut *tx)
        .await?;
        let next: i64 = match bumped {
            Some(row) => row.try_get("next_seq")?,
            None if append.create => {
                sqlx::query(
                    "INSERT INTO threads (thread_id, org_id, domain, created_at, updated_at, updated_ms, next_seq) VALUES ($1, $2, $3, $4, $4, $5, $6)",
                )
                .bind(append.thread_id)
                .bind(ORG_ID)
                .bind(append.domain)
                .bind(append.now)
                .bind(now_ms)
                .bind(count)
                .execute(&mut *tx)
                .await?;
                count
            }
            None => return Ok(false),
        };
        if let Some(keep) = append.keep {
            // Every stored message after the first `keep` goes: the regenerated question and answer.
            let seqs: Vec<i64> =
                sqlx::query("SELECT seq FROM messages WHERE thread_id = $1 ORDER BY seq")
                    .bind(append.thread_id)
                    .fetch_all(&mut *tx)
                    .await?
                    .iter()
                    .map(|r| r.try_get("seq"))
                    .collect::<std::result::Result<_, _>>()?;
            if let Some(first_dropped) = seqs.get(keep) {
                sqlx::query("DELETE FROM messages WHERE thread_id = $1 AND seq >= $2 AND seq < $3")
                    .bind(append.thread_id)
                    .bind(first_dropped)
                    .bind(next - count)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        for (i, message) in append.messages.into_iter().enumerate() {
            let message = message.bounded();
            let sources = serde_json::to_string(&message.sources).unwrap_or_else(|_| "[]".into());
            sqlx::query("INSERT INTO messages (thread_id, seq, id, role, content, created_at, sources) VALUES ($1, $2, $3, $4, $5, $6, $7)")
                .bind(append.thread_id)
                .bind(next - count + i as i64)
                .bind(message.id)
                .bind(message.role)
                .bind(message.content)
                .bind(message.created_at)
                .bind(sources)
                .execute(&mut *tx)
                .await?;
        }
        // Older turns go first so a thread's storage stays bounded (the worker's limit).
        sqlx::query(
            "DELETE FROM messages WHERE thread_id = $1 AND seq < (SELECT MIN(seq) FROM \
             (SELECT seq FROM messages WHERE thread_id = $1 ORDER BY seq DESC LIMIT $2) AS kept)",
        )
        .bind(append.thread_id)
        .bind(MAX_STORED_MESSAGES as i64)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    pub async fn record_answer(&self, row: &AnswerRow) -> Result<()> {
        sqlx::query(
            "INSERT INTO answers (message_id, thread_id, org_id, domain, created_at, day, question, question_key, answer, scores, \
             sources, found, backend, first_byte_ms, total_ms, fingerprint, new_thread, uncertain) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) ON CONFLICT (message_id) DO NOTHING",
        )
        .bind(&row.message_id)
        .bind(&row.thread_id)
        .bind(&row.org_id)
        .bind(&row.domain)
        .bind(row.created_at as i64)
        .bind(&row.day)
        .bind(&row.question)
        .bind(&row.question_key)
        .bind(&row.answer)
        .bind(&row.scores)
        .bind(&row.sources)
        .bind(i64::from(row.found))
        .bind(&row.backend)
        .bind(row.first_byte_ms as i64)
        .bind(row.total_ms as i64)
        .bind(row.fingerprint.as_deref())
        .bind(i64::from(row.new_thread))
        .bind(i64::from(row.uncertain))
        .execute(self.ready().await?)
        .await?;
        Ok(())
    }

    /// One rating per answer: a later one replaces the earlier one.
    pub async fn put_feedback(&self, feedback: &Feedback, domain: &str, now_ms: u64) -> Result<()> {
        sqlx::query(
            "INSERT INTO feedback (message_id, thread_id, org_id, domain, rating, comment, created_at, day) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
             ON CONFLICT (message_id) DO UPDATE SET rating = excluded.rating, comment = excluded.comment, \
             created_at = excluded.created_at, day = excluded.day",
        )
        .bind(&feedback.message_id)
        .bind(&feedback.thread_id)
        .bind(ORG_ID)
        .bind(domain)
        .bind(feedback.rating.as_str())
        .bind(feedback.comment.as_deref())
        .bind(now_ms as i64)
        .bind(day_of_ms(now_ms))
        .execute(self.ready().await?)
        .await?;
        Ok(())
    }

    /// The grouped reads of one report. Page views and searches are the beacon's, which posts to the
    /// service the export names, not to this server: they are reported as zero.
    pub async fn report_rows(&self, domain: &str, range: &DayRange) -> Result<ReportRows> {
        let pool = self.ready().await?;
        let (from, to) = range.bounds_ms();
        const IN_RANGE: &str = " WHERE domain = $1 AND created_at >= $2 AND created_at < $3";
        let run = |sql: String| async move {
            sqlx::query(&sql)
                .bind(domain)
                .bind(from)
                .bind(to)
                .fetch_all(pool)
                .await
        };
        let mut days = Vec::new();
        for row in run(format!(
            "SELECT day, COUNT(*) FILTER (WHERE new_thread = 1) AS conversations, COUNT(*) AS questions FROM answers{IN_RANGE} GROUP BY day"
        ))
        .await?
        {
            days.push(DayRow { day: row.try_get("day")?, conversations: count(&row, "conversations")?, questions: count(&row, "questions")?, ..DayRow::default() });
        }
        for row in run(format!(
            "SELECT day, COUNT(*) FILTER (WHERE rating = 'up') AS up, COUNT(*) FILTER (WHERE rating = 'down') AS down FROM feedback{IN_RANGE} GROUP BY day"
        ))
        .await?
        {
            days.push(DayRow { day: row.try_get("day")?, up: count(&row, "up")?, down: count(&row, "down")?, ..DayRow::default() });
        }
        let first_byte = run(format!("SELECT first_byte_ms AS value, COUNT(*) AS count FROM answers{IN_RANGE} GROUP BY first_byte_ms"))
            .await?
            .iter()
            .map(|row| Ok(Bucket { value: count(row, "value")?, count: count(row, "count")? }))
            .collect::<Result<Vec<_>>>()?;
        let unanswered = run(format!(
            "SELECT COUNT(*) AS count FROM answers{IN_RANGE} AND found = 0"
        ))
        .await?;
        let unanswered = unanswered
            .first()
            .map(|row| count(row, "count"))
            .transpose()?
            .unwrap_or(0);
        let uncertain = run(format!(
            "SELECT COUNT(*) AS count FROM answers{IN_RANGE} AND uncertain = 1"
        ))
        .await?;
        let uncertain = uncertain
            .first()
            .map(|row| count(row, "count"))
            .transpose()?
            .unwrap_or(0);
        // The label of a question is its latest wording: the row with the group's newest time.
        let questions = |filter: &str| {
            format!(
                "SELECT a.question_key AS key, a.question AS label, g.count AS count FROM \
                 (SELECT question_key, MAX(created_at) AS latest, COUNT(*) AS count FROM answers{IN_RANGE}{filter} \
                  GROUP BY question_key ORDER BY count DESC, latest DESC LIMIT {TOP_N}) AS g \
                 JOIN answers AS a ON a.question_key = g.question_key AND a.created_at = g.latest AND a.domain = $1 \
                 ORDER BY g.count DESC, g.latest DESC"
            )
        };
        let top_questions = labels(run(questions("")).await?, true)?;
        let coverage_gaps = labels(
            run(questions(" AND (found = 0 OR uncertain = 1)")).await?,
            true,
        )?;
        let pages = match self.kind {
            Kind::Sqlite => "json_each(answers.sources) AS page",
            Kind::Postgres => "jsonb_array_elements_text(answers.sources::jsonb) AS page(value)",
        };
        let cited = format!(
            "SELECT page.value AS label, MAX(created_at) AS latest, COUNT(*) AS count FROM answers, {pages}{IN_RANGE} \
             GROUP BY page.value ORDER BY count DESC, latest DESC LIMIT {TOP_N}"
        );
        let cited_pages = labels(run(cited).await?, false)?;
        Ok(ReportRows {
            days,
            first_byte,
            unanswered,
            uncertain,
            top_questions,
            coverage_gaps,
            cited_pages,
            ..ReportRows::default()
        })
    }

    /// One page of the conversations export, after the `(created_at, message_id)` cursor.
    pub async fn conversations_page(
        &self,
        domain: &str,
        range: &DayRange,
        after: Option<&(i64, String)>,
    ) -> Result<Vec<(ConversationRow, (i64, String))>> {
        let (from, to) = range.bounds_ms();
        let (after_time, after_id) = after.cloned().unwrap_or((0, String::new()));
        let rows = sqlx::query(
            "SELECT a.thread_id, a.created_at, a.question, a.answer, a.sources, f.rating, a.message_id \
             FROM answers AS a LEFT JOIN feedback AS f ON f.message_id = a.message_id \
             WHERE a.domain = $1 AND a.created_at >= $2 AND a.created_at < $3 \
             AND (a.created_at > $4 OR (a.created_at = $4 AND a.message_id > $5)) \
             ORDER BY a.created_at, a.message_id LIMIT $6",
        )
        .bind(domain)
        .bind(from)
        .bind(to)
        .bind(after_time)
        .bind(after_id)
        .bind(CSV_PAGE_ROWS)
        .fetch_all(self.ready().await?)
        .await?;
        rows.iter()
            .map(|r| {
                let created_at: i64 = r.try_get("created_at")?;
                let row = ConversationRow {
                    thread_id: r.try_get("thread_id")?,
                    created_at: created_at as u64,
                    question: r.try_get("question")?,
                    answer: r.try_get("answer")?,
                    sources: r.try_get("sources")?,
                    rating: r.try_get("rating")?,
                };
                Ok((row, (created_at, r.try_get("message_id")?)))
            })
            .collect()
    }

    /// Retention as on the worker: threads with no turn since `threads_before_ms` (none when
    /// `None`), analytics rows older than `rows_before_ms`. Answers how many went.
    pub async fn delete_expired(
        &self,
        threads_before_ms: Option<u64>,
        rows_before_ms: u64,
    ) -> Result<u64> {
        let pool = self.ready().await?;
        let mut deleted = 0;
        if let Some(cutoff) = threads_before_ms {
            let mut tx = pool.begin().await?;
            sqlx::query("DELETE FROM messages WHERE thread_id IN (SELECT thread_id FROM threads WHERE updated_ms < $1)")
                .bind(cutoff as i64)
                .execute(&mut *tx)
                .await?;
            deleted += sqlx::query("DELETE FROM threads WHERE updated_ms < $1")
                .bind(cutoff as i64)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            tx.commit().await?;
        }
        for sql in [
            "DELETE FROM answers WHERE created_at < $1",
            "DELETE FROM feedback WHERE created_at < $1",
        ] {
            deleted += sqlx::query(sql)
                .bind(rows_before_ms as i64)
                .execute(pool)
                .await?
                .rows_affected();
        }
        Ok(deleted)
    }
}

fn count(row: &AnyRow, column: &str) -> Result<u64> {
    Ok(row.try_get::<i64, _>(column)?.max(0) as u64)
}

/// `(label, count)` rows; `by_key`: one per `key` column (two rows of a group can share its newest time).
fn labels(rows: Vec<AnyRow>, by_key: bool) -> Result<Vec<LabelCount>> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for row in &rows {
        if by_key && !seen.insert(row.try_get::<String, _>("key")?) {
            continue;
        }
        out.push(LabelCount {
            label: row.try_get("label")?,
            count: count(row, "count")?,
        });
    }
    Ok(out)
}

fn stored_message(row: &AnyRow) -> Result<StoredMessage> {
    let sources: String = row.try_get("sources")?;
    Ok(StoredMessage {
        id: row.try_get("id")?,
        role: row.try_get("role")?,
        content: row.try_get("content")?,
        created_at: row.try_get("created_at")?,
        sources: serde_json::from_str::<Vec<StoredSource>>(&sources).unwrap_or_default(),
    })
}
