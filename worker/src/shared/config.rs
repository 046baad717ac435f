//! Settings from `wrangler.toml` `[vars]` and secrets (`.dev.vars` locally, `wrangler secret put` deployed).
//! Every setting the worker reads is read here, by name, once: [`Config`] for the numeric limits,
//! a function each for the rest. Secrets come back as [`Secret`], which never prints its value.

use docs_edge_core::analytics::{DEFAULT_RETENTION_DAYS, MAX_RETENTION_DAYS};
use docs_edge_core::docs::archive::ArchiveLimits;
use docs_edge_core::platform::deployment::{Deployment, Features};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

use worker::Env;

/// Binding names, as in wrangler.toml.
pub const KV_BINDING: &str = "STATE";
pub const R2_BINDING: &str = "DOCS";
pub const THREADS_BINDING: &str = "THREADS";
pub const CHATS_BINDING: &str = "CHATS";
pub const EXPORT_JOBS_BINDING: &str = "EXPORT_JOBS";
pub const EXPORT_ORGS_BINDING: &str = "EXPORT_ORGS";
pub const PUBLISH_JOBS_BINDING: &str = "PUBLISH_JOBS";
pub const ANALYTICS_BINDING: &str = "ANALYTICS";
pub const ASSETS_BINDING: &str = "ASSETS";
/// The service binding to the builder script (`crate::edge::builder_client`, `crate::builder::service`).
pub const BUILDER_BINDING: &str = "BUILDER";

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
    pub max_source_file_bytes: u64,
    pub max_media_file_bytes: u64,
    pub max_site_bytes: u64,
    pub export_starts_per_hour: u64,
    /// Publishes per organization per rolling hour (each unpacks and indexes a whole site).
    pub publishes_per_hour: u64,
    /// How long `PUT /v1/sites/{domain}/content` waits for the publish to go live before it
    /// answers 202 with the publish's status resource (`PUBLISH_WAIT_MS`, default 20 s; 0 never waits).
    pub publish_wait_ms: u64,
    /// Days an unreferenced published version, an export bundle or a leftover job part is kept.
    pub publish_retention_days: u64,
    pub export_retention_days: u64,
    pub bundle_link_ttl_secs: u64,
    /// Pages rendered per alarm of an export job.
    pub export_batch_pages: u32,
    pub analytics_retention_days: u32,
    /// Days a conversation thread is kept after its last turn (`THREAD_RETENTION_DAYS`, default 90;
    /// 0 keeps threads for ever).
    pub thread_retention_days: u64,
    /// Bytes of search objects (site meta, term shards, text blocks) an isolate keeps.
    pub search_cache_bytes: usize,
}

impl Config {
    pub fn from_env(env: &Env) -> Config {
        Config {
            org_requests_per_hour: number(env, "RATE_LIMIT_ORG_PER_HOUR", 10_000),
            ip_requests_per_day: number(env, "RATE_LIMIT_IP_PER_DAY", 10_000),
            max_json_body_bytes: number(env, "MAX_JSON_BODY_BYTES", 1 << 20) as usize,
            max_upload_bytes: number(env, "MAX_UPLOAD_BYTES", DEFAULT_MAX_UPLOAD_BYTES) as usize,
            max_source_files: number(env, "MAX_SOURCE_FILES", DEFAULT_MAX_SOURCE_FILES as u64)
                as usize,
            max_source_bytes: number(env, "MAX_SOURCE_BYTES", DEFAULT_MAX_SOURCE_BYTES),
            max_source_file_bytes: number(
                env,
                "MAX_SOURCE_FILE_BYTES",
                DEFAULT_MAX_SOURCE_FILE_BYTES,
            ),
            max_media_file_bytes: number(env, "MAX_MEDIA_FILE_BYTES", DEFAULT_MAX_MEDIA_FILE_BYTES),
            max_site_bytes: number(env, "MAX_SITE_BYTES", DEFAULT_MAX_SITE_BYTES),
            export_starts_per_hour: number(
                env,
                "EXPORT_STARTS_PER_HOUR",
                DEFAULT_EXPORT_STARTS_PER_HOUR,
            ),
            publishes_per_hour: number(env, "PUBLISHES_PER_HOUR", 30),
            publish_wait_ms: number(env, "PUBLISH_WAIT_MS", 20_000).min(60_000),
            publish_retention_days: number(env, "PUBLISH_RETENTION_DAYS", 7).min(3650),
            export_retention_days: number(
                env,
                "EXPORT_RETENTION_DAYS",
                DEFAULT_EXPORT_RETENTION_DAYS,
            )
            .min(3650),
            bundle_link_ttl_secs: number(env, "BUNDLE_LINK_TTL_SECONDS", 3600)
                .clamp(1, MAX_BUNDLE_LINK_TTL_SECS),
            export_batch_pages: number(env, "EXPORT_BATCH_PAGES", DEFAULT_EXPORT_BATCH_PAGES)
                .clamp(1, 10_000) as u32,
            analytics_retention_days: number(
                env,
                "ANALYTICS_RETENTION_DAYS",
                u64::from(DEFAULT_RETENTION_DAYS),
            )
            .clamp(1, u64::from(MAX_RETENTION_DAYS)) as u32,
            thread_retention_days: number(env, "THREAD_RETENTION_DAYS", 90).min(3650),
            search_cache_bytes: search_cache_bytes(env),
        }
    }
}

