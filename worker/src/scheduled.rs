//! The `scheduled` handler's jobs (cron triggers in wrangler.toml). Each job logs one line with its
//! outcome; one failing does not stop the others.

use docs_edge_core::analytics::retention_cutoff_ms;
use worker::{Env, ScheduledEvent};

use crate::analytics_store::AnalyticsStore;
use crate::clock::now_ms;
use crate::config::Config;
use crate::error::ApiResult;

pub async fn run(event: &ScheduledEvent, env: &Env) {
    let config = Config::from_env(env);
    let outcome = analytics_retention(env, &config).await;
    log("analytics_retention", &event.cron(), outcome);
}

/// Deletes analytics rows older than `ANALYTICS_RETENTION_DAYS`.
async fn analytics_retention(env: &Env, config: &Config) -> ApiResult<u64> {
    let cutoff = retention_cutoff_ms(now_ms(), config.analytics_retention_days);
    AnalyticsStore::open(env)?.delete_before(cutoff).await
}

fn log(job: &str, cron: &str, outcome: ApiResult<u64>) {
    let mut line = match &outcome {
        Ok(deleted) => serde_json::json!({ "event": "scheduled", "job": job, "cron": cron, "deleted": deleted }),
        Err(err) => serde_json::json!({ "event": "scheduled", "job": job, "cron": cron, "error": err.log_detail() }),
    };
    line["wasmMemoryBytes"] = crate::memory::wasm_memory_bytes().into();
    if outcome.is_ok() {
        worker::console_log!("{line}");
    } else {
        worker::console_error!("{line}");
    }
}
