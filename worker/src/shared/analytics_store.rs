//! The ANALYTICS D1 database, seen from the worker: the SQL for answers, feedback, web events, the
//! report's grouped reads, the conversations export and retention. Tables: `worker/migrations`.
//! Everything computed (grouping keys, hashes, percentiles, CSV) comes from `docs_edge_core::analytics`.

use docs_edge_core::analytics::csv::ConversationRow;
use docs_edge_core::analytics::input::{Event, Feedback};
use docs_edge_core::analytics::range::{day_of_ms, DayRange};
use docs_edge_core::analytics::record::{question_key, AnswerRow};
use docs_edge_core::analytics::report::{Bucket, DayRow, LabelCount, ReportRows, TOP_N};
use serde::de::DeserializeOwned;
use wasm_bindgen::JsValue;
use worker::{D1Database, D1PreparedStatement, D1Result, Env};

use crate::shared::config::ANALYTICS_BINDING;
use crate::shared::error::{ApiError, ApiResult};

/// Rows per page of the conversations export.
pub const CSV_PAGE_ROWS: u32 = 200;

pub struct AnalyticsStore {
    db: D1Database,
}

fn text(value: &str) -> JsValue {
    JsValue::from_str(value)
}

fn number(value: u64) -> JsValue {
    JsValue::from_f64(value as f64)
}

fn d1_error(err: worker::Error) -> ApiError {
    ApiError::Internal(format!("d1: {err}"))
}

fn statement(db: &D1Database, sql: &str, values: &[JsValue]) -> ApiResult<D1PreparedStatement> {
    db.prepare(sql).bind(values).map_err(d1_error)
}

fn rows<T: DeserializeOwned>(result: &D1Result) -> ApiResult<Vec<T>> {
    result.results::<T>().map_err(d1_error)
}

impl AnalyticsStore {
    pub fn open(env: &Env) -> ApiResult<AnalyticsStore> {
        Ok(AnalyticsStore {
            db: env.d1(ANALYTICS_BINDING).map_err(d1_error)?,
        })
    }

    /// Several answers' rows in one batch (one round trip).
    pub async fn record_answers(&self, rows: &[AnswerRow]) -> ApiResult<()> {
        let statements = rows
            .iter()
            .map(|row| self.answer_insert(row))
            .collect::<ApiResult<Vec<_>>>()?;
        if !statements.is_empty() {
            self.db.batch(statements).await.map_err(d1_error)?;
        }
        Ok(())
    }

    fn answer_insert(&self, row: &AnswerRow) -> ApiResult<D1PreparedStatement> {
        statement(
            &self.db,
            "INSERT OR REPLACE INTO answers (message_id, thread_id, org_id, domain, created_at, day, question, \
             question_key, answer, scores, sources, found, backend, first_byte_ms, total_ms, fingerprint, new_thread, uncertain) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
            &[
                text(&row.message_id),
                text(&row.thread_id),
                text(&row.org_id),
                text(&row.domain),
                number(row.created_at),
                text(&row.day),
                text(&row.question),
                text(&row.question_key),
                text(&row.answer),
                text(&row.scores),
                text(&row.sources),
                number(u64::from(row.found)),
                text(&row.backend),
                number(row.first_byte_ms),
                number(row.total_ms),
                row.fingerprint.as_deref().map(text).unwrap_or(JsValue::NULL),
                number(u64::from(row.new_thread)),
                number(u64::from(row.uncertain)),
            ],
        )
    }

    /// One rating per answer: a later one replaces the earlier one.
    pub async fn put_feedback(
        &self,
        feedback: &Feedback,
        org_id: &str,
        domain: &str,
        now_ms: u64,
    ) -> ApiResult<()> {
        let upsert = statement(
            &self.db,
            "INSERT INTO feedback (message_id, thread_id, org_id, domain, rating, comment, created_at, day) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) \
             ON CONFLICT (message_id) DO UPDATE SET rating = excluded.rating, comment = excluded.comment, \
             created_at = excluded.created_at, day = excluded.day",
            &[
                text(&feedback.message_id),
                text(&feedback.thread_id),
                text(org_id),
                text(domain),
                text(feedback.rating.as_str()),
                feedback.comment.as_deref().map(text).unwrap_or(JsValue::NULL),
                number(now_ms),
                text(&day_of_ms(now_ms)),
            ],
        )?;
        upsert.run().await.map_err(d1_error)?;
        Ok(())
    }