// docs/operate/limits.mdx derives each from the pipeline and the platform.
/// One request body: the platform's limit on the Free and Pro plans (100 MB).
const DEFAULT_MAX_UPLOAD_BYTES: u64 = 100_000_000;
const DEFAULT_MAX_SOURCE_FILES: usize = 50_000;
/// Source the staged publish parses a batch at a time: the 10,000-page scale site's ~80 MiB with room.
const DEFAULT_MAX_SOURCE_BYTES: u64 = 128 << 20;
/// One source file is parsed whole (an OpenAPI document as a JSON tree: several times its size).
const DEFAULT_MAX_SOURCE_FILE_BYTES: u64 = 9 << 20;
/// One media file: streamed, never held; the platform's static asset file limit.
const DEFAULT_MAX_MEDIA_FILE_BYTES: u64 = 25 << 20;
/// Every file of a version, media included.
const DEFAULT_MAX_SITE_BYTES: u64 = 1 << 30;
const DEFAULT_EXPORT_RETENTION_DAYS: u64 = 7;
const DEFAULT_EXPORT_STARTS_PER_HOUR: u64 = 10;
const DEFAULT_EXPORT_BATCH_PAGES: u64 = 100;
/// Publishes per domain whose status stays readable; older records are deleted as new ones begin.
pub const KEPT_PUBLISHES: usize = 50;

/// What a publish or export job runs under. The edge script owns the variables (wrangler.toml) and
/// sends these with each job; the job keeps them in its record, so its later steps (alarms, retries)
/// run under the settings it began with, and the builder script has no variables of its own to keep
/// in step. Records from before the field read the defaults.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct JobSettings {
    pub max_source_files: usize,
    pub max_source_bytes: u64,
    pub max_source_file_bytes: u64,
    pub max_media_file_bytes: u64,
    pub max_site_bytes: u64,
    pub export_retention_days: u64,
    /// Publishes per domain whose records are kept.
    pub kept_publishes: usize,
    /// The deployment's switches: an export's pages and manifest follow them.
    pub features: Features,
    /// `DEPLOYMENT_KIND = "air-gapped"`: a publish fetches only from `INTERNAL_HOSTS`.
    pub air_gapped: bool,
    pub internal_hosts: String,
    /// `EXPORT_STARTS_PER_HOUR` and `EXPORT_BATCH_PAGES`: the hosted site's export a publish
    /// starts when it goes live runs under them.
    pub export_starts_per_hour: u64,
    pub export_batch_pages: u32,
    /// `PREVIEW_HOST_SUFFIX`: the hostname previews are served under (`docs_edge_core::publish::preview`);
    /// empty: previews are off.
    pub preview_host_suffix: String,
    #[serde(skip_serializing_if = "TestHooks::is_unset")]
    pub test: TestHooks,
}

impl Default for JobSettings {
    fn default() -> Self {
        JobSettings {
            max_source_files: DEFAULT_MAX_SOURCE_FILES,
            max_source_bytes: DEFAULT_MAX_SOURCE_BYTES,
            max_source_file_bytes: DEFAULT_MAX_SOURCE_FILE_BYTES,
            max_media_file_bytes: DEFAULT_MAX_MEDIA_FILE_BYTES,
            max_site_bytes: DEFAULT_MAX_SITE_BYTES,
            export_retention_days: DEFAULT_EXPORT_RETENTION_DAYS,
            kept_publishes: KEPT_PUBLISHES,
            features: Features::default(),
            air_gapped: false,
            internal_hosts: String::new(),
            export_starts_per_hour: DEFAULT_EXPORT_STARTS_PER_HOUR,
            export_batch_pages: DEFAULT_EXPORT_BATCH_PAGES as u32,
            preview_host_suffix: String::new(),
            test: TestHooks::default(),
        }
    }
}

