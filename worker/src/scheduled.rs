//! The `scheduled` handler's jobs (cron triggers in wrangler.toml). Each job logs one line with its
//! outcome; one failing does not stop the others.

use docs_edge_core::analytics::retention_cutoff_ms;
use docs_edge_core::platform::retention::{site_domain, sweep_decision, Decision, Live, Retention};
use docs_edge_core::platform::store_sweep::FILE_IN_FLIGHT_MS;
use worker::{Bucket, Env, ScheduledEvent};

use crate::analytics_store::AnalyticsStore;
use crate::clock::now_ms;
use crate::config::{test_only, Config, KV_BINDING};
use crate::error::ApiResult;
use crate::random::random_id;
use crate::sites;
use crate::storage;
use crate::store_sweep::StoreSweep;

/// R2 list pages one run looks at, of the most keys a list page holds; a longer sweep resumes after
/// the last key it looked at.
const SWEEP_PAGES_PER_RUN: usize = 20;
const SWEEP_PAGE_KEYS: u32 = 1000;
/// The last key a run looked at (listings start after it, not at an R2 cursor, so that a run can
/// also stop inside a page: [`StoreSweep`]'s budget).
const SWEEP_CURSOR_KEY: &str = "sweep:r2-cursor";

pub async fn run(event: &ScheduledEvent, env: &Env) {
    let config = Config::from_env(env);
    let outcome = analytics_retention(env, &config).await;
    log("analytics_retention", &event.cron(), outcome);
    let outcome = storage_retention(env, &config).await;
    log("storage_retention", &event.cron(), outcome);
}

/// Deletes unreferenced published versions, export bundles and leftover parts past their retention
/// (`core::retention`), and files of sites' stores no kept version refers to (`crate::store_sweep`),
/// at most [`SWEEP_PAGES_PER_RUN`] list pages per run, resuming where the last run stopped (kept in
/// KV). Returns the number of objects deleted.
async fn storage_retention(env: &Env, config: &Config) -> ApiResult<u64> {
    let bucket = storage::bucket(env)?;
    let kv = env.kv(KV_BINDING)?;
    let retention = Retention { publish_days: config.publish_retention_days, export_days: config.export_retention_days };
    let now = now_ms();
    let in_flight_ms = test_only::site_file_in_flight(env).map_or(FILE_IN_FLIGHT_MS, |d| d.as_millis() as u64);
    let mut after = kv.get(SWEEP_CURSOR_KEY).text().await?;
    let mut store = StoreSweep::new(&bucket, random_id("", 6)?, now, retention, in_flight_ms);
    let pages = test_only::sweep_pages(env).unwrap_or((SWEEP_PAGE_KEYS, SWEEP_PAGES_PER_RUN));
    let deleted = match sweep_pages(&bucket, &mut store, &mut after, now, retention, pages).await {
        Ok(deleted) => deleted + store.finish().await?,
        Err(err) => {
            store.abandon().await;
            return Err(err);
        }
    };
    match &after {
        Some(key) => kv.put(SWEEP_CURSOR_KEY, key)?.execute().await?,
        None => kv.delete(SWEEP_CURSOR_KEY).await?,
    }
    Ok(deleted)
}

/// The pages of one run, from the key after `after`, which it leaves at the last key looked at
/// (`None` once the listing reached the end).
async fn sweep_pages(bucket: &Bucket, store: &mut StoreSweep<'_>, after: &mut Option<String>, now: u64, retention: Retention, (page_keys, pages): (u32, usize)) -> ApiResult<u64> {
    let mut deleted = 0u64;
    // The live version of the domain whose keys are being listed (keys come in order).
    let mut live: Option<(String, Option<(String, u64)>)> = None;
    for _ in 0..pages {
        let mut list = bucket.list().limit(page_keys);
        if let Some(key) = after.as_ref() {
            list = list.start_after(key.clone());
        }
        let page = list.execute().await?;
        let mut doomed = Vec::new();
        let mut budget_spent = false;
        for object in page.objects() {
            let key = object.key();
            let uploaded_ms = object.uploaded().as_millis();
            if StoreSweep::owns(&key) {
                if !store.judge(&key, uploaded_ms).await? {
                    budget_spent = true;
                    break;
                }
            } else {
                let live_id = match site_domain(&key) {
                    Some(domain) => {
                        if live.as_ref().is_none_or(|(seen, _)| seen != domain) {
                            live = Some((domain.to_string(), sites::live_pointer(bucket, domain).await?));
                        }
                        live.as_ref().and_then(|(_, pointer)| pointer.as_ref())
                    }
                    None => None,
                };
                let live_version = live_id.map(|(publish_id, since_ms)| Live { publish_id, since_ms: *since_ms });
                if sweep_decision(&key, uploaded_ms, now, live_version, retention) == Decision::Delete {
                    doomed.push(key.clone());
                }
            }
            *after = Some(key);
        }
        deleted += store.flush().await?;
        if !doomed.is_empty() {
            deleted += doomed.len() as u64;
            bucket.delete_multiple(doomed).await?;
        }
        if budget_spent {
            // The next run starts at the store this one could not read.
            break;
        }
        if !page.truncated() {
            *after = None;
            break;
        }
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