    /// All events of one beacon in one batch.
    pub async fn record_events(
        &self,
        events: &[Event],
        org_id: &str,
        domain: &str,
        now_ms: u64,
    ) -> ApiResult<()> {
        if events.is_empty() {
            return Ok(());
        }
        let day = day_of_ms(now_ms);
        let sql = "INSERT INTO events (org_id, domain, created_at, day, kind, path, query, query_key, result_count) \
                   VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
        let mut statements = Vec::with_capacity(events.len());
        for event in events {
            let (path, query, key, count) = match event {
                Event::PageView { path }
                | Event::SupportShown { path }
                | Event::SupportFollowed { path } => {
                    (path, JsValue::NULL, JsValue::NULL, JsValue::NULL)
                }
                Event::Search {
                    path,
                    query,
                    result_count,
                } => (
                    path,
                    text(query),
                    text(&question_key(query)),
                    number(u64::from(*result_count)),
                ),
            };
            let kind = event.kind();
            statements.push(statement(
                &self.db,
                sql,
                &[
                    text(org_id),
                    text(domain),
                    number(now_ms),
                    text(&day),
                    text(kind),
                    text(path),
                    query,
                    key,
                    count,
                ],
            )?);
        }
        self.db.batch(statements).await.map_err(d1_error)?;
        Ok(())
    }

    /// The grouped reads of one report, in one round trip.
    /// Only `org_id`'s rows: a domain that changed hands does not show the previous owner's.
    pub async fn report_rows(
        &self,
        domain: &str,
        org_id: &str,
        range: &DayRange,
    ) -> ApiResult<ReportRows> {
        let (from, to) = range.bounds_ms();
        let args = [
            text(domain),
            JsValue::from_f64(from as f64),
            JsValue::from_f64(to as f64),
            text(org_id),
        ];
        // Static text (concat!, not format!): the statements cost data, not code.
        macro_rules! in_range {
            () => {
                " WHERE domain = ?1 AND created_at >= ?2 AND created_at < ?3 AND org_id = ?4"
            };
        }
        macro_rules! top {
            () => {
                " ORDER BY count DESC, latest DESC LIMIT 20"
            };
        }
        const _: () = assert!(TOP_N == 20, "top!() lists TOP_N rows");
        const SQLS: [&str; 11] = [
            concat!("SELECT day, SUM(new_thread) AS conversations, COUNT(*) AS questions FROM answers", in_range!(), " GROUP BY day"),
            concat!("SELECT day, SUM(rating = 'up') AS up, SUM(rating = 'down') AS down FROM feedback", in_range!(), " GROUP BY day"),
            concat!("SELECT day, SUM(kind = 'search') AS searches, SUM(kind = 'pageview') AS page_views, SUM(kind = 'support_shown') AS support_shown, SUM(kind = 'support_followed') AS support_followed FROM events", in_range!(), " GROUP BY day"),
            concat!("SELECT first_byte_ms AS value, COUNT(*) AS count FROM answers", in_range!(), " GROUP BY first_byte_ms"),
            concat!("SELECT 'unanswered' AS label, COUNT(*) AS count FROM answers", in_range!(), " AND found = 0"),
            concat!("SELECT 'uncertain' AS label, COUNT(*) AS count FROM answers", in_range!(), " AND uncertain = 1"),
            // SQLite gives the bare `question` of the row that has MAX(created_at): the latest wording.
            concat!("SELECT question AS label, MAX(created_at) AS latest, COUNT(*) AS count FROM answers", in_range!(), " GROUP BY question_key", top!()),
            concat!("SELECT question AS label, MAX(created_at) AS latest, COUNT(*) AS count FROM answers", in_range!(), " AND (found = 0 OR uncertain = 1) GROUP BY question_key", top!()),
            concat!("SELECT page.value AS label, MAX(created_at) AS latest, COUNT(*) AS count FROM answers, json_each(answers.sources) AS page", in_range!(), " GROUP BY page.value", top!()),
            concat!("SELECT query AS label, MAX(created_at) AS latest, COUNT(*) AS count FROM events", in_range!(), " AND kind = 'search' AND result_count = 0 GROUP BY query_key", top!()),
            concat!("SELECT path AS label, MAX(created_at) AS latest, COUNT(*) AS count FROM events", in_range!(), " AND kind = 'pageview' GROUP BY path", top!()),
        ];
        let statements = SQLS
            .iter()
            .map(|sql| statement(&self.db, sql, &args))
            .collect::<ApiResult<Vec<_>>>()?;
        let results = self.db.batch(statements).await.map_err(d1_error)?;
        let [answers, feedback, events, first_byte, unanswered, uncertain, top_questions, gaps, cited, zero, views] =
            results.try_into().map_err(|_| {
                ApiError::Internal(
                    "d1: the report batch answered a different number of results".into(),
                )
            })?;
        let mut days: Vec<DayRow> = rows(&answers)?;
        days.extend(rows::<DayRow>(&feedback)?);
        days.extend(rows::<DayRow>(&events)?);
        Ok(ReportRows {
            days,
            first_byte: rows::<Bucket>(&first_byte)?,
            unanswered: rows::<LabelCount>(&unanswered)?
                .first()
                .map(|r| r.count)
                .unwrap_or(0),
            uncertain: rows::<LabelCount>(&uncertain)?
                .first()
                .map(|r| r.count)
                .unwrap_or(0),
            top_questions: rows(&top_questions)?,
            coverage_gaps: rows(&gaps)?,
            cited_pages: rows(&cited)?,
            zero_result_searches: rows(&zero)?,
            page_views: rows(&views)?,
        })
    }