/// The limits an export order runs under: `EXPORT_STARTS_PER_HOUR`, `EXPORT_BATCH_PAGES`.
#[derive(Debug, Clone, Copy)]
pub struct ExportLimits {
    pub starts_per_hour: u64,
    pub batch_pages: u32,
}

impl JobSettings {
    /// The export limits the request-serving script read when it sent these settings (the
    /// builder has no variables of its own).
    pub fn export_limits(&self) -> ExportLimits {
        ExportLimits {
            starts_per_hour: self.export_starts_per_hour,
            batch_pages: self.export_batch_pages,
        }
    }

    pub fn from_env(env: &Env) -> Result<JobSettings, String> {
        let config = Config::from_env(env);
        Ok(JobSettings {
            max_source_files: config.max_source_files,
            max_source_bytes: config.max_source_bytes,
            max_source_file_bytes: config.max_source_file_bytes,
            max_media_file_bytes: config.max_media_file_bytes,
            max_site_bytes: config.max_site_bytes,
            export_retention_days: config.export_retention_days,
            kept_publishes: test_only::kept_publishes(env).unwrap_or(KEPT_PUBLISHES),
            features: deployment(env)?.features,
            air_gapped: deployment(env)?.kind
                == docs_edge_core::platform::deployment::DeploymentKind::AirGapped,
            internal_hosts: backend_settings(env).internal_hosts,
            export_starts_per_hour: config.export_starts_per_hour,
            export_batch_pages: config.export_batch_pages,
            preview_host_suffix: text(env, "PREVIEW_HOST_SUFFIX").unwrap_or_default(),
            test: TestHooks {
                publish_fault_domain: test_only::publish_fault_domain(env),
                publish_step_delay: test_only::publish_step_delay(env)
                    .map(|(d, t)| (d, t.as_millis() as u64)),
                export_fault_domain: test_only::export_fault_domain(env),
                export_step_delay: test_only::export_step_delay(env)
                    .map(|(d, t)| (d, t.as_millis() as u64)),
                fetch_loopback_http: test_only::fetch_loopback_http(env),
            },
        })
    }

    /// What an uploaded (or stored) docs archive may hold.
    pub fn archive_limits(&self) -> ArchiveLimits {
        ArchiveLimits {
            max_files: self.max_source_files,
            max_total_bytes: self.max_source_bytes,
            max_file_bytes: self.max_source_file_bytes,
            max_media_file_bytes: self.max_media_file_bytes,
            max_site_bytes: self.max_site_bytes,
        }
    }
}

/// The [`test_only`] settings a builder job needs, carried in its [`JobSettings`]; unset in every
/// real deployment.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TestHooks {
    pub publish_fault_domain: Option<String>,
    /// The domain and the delay in ms.
    pub publish_step_delay: Option<(String, u64)>,
    pub export_fault_domain: Option<String>,
    pub export_step_delay: Option<(String, u64)>,
    /// A publish may fetch remote specs over plain http from loopback (tests serve them so).
    #[serde(default)]
    pub fetch_loopback_http: bool,
}

impl TestHooks {
    fn is_unset(&self) -> bool {
        self.publish_fault_domain.is_none()
            && self.publish_step_delay.is_none()
            && self.export_fault_domain.is_none()
            && self.export_step_delay.is_none()
            && !self.fetch_loopback_http
    }
}

/// The isolate's search cache, `SEARCH_CACHE_BYTES`. The default, 24 MiB, is sized against the
/// scale targets' 64 MiB per isolate: publishing now runs in bounded batches (34 MiB high-water at
/// 10,205 pages; docs/architecture/publish.mdx, "Bounded memory"), and 24 MiB holds what ~200
/// varied queries read on a 10,205-page site (19 MB in `bench/scale.mjs`, no eviction; at 8 MiB the warm passes
/// evicted 5,446 times and were no faster than cold ones), or the metas and recent objects of fifty
/// 1,000-page sites (`bench/tenants.mjs`); everything else is one R2 read away.
pub const DEFAULT_SEARCH_CACHE_BYTES: usize = 24 << 20;

