//! The `scheduled` handler's jobs (cron triggers in wrangler.toml). Each job logs one line with its
//! outcome; one failing does not stop the others.

use docs_edge_core::analytics::retention_cutoff_ms;
use docs_edge_core::platform::store_sweep::FILE_IN_FLIGHT_MS;
use worker::{Env, ScheduledEvent};

use crate::edge::builder_client;
use crate::shared::analytics_store::AnalyticsStore;
use crate::shared::builder_orders::SweepOrder;
use crate::shared::clock::now_ms;
use crate::shared::config::{test_only, Config, KV_BINDING};
use crate::shared::error::ApiResult;
use crate::shared::random::random_id;

/// R2 list pages one run looks at, of the most keys a list page holds; a longer sweep resumes after
/// the last key it looked at.
const SWEEP_PAGES_PER_RUN: usize = 20;
const SWEEP_PAGE_KEYS: u32 = 1000;
/// The last key a run looked at (listings start after it, not at an R2 cursor, so that a run can
/// also stop inside a page: `crate::builder::sweep::file_stores`'s budget).
const SWEEP_CURSOR_KEY: &str = "sweep:r2-cursor";

pub async fn run(event: &ScheduledEvent, env: &Env) {
    let config = Config::from_env(env);
    let outcome = analytics_retention(env, &config).await;
    log("analytics_retention", &event.cron(), outcome);
    let outcome = storage_retention(env, &config).await;
    log("storage_retention", &event.cron(), outcome);
}

/// Has the builder sweep R2 (`crate::builder::sweep`): unreferenced published versions, export
/// bundles and leftover parts past their retention, and files of sites' stores no kept version refers
/// to, at most [`SWEEP_PAGES_PER_RUN`] list pages per run, resuming where the last run stopped (kept
/// in KV). Returns the number of objects deleted.
async fn storage_retention(env: &Env, config: &Config) -> ApiResult<u64> {
    let kv = env.kv(KV_BINDING)?;
    let (page_keys, pages) =
        test_only::sweep_pages(env).unwrap_or((SWEEP_PAGE_KEYS, SWEEP_PAGES_PER_RUN));
    let order = SweepOrder {
        run: random_id("", 6)?,
        publish_retention_days: config.publish_retention_days,
        export_retention_days: config.export_retention_days,
        file_in_flight_ms: test_only::site_file_in_flight(env)
            .map_or(FILE_IN_FLIGHT_MS, |d| d.as_millis() as u64),
        hosted_keep_retired_ms: test_only::hosted_keep_retired_ms(env),
        page_keys,
        pages,
        after: kv.get(SWEEP_CURSOR_KEY).text().await?,
    };
    let swept = builder_client::sweep(env, &order).await?;
    match &swept.after {
        Some(key) => kv.put(SWEEP_CURSOR_KEY, key)?.execute().await?,
        None => kv.delete(SWEEP_CURSOR_KEY).await?,
    }
    Ok(swept.deleted)
}

/// Deletes analytics rows older than `ANALYTICS_RETENTION_DAYS`.
async fn analytics_retention(env: &Env, config: &Config) -> ApiResult<u64> {
    let cutoff = retention_cutoff_ms(now_ms(), config.analytics_retention_days);
    AnalyticsStore::open(env)?.delete_before(cutoff).await
}

fn log(job: &str, cron: &str, outcome: ApiResult<u64>) {
    let mut line = match &outcome {
        Ok(deleted) => {
            serde_json::json!({ "event": "scheduled", "job": job, "cron": cron, "deleted": deleted })
        }
        Err(err) => {
            serde_json::json!({ "event": "scheduled", "job": job, "cron": cron, "error": err.log_detail() })
        }
    };
    line["wasmMemoryBytes"] = crate::shared::memory::wasm_memory_bytes().into();
    if outcome.is_ok() {
        crate::shared::log_line::info(&line);
    } else {
        crate::shared::log_line::error(&line);
    }
}