    /// One page of the conversations export, after the `(created_at, message_id)` cursor.
    pub async fn conversations_page(
        &self,
        domain: &str,
        org_id: &str,
        range: &DayRange,
        after: Option<&(u64, String)>,
    ) -> ApiResult<Vec<(ConversationRow, (u64, String))>> {
        #[derive(serde::Deserialize)]
        struct Row {
            thread_id: String,
            created_at: u64,
            question: String,
            answer: String,
            sources: String,
            rating: Option<String>,
            message_id: String,
        }
        let (from, to) = range.bounds_ms();
        let (after_time, after_id) = after.cloned().unwrap_or((0, String::new()));
        let query = statement(
            &self.db,
            "SELECT a.thread_id, a.created_at, a.question, a.answer, a.sources, f.rating, a.message_id \
             FROM answers AS a LEFT JOIN feedback AS f ON f.message_id = a.message_id \
             WHERE a.domain = ?1 AND a.created_at >= ?2 AND a.created_at < ?3 \
             AND (a.created_at > ?4 OR (a.created_at = ?4 AND a.message_id > ?5)) AND a.org_id = ?7 \
             ORDER BY a.created_at, a.message_id LIMIT ?6",
            &[
                text(domain),
                JsValue::from_f64(from as f64),
                JsValue::from_f64(to as f64),
                number(after_time),
                text(&after_id),
                number(u64::from(CSV_PAGE_ROWS)),
                text(org_id),
            ],
        )?;
        let result = query.all().await.map_err(d1_error)?;
        Ok(rows::<Row>(&result)?
            .into_iter()
            .map(|r| {
                let cursor = (r.created_at, r.message_id);
                let row = ConversationRow {
                    thread_id: r.thread_id,
                    created_at: r.created_at,
                    question: r.question,
                    answer: r.answer,
                    sources: r.sources,
                    rating: r.rating,
                };
                (row, cursor)
            })
            .collect())
    }

    /// Deletes every row older than `cutoff_ms`; answers how many went.
    pub async fn delete_before(&self, cutoff_ms: u64) -> ApiResult<u64> {
        let statements = [
            "DELETE FROM answers WHERE created_at < ?1",
            "DELETE FROM feedback WHERE created_at < ?1",
            "DELETE FROM events WHERE created_at < ?1",
        ]
        .iter()
        .map(|sql| statement(&self.db, sql, &[number(cutoff_ms)]))
        .collect::<ApiResult<Vec<_>>>()?;
        let results = self.db.batch(statements).await.map_err(d1_error)?;
        let mut deleted = 0;
        for result in results {
            deleted += result
                .meta()
                .map_err(d1_error)?
                .and_then(|m| m.changes)
                .unwrap_or(0) as u64;
        }
        Ok(deleted)
    }
}