pub fn search_cache_bytes(env: &Env) -> usize {
    number(env, "SEARCH_CACHE_BYTES", DEFAULT_SEARCH_CACHE_BYTES as u64).min(1 << 30) as usize
}

/// `DEPLOYMENT_KIND` and the `FEATURE_*` switches; a value that is neither is the operator's
/// mistake, answered as a 500 with the variable named in the log.
pub fn deployment(env: &Env) -> Result<Deployment, String> {
    Deployment::from_lookup(|name| text(env, name)).map_err(|e| e.to_string())
}

/// A secret setting's value. `Debug` shows only that it is set, so a secret in a struct cannot reach
/// a log line; [`Secret::expose`] is the one way to the value.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(…)")
    }
}

fn secret(env: &Env, name: &str) -> Option<Secret> {
    text(env, name).map(Secret)
}

/// `ROOT_TOKEN`: the operator API's token; unset, the operator API is off.
pub fn root_token(env: &Env) -> Option<Secret> {
    secret(env, "ROOT_TOKEN")
}

/// `LINK_SIGNING_KEY`: signs bundle download links.
pub const LINK_SIGNING_KEY: &str = "LINK_SIGNING_KEY";

pub fn link_signing_key(env: &Env) -> Option<Secret> {
    secret(env, LINK_SIGNING_KEY)
}

/// `ANALYTICS_SALT`: salts the hashes analytics keep of questions' askers.
pub fn analytics_salt(env: &Env) -> Option<Secret> {
    secret(env, "ANALYTICS_SALT")
}

/// What readers write is masked before anything stores it (`docs_edge_core::privacy`):
/// `PRIVACY_MASKING` (`true` unless set `false`) and `PRIVACY_MASK_PATTERNS`, the operator's own
/// patterns, comma-separated. A value that is neither is the operator's mistake: a 500, named in
/// the log.
pub fn masker(
    env: &Env,
) -> Result<docs_edge_core::privacy::Masker, crate::shared::error::ApiError> {
    let setting_error = |name: &str, rule: String| {
        crate::shared::error::ApiError::Internal(format!("{name}: {rule}"))
    };
    let on = match text(env, "PRIVACY_MASKING") {
        None => true,
        Some(raw) => docs_edge_core::platform::deployment::parse_switch(&raw).ok_or_else(|| {
            setting_error(
                "PRIVACY_MASKING",
                format!("must be true or false, not `{raw}`"),
            )
        })?,
    };
    docs_edge_core::privacy::Masker::from_list(on, text(env, "PRIVACY_MASK_PATTERNS").as_deref())
        .map_err(|rule| setting_error("PRIVACY_MASK_PATTERNS", rule))
}

/// Cloudflare Turnstile before assistant answers: on when the secret `TURNSTILE_SECRET_KEY` is set;
/// `TURNSTILE_SITEVERIFY_URL` moves siteverify (tests point it at a local stand-in). Set on an
/// air-gapped deployment, it is the operator's mistake: a 500, named in the log.
pub fn turnstile(
    env: &Env,
) -> Result<
    Option<(
        docs_edge_core::security::turnstile::TurnstileSettings,
        Secret,
    )>,
    crate::shared::error::ApiError,
> {
    let secret = secret(env, "TURNSTILE_SECRET_KEY");
    let kind = deployment(env)
        .map_err(crate::shared::error::ApiError::Internal)?
        .kind;
    let settings = docs_edge_core::security::turnstile::settings(
        kind,
        secret.is_some(),
        text(env, "TURNSTILE_SITEVERIFY_URL").as_deref(),
    )
    .map_err(crate::shared::error::ApiError::Internal)?;
    Ok(settings.zip(secret))
}

/// R2's S3 API, for presigned bundle links.
#[derive(Debug, Clone)]
pub struct R2S3Settings {
    pub access_key_id: String,
    pub secret_access_key: Secret,
    pub account_id: String,
    pub bucket_name: String,
}

