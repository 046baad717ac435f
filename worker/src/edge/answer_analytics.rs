//! The assistant's analytics hook: one row per answer, written after the stream has closed (the
//! answer runs inside `wait_until`, so the write delays no byte the client is waiting for).
//!
//! Rows are batched per isolate: an answer queues its row; if no flush is running, its own
//! `wait_until` becomes the flusher and writes what is queued, `MAX_BATCH` rows per D1 batch, for at
//! most `MAX_ROUNDS` batches. Under load that is one D1 round trip in flight per isolate instead of one
//! per answer. The queue is bounded; a flusher that vanished (isolate evicted mid-flush) is taken over
//! after `STALE_FLUSH_MS`.

use std::cell::{Cell, RefCell};

use docs_edge_core::analytics::record::{AnswerFacts, AnswerRow};
use worker::Env;

use crate::shared::analytics_store::AnalyticsStore;
use crate::shared::clock::now_ms;
use crate::shared::config;
use crate::shared::error::ApiError;

const MAX_BATCH: usize = 50;
const MAX_QUEUED: usize = 2_000;
/// Batches one flusher writes before handing over, so no answer's `wait_until` runs for long; rows
/// queued after its last round go with the next answer's flush.
const MAX_ROUNDS: usize = 2;
const STALE_FLUSH_MS: u64 = 30_000;

thread_local! {
    static QUEUE: RefCell<Vec<AnswerRow>> = const { RefCell::new(Vec::new()) };
    /// When the running flush started; 0 when none runs.
    static FLUSH_STARTED_MS: Cell<u64> = const { Cell::new(0) };
}

/// Queues the answer's row and, unless another answer's flush is running, writes the queue.
pub async fn record(env: &Env, facts: AnswerFacts<'_>, request_id: &str) {
    // An operator's mistake in the switches is answered on every route; here it only means no row.
    if !config::deployment(env).is_ok_and(|d| d.features.analytics) {
        return;
    }
    let salt = config::analytics_salt(env);
    let facts = AnswerFacts {
        salt: salt.as_ref().map(|s| s.expose().as_bytes()),
        ..facts
    };
    let row = AnswerRow::new(&facts);
    let dropped = QUEUE.with(|queue| {
        let mut queue = queue.borrow_mut();
        let dropped = queue.len() >= MAX_QUEUED;
        if dropped {
            queue.remove(0);
        }
        queue.push(row);
        dropped
    });
    if dropped {
        log_failure(
            request_id,
            "analytics queue full: the oldest queued answer was dropped",
        );
    }
    let now = now_ms();
    let started = FLUSH_STARTED_MS.with(Cell::get);
    if started != 0 && now.saturating_sub(started) < STALE_FLUSH_MS {
        return;
    }
    FLUSH_STARTED_MS.with(|c| c.set(now));
    flush(env, request_id).await;
    FLUSH_STARTED_MS.with(|c| c.set(0));
}

async fn flush(env: &Env, request_id: &str) {
    let store = match AnalyticsStore::open(env) {
        Ok(store) => store,
        Err(err) => return log_error(request_id, &err),
    };
    for _ in 0..MAX_ROUNDS {
        let batch: Vec<AnswerRow> = QUEUE.with(|queue| {
            let mut queue = queue.borrow_mut();
            let take = queue.len().min(MAX_BATCH);
            queue.drain(..take).collect()
        });
        if batch.is_empty() {
            return;
        }
        if let Err(err) = store.record_answers(&batch).await {
            log_error(request_id, &err);
        }
    }
}

fn log_error(request_id: &str, err: &ApiError) {
    log_failure(
        request_id,
        err.log_detail().unwrap_or("analytics write failed"),
    );
}

fn log_failure(request_id: &str, detail: &str) {
    let line = serde_json::json!({ "event": "analytics_failed", "requestId": request_id, "error": detail });
    crate::shared::log_line::error(&line);
}
