//! Assistant rate limits: per organization per hour and per client IP per day.
//!
//! Counting happens in isolate memory, so the check adds no round trip. Each counter is flushed to KV
//! at most once a second, after the response (`wait_until`): the flush adds this isolate's new requests
//! to the stored count and adopts the sum, so an isolate also learns what other isolates counted.
//! Exact within one isolate; across isolates a window can overshoot by what the others counted since
//! their last flush (plus KV's propagation delay, up to about a minute between locations).

use std::cell::RefCell;
use std::collections::HashMap;

use docs_edge_core::security::ratelimit::{admit, client_bucket, Limit, Verdict, WindowCount};
use worker::{Context, Env};

use crate::shared::clock::{now_ms, now_unix};
use crate::shared::config::{Config, KV_BINDING};
use crate::shared::error::{ApiError, ApiResult};

const FLUSH_INTERVAL_MS: u64 = 1_000;

#[derive(Default)]
struct Counter {
    count: WindowCount,
    last_flush_ms: u64,
    flush_in_flight: bool,
}

thread_local! {
    static COUNTERS: RefCell<HashMap<String, Counter>> = RefCell::new(HashMap::new());
}

/// Counts this request against both limits; `Err(RateLimited)` past either. The headers of the tighter
/// verdict are returned for the response (success or error).
pub fn check(
    env: &Env,
    ctx: &Context,
    config: &Config,
    org_id: &str,
    client_ip: &str,
) -> ApiResult<Vec<(String, String)>> {
    check_bucket(env, ctx, config, "", org_id, client_ip)
}

/// [`check`] with counters of their own (`bucket` such as `/events`), so one kind of traffic
/// (page-view beacons) cannot use up another's allowance (the assistant's).
pub fn check_bucket(
    env: &Env,
    ctx: &Context,
    config: &Config,
    bucket: &str,
    org_id: &str,
    client_ip: &str,
) -> ApiResult<Vec<(String, String)>> {
    let now = now_unix();
    let org_limit = Limit {
        limit: config.org_requests_per_hour,
        window_secs: 3600,
    };
    let ip_limit = Limit {
        limit: config.ip_requests_per_day,
        window_secs: 86_400,
    };
    let org_key = format!("rl:org:{org_id}{bucket}:{}", org_limit.window_index(now));
    let ip_key = format!("rl:ip:{client_ip}{bucket}:{}", ip_limit.window_index(now));

    let admission = COUNTERS.with(|counters| {
        let mut counters = counters.borrow_mut();
        let org_count = counters.entry(org_key.clone()).or_default().count.total();
        let ip_count = counters.entry(ip_key.clone()).or_default().count.total();
        let admission = admit(now, &[(org_limit, org_count), (ip_limit, ip_count)]);
        if admission.refused_by.is_none() {
            for key in [&org_key, &ip_key] {
                if let Some(counter) = counters.get_mut(key) {
                    counter.count.pending += 1;
                }
            }
        }
        admission
    });
    let verdict = admission.verdict;
    schedule_flush(env, ctx, &org_key, org_limit.window_secs);
    schedule_flush(env, ctx, &ip_key, ip_limit.window_secs);

    let headers = headers(&verdict);
    if verdict.allowed {
        return Ok(headers);
    }
    let which = if admission.refused_by == Some(0) {
        "organization"
    } else {
        "client IP"
    };
    Err(ApiError::RateLimited {
        message: format!(
            "rate limit exceeded for this {which}: {} requests per {}",
            verdict.limit,
            if which == "organization" {
                "hour"
            } else {
                "day"
            }
        ),
        retry_after_secs: verdict.reset_secs,
        headers,
    })
}

fn headers(verdict: &Verdict) -> Vec<(String, String)> {
    vec![
        ("RateLimit-Limit".into(), verdict.limit.to_string()),
        ("RateLimit-Remaining".into(), verdict.remaining.to_string()),
        ("RateLimit-Reset".into(), verdict.reset_secs.to_string()),
    ]
}

fn schedule_flush(env: &Env, ctx: &Context, key: &str, window_secs: u64) {
    let due = COUNTERS.with(|counters| {
        let mut counters = counters.borrow_mut();
        let Some(counter) = counters.get_mut(key) else {
            return false;
        };
        let due = !counter.flush_in_flight
            && now_ms().saturating_sub(counter.last_flush_ms) >= FLUSH_INTERVAL_MS;
        if due {
            counter.flush_in_flight = true;
        }
        due
    });
    if !due {
        return;
    }
    let env = env.clone();
    let key = key.to_string();
    ctx.wait_until(async move {
        if let Err(err) = flush(&env, &key, window_secs).await {
            let line =
                serde_json::json!({ "event": "ratelimit_flush_failed", "detail": err.to_string() });
            crate::shared::log_line::error(&line);
        }
        COUNTERS.with(|counters| {
            if let Some(counter) = counters.borrow_mut().get_mut(&key) {
                counter.flush_in_flight = false;
                counter.last_flush_ms = now_ms();
            }
        });
    });
}

async fn flush(env: &Env, key: &str, window_secs: u64) -> worker::Result<()> {
    let taken = COUNTERS.with(|counters| {
        counters
            .borrow_mut()
            .get_mut(key)
            .map(|c| c.count.take_pending())
            .unwrap_or(0)
    });
    let result = write_count(env, key, window_secs, taken).await;
    COUNTERS.with(|counters| {
        if let Some(counter) = counters.borrow_mut().get_mut(key) {
            match result {
                Ok(stored_before) => counter.count.flushed(stored_before, taken),
                Err(_) => counter.count.flush_failed(taken),
            }
        }
    });
    result?;
    // Old windows' counters are dropped so the map stays bounded by the live windows.
    let window_suffix = format!(":{}", key.rsplit(':').next().unwrap_or(""));
    let prefix = if key.starts_with("rl:org:") {
        "rl:org:"
    } else {
        "rl:ip:"
    };
    COUNTERS.with(|counters| {
        counters
            .borrow_mut()
            .retain(|k, _| !k.starts_with(prefix) || k.ends_with(&window_suffix));
    });
    Ok(())
}

/// Adds `taken` to the stored count; returns what was stored before.
async fn write_count(env: &Env, key: &str, window_secs: u64, taken: u64) -> worker::Result<u64> {
    let kv = env.kv(KV_BINDING)?;
    let stored: u64 = kv
        .get(key)
        .text()
        .await?
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    if taken > 0 {
        // The window's key outlives the window a little so late flushes still land; KV needs >= 60 s.
        kv.put(key, stored.saturating_add(taken).to_string())?
            .expiration_ttl(window_secs + 60)
            .execute()
            .await?;
    }
    Ok(stored)
}

/// The client's bucket from the address Cloudflare reports (IPv6 by /64); requests that reach the worker
/// without it (local tools) share one bucket.
pub fn client_ip(req: &worker::Request) -> String {
    client_bucket(&crate::shared::http::header(req, "cf-connecting-ip").unwrap_or_default())
}