/// `R2_ACCESS_KEY_ID`, `R2_SECRET_ACCESS_KEY` (secrets), `R2_ACCOUNT_ID` and `R2_BUCKET_NAME`: all
/// four, or `None` (presigning is off).
pub fn r2_s3(env: &Env) -> Option<R2S3Settings> {
    Some(R2S3Settings {
        access_key_id: text(env, "R2_ACCESS_KEY_ID")?,
        secret_access_key: secret(env, "R2_SECRET_ACCESS_KEY")?,
        account_id: text(env, "R2_ACCOUNT_ID")?,
        bucket_name: text(env, "R2_BUCKET_NAME")?,
    })
}

/// The answer backend's settings as set (defaults are the backend's, `crate::edge::generation`).
#[derive(Debug, Clone)]
pub struct BackendSettings {
    /// `ASSISTANT_BACKEND`, default `extractive`.
    pub backend: String,
    /// `INTERNAL_HOSTS`: the hosts an air-gapped deployment may call.
    pub internal_hosts: String,
    pub llm_base_url: Option<String>,
    pub llm_model: Option<String>,
    /// The secret `LLM_API_KEY`.
    pub llm_api_key: Option<Secret>,
    /// `LLM_MAX_TOKENS`, default 1024.
    pub llm_max_tokens: u32,
}

pub fn backend_settings(env: &Env) -> BackendSettings {
    BackendSettings {
        backend: text(env, "ASSISTANT_BACKEND").unwrap_or_else(|| "extractive".into()),
        internal_hosts: text(env, "INTERNAL_HOSTS").unwrap_or_default(),
        llm_base_url: text(env, "LLM_BASE_URL"),
        llm_model: text(env, "LLM_MODEL"),
        llm_api_key: secret(env, "LLM_API_KEY"),
        llm_max_tokens: text(env, "LLM_MAX_TOKENS")
            .and_then(|v| v.parse().ok())
            .unwrap_or(1024),
    }
}

/// How long a backend may produce nothing before a keep-alive goes out: `ASSISTANT_KEEPALIVE_SECONDS`
/// (default 10; proxies commonly drop connections idle for 30 to 100 s).
pub fn keep_alive_interval(env: &Env) -> Duration {
    let seconds = text(env, "ASSISTANT_KEEPALIVE_SECONDS")
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|s| *s > 0)
        .unwrap_or(10);
    Duration::from_secs(seconds)
}

/// How long an ended resumable answer can still be resumed: `ASSISTANT_RESUME_WINDOW_SECONDS`
/// (default 60).
pub fn resume_window(env: &Env) -> Duration {
    let default = docs_edge_core::assistant::resume::RESUME_WINDOW_MS / 1000;
    let seconds = text(env, "ASSISTANT_RESUME_WINDOW_SECONDS")
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|s| *s > 0)
        .unwrap_or(default);
    Duration::from_secs(seconds)
}

/// Test-only settings, unset in every real deployment (never in wrangler.toml).
pub mod test_only {
    use std::time::Duration;

    use worker::Env;

    use super::text;

    /// `TEST_FETCH_LOOPBACK_HTTP=1`: a publish may fetch a remote spec over plain http from a
    /// loopback address (the tests' stand-in for an https host).
    pub fn fetch_loopback_http(env: &Env) -> bool {
        text(env, "TEST_FETCH_LOOPBACK_HTTP").as_deref() == Some("1")
    }

    /// `TEST_PANIC_ROUTE=1`: `GET /health` with an `x-test-panic` header panics (after an await, as a
    /// handler deep in a request would), so a test can prove that one request's panic leaves the
    /// others in flight in the isolate, streams included, running.
    pub fn panic_route(env: &Env) -> bool {
        text(env, "TEST_PANIC_ROUTE").as_deref() == Some("1")
    }

    /// `TEST_RETRIEVAL_DELAY_MS`: holds retrieval back so a test can see the first bytes arrive
    /// before it ends (at most 30 s).
    pub fn retrieval_delay(env: &Env) -> Option<Duration> {
        let ms: u64 = text(env, "TEST_RETRIEVAL_DELAY_MS")?.trim().parse().ok()?;
        Some(Duration::from_millis(ms.min(30_000)))
    }

    /// `TEST_EXPORT_FAULT_DOMAIN`: every step of a job of this domain dies after its attempt is
    /// stored, the way a step killed with its isolate (memory, CPU) does: the alarm ends with an
    /// error and nothing after the attempt is written; the runtime retries the alarm.
    pub fn export_fault_domain(env: &Env) -> Option<String> {
        text(env, "TEST_EXPORT_FAULT_DOMAIN")
    }

