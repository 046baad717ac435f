//! Settings from `wrangler.toml` `[vars]` and secrets (`.dev.vars` locally, `wrangler secret put` deployed).

use docs_edge_core::deployment::Deployment;
use docs_edge_core::docs::archive::ArchiveLimits;
use docs_edge_core::analytics::{DEFAULT_RETENTION_DAYS, MAX_RETENTION_DAYS};
use worker::Env;

/// Binding names, as in wrangler.toml.
pub const KV_BINDING: &str = "STATE";
pub const R2_BINDING: &str = "DOCS";
pub const THREADS_BINDING: &str = "THREADS";
pub const CHATS_BINDING: &str = "CHATS";
pub const EXPORT_JOBS_BINDING: &str = "EXPORT_JOBS";
pub const EXPORT_ORGS_BINDING: &str = "EXPORT_ORGS";
pub const ANALYTICS_BINDING: &str = "ANALYTICS";
pub const ASSETS_BINDING: &str = "ASSETS";

/// Bundle links live at most a week (the S3 presigning limit, too).
pub const MAX_BUNDLE_LINK_TTL_SECS: u64 = 7 * 86_400;

#[derive(Debug, Clone)]
pub struct Config {
    pub org_requests_per_hour: u64,
    pub ip_requests_per_day: u64,
    pub max_json_body_bytes: usize,
    pub max_upload_bytes: usize,
    pub max_source_files: usize,
    pub max_source_bytes: u64,
    pub export_starts_per_hour: u64,
    /// Publishes per organization per rolling hour (each unpacks and indexes a whole site).
    pub publishes_per_hour: u64,
    /// Days an unreferenced published version, an export bundle or a leftover job part is kept.
    pub publish_retention_days: u64,
    pub export_retention_days: u64,
    pub bundle_link_ttl_secs: u64,
    /// Pages rendered per alarm of an export job.
    pub export_batch_pages: u32,
    pub analytics_retention_days: u32,
    /// Bytes of search objects (site meta, term shards, text blocks) an isolate keeps.
    pub search_cache_bytes: usize,
}

impl Config {
    pub fn from_env(env: &Env) -> Config {
        Config {
            org_requests_per_hour: number(env, "RATE_LIMIT_ORG_PER_HOUR", 10_000),
            ip_requests_per_day: number(env, "RATE_LIMIT_IP_PER_DAY", 10_000),
            max_json_body_bytes: number(env, "MAX_JSON_BODY_BYTES", 1 << 20) as usize,
            max_upload_bytes: number(env, "MAX_UPLOAD_BYTES", 5 << 20) as usize,
            max_source_files: number(env, "MAX_SOURCE_FILES", 20_000) as usize,
            max_source_bytes: number(env, "MAX_SOURCE_BYTES", 9 << 20),
            export_starts_per_hour: number(env, "EXPORT_STARTS_PER_HOUR", 10),
            publishes_per_hour: number(env, "PUBLISHES_PER_HOUR", 30),
            publish_retention_days: number(env, "PUBLISH_RETENTION_DAYS", 7).min(3650),
            export_retention_days: number(env, "EXPORT_RETENTION_DAYS", 7).min(3650),
            bundle_link_ttl_secs: number(env, "BUNDLE_LINK_TTL_SECONDS", 3600).clamp(1, MAX_BUNDLE_LINK_TTL_SECS),
            export_batch_pages: number(env, "EXPORT_BATCH_PAGES", 100).clamp(1, 10_000) as u32,
            analytics_retention_days: number(env, "ANALYTICS_RETENTION_DAYS", u64::from(DEFAULT_RETENTION_DAYS))
                .clamp(1, u64::from(MAX_RETENTION_DAYS)) as u32,
            search_cache_bytes: search_cache_bytes(env),
        }
    }
}

impl Config {
    /// What an uploaded (or stored) docs archive may hold.
    pub fn archive_limits(&self) -> ArchiveLimits {
        ArchiveLimits {
            max_files: self.max_source_files,
            max_total_bytes: self.max_source_bytes,
            ..ArchiveLimits::default()
        }
    }
}

/// The isolate's search cache, `SEARCH_CACHE_BYTES`. The default, 8 MiB, is sized against the
/// 128 MB (122 MiB) an isolate has: publishing at the source limits peaks near 101 MiB (README
/// "Limits"), and an isolate that publishes may also search, so the cache must fit beside that peak
/// (109 MiB) with room for the runtime. 8 MiB keeps the meta of a dozen 1,000-page sites (about
/// 0.45 MiB each) and the shards and text blocks of the last 20-30 distinct queries (about 110 KiB
/// each on the fixture); everything else is one R2 read away.
pub const DEFAULT_SEARCH_CACHE_BYTES: usize = 8 << 20;

pub fn search_cache_bytes(env: &Env) -> usize {
    number(env, "SEARCH_CACHE_BYTES", DEFAULT_SEARCH_CACHE_BYTES as u64).min(1 << 30) as usize
}

/// `DEPLOYMENT_KIND` and the `FEATURE_*` switches; a value that is neither is the operator's
/// mistake, answered as a 500 with the variable named in the log.
pub fn deployment(env: &Env) -> Result<Deployment, String> {
    Deployment::from_lookup(|name| text(env, name)).map_err(|e| e.to_string())
}

/// A setting as text: secrets first, then plain vars; empty counts as unset.
pub fn text(env: &Env, name: &str) -> Option<String> {
    let value = env
        .secret(name)
        .map(|s| s.to_string())
        .or_else(|_| env.var(name).map(|v| v.to_string()))
        .ok()?;
    if value.is_empty() {
        None
    } else {
        Some(value)
    }
}

fn number(env: &Env, name: &str, default: u64) -> u64 {
    text(env, name).and_then(|v| v.trim().parse().ok()).unwrap_or(default)
}
