//! `[refresh]`: the whole export loop, so no outside scheduler is needed. Every `every`:
//! - with `site_url` (a hosted site), mirror its live export by delta (`crate::delta`): only what
//!   changed is fetched, nothing when nothing was published;
//! - otherwise, or when the site has no delta listing (an older service, a domain not hosted), ask
//!   whether anything was published since the bundle being served (`GET /v1/sites/{domain}`'s
//!   `publishedAt`); if so start a job for `domain` (or follow the one already running), poll it to
//!   the end, generate the bundle, then load its link with the SHA-256 the bundle endpoint returned.
//!
//! A failure keeps the live bundle and shows in health; the next round tries again.

use std::sync::Arc;
use std::time::Duration;

use docs_edge_core::wire::{BundleLink, ErrorBody, ExportJob, JobStatus, PublishedSite};
use serde::de::DeserializeOwned;

use crate::config::Refresh;
use crate::delta::{Mirror, Synced};
use crate::state::{Fetched, State};

const POLL_EVERY: Duration = Duration::from_millis(500);
const JOB_DEADLINE: Duration = Duration::from_secs(30 * 60);

/// What the loop remembers between rounds.
#[derive(Default)]
struct Seen {
    mirror: Mirror,
    /// The publish the bundle `bundle_sha` was exported after (`publishedAt`).
    published_at: Option<String>,
    /// The bundle the last whole-bundle round loaded: "nothing published since" holds only while it
    /// is still the one served (a SIGHUP may have loaded the cached archive or another link).
    bundle_sha: Option<String>,
}

pub async fn run(state: Arc<State>) {
    let mut seen = Seen::default();
    loop {
        let Some(refresh) = state.config().refresh.clone() else {
            // SIGHUP may add a [refresh] section later.
            tokio::time::sleep(Duration::from_secs(5)).await;
            continue;
        };
        if let Err(err) = round(&state, &refresh, &mut seen).await {
            state.record_error(format!("refresh: {err}"));
        }
        tokio::time::sleep(refresh.every).await;
    }
}

async fn round(state: &State, refresh: &Refresh, seen: &mut Seen) -> Result<(), String> {
    if let Some(site) = &refresh.site_url {
        match crate::delta::sync(state, site, &mut seen.mirror).await {
            Ok(Synced::NoListing) => {}
            Ok(_) => return Ok(()),
            // What the site sent does not match its listing: the whole bundle may still do.
            Err(err) if err.content => {
                state.record_error(format!("mirroring by delta: {}", err.message));
            }
            Err(err) => return Err(format!("mirroring by delta: {}", err.message)),
        }
    }
    let api = &refresh.api_url;
    // Nothing published since the bundle being served: no export. (Unknown: export.)
    let published = call::<PublishedSite>(
        state,
        refresh,
        "GET",
        &format!("{api}/v1/sites/{}", refresh.domain),
        None,
    )
    .await
    .ok()
    .map(|site| site.published_at);
    let serving = state.active().map(|a| a.bundle.sha256.clone());
    if published.is_some() && published == seen.published_at && serving == seen.bundle_sha {
        return Ok(());
    }
    export_and_load(state, refresh).await?;
    seen.published_at = published;
    seen.bundle_sha = state.active().map(|a| a.bundle.sha256.clone());
    Ok(())
}

/// Today's whole-bundle round: an export of what is live, its bundle downloaded and loaded.
async fn export_and_load(state: &State, refresh: &Refresh) -> Result<(), String> {
    let api = &refresh.api_url;
    let job_id = match call::<ExportJob>(
        state,
        refresh,
        "POST",
        &format!("{api}/v1/static-export/jobs"),
        Some(&refresh.domain),
    )
    .await
    {
        Ok(job) => job.job_id,
        // One job per domain at a time: follow the one already running.
        Err(Failure::Api(body)) if body.code == "job_active" && body.job_id.is_some() => {
            body.job_id.unwrap_or_default()
        }
        Err(err) => return Err(format!("starting the export: {err}")),
    };
    let started = tokio::time::Instant::now();
    loop {
        let job = call::<ExportJob>(
            state,
            refresh,
            "GET",
            &format!("{api}/v1/static-export/jobs/{job_id}"),
            None,
        )
        .await
        .map_err(|e| format!("polling {job_id}: {e}"))?;
        match job.status {
            JobStatus::Completed => break,
            JobStatus::Failed | JobStatus::Cancelled => {
                return Err(format!(
                    "export job {job_id} is {:?}: {}",
                    job.status,
                    job.error.unwrap_or_default()
                ))
            }
            _ if started.elapsed() > JOB_DEADLINE => {
                return Err(format!(
                    "export job {job_id} still {:?} after 30 minutes",
                    job.status
                ))
            }
            _ => tokio::time::sleep(POLL_EVERY).await,
        }
    }
    let link = call::<BundleLink>(
        state,
        refresh,
        "POST",
        &format!("{api}/v1/static-export/jobs/{job_id}/bundle"),
        None,
    )
    .await
    .map_err(|e| format!("generating the bundle of {job_id}: {e}"))?;
    let sha = Some(link.sha256.as_str()).filter(|s| !s.is_empty());
    state.load_url(&link.bundle_url, sha).await?;
    let archive = state.config().cache_dir.join(crate::bundle::CACHED_ARCHIVE);
    let bytes = std::fs::metadata(archive).map_or(0, |m| m.len());
    state.set_fetched(Fetched {
        mode: "bundle",
        bytes,
        requests: 1,
        files: 0,
        file_bytes: 0,
    });
    Ok(())
}

enum Failure {
    Api(ErrorBody),
    Other(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Api(body) => write!(f, "{} ({})", body.error, body.code),
            Failure::Other(reason) => f.write_str(reason),
        }
    }
}

async fn call<T: DeserializeOwned>(
    state: &State,
    refresh: &Refresh,
    method: &str,
    url: &str,
    domain: Option<&str>,
) -> Result<T, Failure> {
    let mut request = match method {
        "POST" => state.client.post(url),
        _ => state.client.get(url),
    }
    .bearer_auth(&refresh.admin_key)
    .timeout(Duration::from_secs(60));
    if let Some(domain) = domain {
        request = request
            .header("content-type", "application/json")
            .body(serde_json::json!({ "domain": domain }).to_string());
    }
    let response = request
        .send()
        .await
        .map_err(|e| Failure::Other(format!("request failed: {e}")))?;
    let status = response.status();
    let bytes = response
        .bytes()
        .await
        .map_err(|e| Failure::Other(format!("reading the answer: {e}")))?;
    if !status.is_success() {
        return Err(match serde_json::from_slice::<ErrorBody>(&bytes) {
            Ok(body) => Failure::Api(body),
            Err(_) => Failure::Other(format!("the API answered {status}")),
        });
    }
    serde_json::from_slice(&bytes).map_err(|e| Failure::Other(format!("unexpected answer: {e}")))
}