    /// `TEST_PUBLISH_FAULT_DOMAIN`: every batch and merge step of a publish to this domain fails, and
    /// a small site's build after its unpack (a fault of the platform, so retried until the attempts
    /// run out), so a test can see a publish that dies midway leave the previous version live.
    pub fn publish_fault_domain(env: &Env) -> Option<String> {
        text(env, "TEST_PUBLISH_FAULT_DOMAIN")
    }

    /// `TEST_PUBLISH_STEP_DELAY_DOMAIN` and `TEST_PUBLISH_STEP_DELAY_MS`: every step of a publish to
    /// that domain waits that long (at most a minute) after storing its attempt, so a test can kill
    /// the runtime inside a step deterministically.
    pub fn publish_step_delay(env: &Env) -> Option<(String, Duration)> {
        let domain = text(env, "TEST_PUBLISH_STEP_DELAY_DOMAIN")?;
        let ms = text(env, "TEST_PUBLISH_STEP_DELAY_MS")
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
            .min(60_000);
        Some((domain, Duration::from_millis(ms)))
    }

    /// `TEST_HOSTED_KEEP_RETIRED_MS`: the sweep keeps a hosted export's files this long after the
    /// site was switched away from it, instead of ten minutes, so a test sees them go.
    pub fn hosted_keep_retired_ms(env: &Env) -> Option<u64> {
        text(env, "TEST_HOSTED_KEEP_RETIRED_MS")?
            .trim()
            .parse()
            .ok()
    }

    /// `TEST_THREAD_RETENTION_MS`: threads expire this long after their last turn instead of
    /// `THREAD_RETENTION_DAYS`, so a test can see one go.
    pub fn thread_retention(env: &Env) -> Option<Duration> {
        let ms: u64 = text(env, "TEST_THREAD_RETENTION_MS")?.trim().parse().ok()?;
        Some(Duration::from_millis(ms))
    }

    /// `TEST_KEPT_PUBLISHES`: publishes per domain whose records are kept, instead of 50, so a test
    /// can see the oldest go without publishing fifty times.
    pub fn kept_publishes(env: &Env) -> Option<usize> {
        text(env, "TEST_KEPT_PUBLISHES")?
            .trim()
            .parse()
            .ok()
            .filter(|n| *n > 0)
    }

    /// `TEST_SWEEP_PAGE_KEYS` and `TEST_SWEEP_PAGES`: the storage sweep lists pages of this many keys
    /// (1 to 1,000) and this many pages per run (1 to 100), so a test can make a run stop short of
    /// the end and see the next one resume from its cursor. Both must be set.
    pub fn sweep_pages(env: &Env) -> Option<(u32, usize)> {
        let keys: u32 = text(env, "TEST_SWEEP_PAGE_KEYS")?.trim().parse().ok()?;
        let pages: usize = text(env, "TEST_SWEEP_PAGES")?.trim().parse().ok()?;
        Some((keys.clamp(1, 1000), pages.clamp(1, 100)))
    }

    /// `TEST_SITE_FILE_IN_FLIGHT_MS`: the storage sweep keeps a file of a site's store that no kept
    /// version refers to for this long after its upload instead of a day, so a test can see one go
    /// and a fresh one stay.
    pub fn site_file_in_flight(env: &Env) -> Option<Duration> {
        let ms: u64 = text(env, "TEST_SITE_FILE_IN_FLIGHT_MS")?
            .trim()
            .parse()
            .ok()?;
        Some(Duration::from_millis(ms))
    }

    /// `TEST_EXPORT_STEP_DELAY_DOMAIN` and `TEST_EXPORT_STEP_DELAY_MS`: every batch step of a job of
    /// that domain waits that long (at most a minute) after writing its part, before the alarm stores
    /// the job, and every step of a hosted export's after its switch before it begins, so a test can
    /// land a cancel mid-step deterministically. The domain and the delay.
    pub fn export_step_delay(env: &Env) -> Option<(String, Duration)> {
        let domain = text(env, "TEST_EXPORT_STEP_DELAY_DOMAIN")?;
        let ms = text(env, "TEST_EXPORT_STEP_DELAY_MS")
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
            .min(60_000);
        Some((domain, Duration::from_millis(ms)))
    }
}

/// A setting as text: secrets first, then plain vars; empty counts as unset.
fn text(env: &Env, name: &str) -> Option<String> {
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
    text(env, name)
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}
