//! The `scheduled` handler's jobs (cron triggers in wrangler.toml). Each job logs one line with its
//! outcome; one failing does not stop the others.

use docs_edge_core::analytics::retention_cutoff_ms;
use docs_edge_core::platform::retention::{site_domain, sweep_decision, Decision, Live, Retention};
use worker::{Env, ScheduledEvent};

use crate::analytics_store::AnalyticsStore;
use crate::clock::now_ms;
use crate::config::{test_only, Config, KV_BINDING};
use crate::error::ApiResult;
use crate::sites;
use crate::storage;

/// R2 list pages one run looks at, of the most keys a list page holds; a longer sweep resumes from
/// its cursor.
const SWEEP_PAGES_PER_RUN: usize = 20;
const SWEEP_PAGE_KEYS: u32 = 1000;
const SWEEP_CURSOR_KEY: &str = "sweep:r2-cursor";

pub async fn run(event: &ScheduledEvent, env: &Env) {
    let config = Config::from_env(env);
    let outcome = analytics_retention(env, &config).await;
    log("analytics_retention", &event.cron(), outcome);
    let outcome = storage_retention(env, &config).await;
    log("storage_retention", &event.cron(), outcome);
}

/// Deletes unreferenced published versions, export bundles and leftover parts past their retention
/// (`core::retention`), at most [`SWEEP_PAGES_PER_RUN`] list pages per run, resuming from a cursor
/// kept in KV. Returns the number of objects deleted.
async fn storage_retention(env: &Env, config: &Config) -> ApiResult<u64> {
    let bucket = storage::bucket(env)?;
    let kv = env.kv(KV_BINDING)?;
    let retention = Retention { publish_days: config.publish_retention_days, export_days: config.export_retention_days };
    let now = now_ms();
    let mut cursor = kv.get(SWEEP_CURSOR_KEY).text().await?;
    let mut deleted = 0u64;
    // The live version of the domain whose keys are being listed (keys come in order).
    let mut live: Option<(String, Option<(String, u64)>)> = None;
    let (page_keys, pages) = test_only::sweep_pages(env).unwrap_or((SWEEP_PAGE_KEYS, SWEEP_PAGES_PER_RUN));
    for _ in 0..pages {
        let mut list = bucket.list().limit(page_keys);
        if let Some(at) = &cursor {
            list = list.cursor(at.clone());
        }
        let page = list.execute().await?;
        let mut doomed = Vec::new();
        for object in page.objects() {
            let key = object.key();
            let live_id = match site_domain(&key) {
                Some(domain) => {
                    if live.as_ref().is_none_or(|(seen, _)| seen != domain) {
                        live = Some((domain.to_string(), sites::live_pointer(&bucket, domain).await?));
                    }
                    live.as_ref().and_then(|(_, pointer)| pointer.as_ref())
                }
                None => None,
            };
            let live_version = live_id.map(|(publish_id, since_ms)| Live { publish_id, since_ms: *since_ms });
            if sweep_decision(&key, object.uploaded().as_millis(), now, live_version, retention) == Decision::Delete {
                doomed.push(key);
            }
        }
        if !doomed.is_empty() {
            deleted += doomed.len() as u64;
            bucket.delete_multiple(doomed).await?;
        }
        cursor = if page.truncated() { page.cursor() } else { None };
        if cursor.is_none() {
            break;
        }
    }
    match &cursor {
        Some(at) => kv.put(SWEEP_CURSOR_KEY, at)?.execute().await?,
        None => kv.delete(SWEEP_CURSOR_KEY).await?,
    }
    Ok(deleted)
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
        crate::log_line::info(&line);
    } else {
        crate::log_line::error(&line);
    }
}
