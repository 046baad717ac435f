//! The assistant's analytics hook: one row per answer, written after the stream has closed (the
//! answer runs inside `wait_until`, so the write delays no byte the client is waiting for).

use docs_edge_core::analytics::record::{AnswerFacts, AnswerRow};
use worker::Env;

use crate::analytics_store::AnalyticsStore;
use crate::config::{self, Config};

/// Stores the answer's row; failures are logged, never shown to the reader (the answer is out).
pub async fn record(env: &Env, config: &Config, facts: AnswerFacts<'_>, request_id: &str) {
    if !config.analytics {
        return;
    }
    let salt = config::text(env, "ANALYTICS_SALT");
    let facts = AnswerFacts { salt: salt.as_deref().map(str::as_bytes), ..facts };
    let row = AnswerRow::new(&facts);
    let result = match AnalyticsStore::open(env) {
        Ok(store) => store.record_answer(&row).await,
        Err(err) => Err(err),
    };
    if let Err(err) = result {
        let line = serde_json::json!({ "event": "analytics_failed", "requestId": request_id, "error": err.log_detail() });
        worker::console_error!("{line}");
    }
}
