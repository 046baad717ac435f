//! `docs-edge-serve.toml`, and the environment variables that override each key
//! (docs/self-hosting/serve.mdx).

use std::path::{Path, PathBuf};
use std::time::Duration;

use docs_edge_core::analytics::{DEFAULT_RETENTION_DAYS, MAX_RETENTION_DAYS};
use docs_edge_core::platform::deployment::{outbound_allowed, parse_switch, Deployment};
use docs_edge_core::privacy::Masker;
use docs_edge_core::security::origins::normalize_origin;
use serde::Deserialize;

#[derive(Debug, Clone)]
pub struct Config {
    pub listen: String,
    pub cache_dir: PathBuf,
    pub static_export: StaticExport,
    pub refresh: Option<Refresh>,
    pub assistant: Assistant,
    pub storage: Storage,
    /// SHA-256 (hex) of the admin keys that may read threads and analytics.
    pub admin_key_hashes: Vec<String>,
    pub limits: Limits,
    pub deployment: Deployment,
    /// `INTERNAL_HOSTS`: what an air-gapped deployment may reach (the bundle link, the export API,
    /// and the host its pages' beacon posts to).
    pub internal_hosts: String,
    /// `[privacy]`: how questions and comments are masked before they are stored.
    pub privacy: Masker,
}

#[derive(Debug, Clone, Default)]
pub struct StaticExport {
    pub enabled: bool,
    pub bundle_url: Option<String>,
    /// Refuse any bundle whose manifest names another version label.
    pub version: Option<String>,
    /// Expected SHA-256 of the archive (what the bundle endpoint returned with the link).
    pub sha256: Option<String>,
}

/// The export loop run by the server itself: start a job, poll it, generate the bundle, load it.
#[derive(Debug, Clone)]
pub struct Refresh {
    pub api_url: String,
    pub domain: String,
    pub every: Duration,
    /// From `DOCS_EDGE_ADMIN_KEY` only: never in the file.
    pub admin_key: String,
    /// The hosted site's URL (`https://docs.example.com`, with its path prefix): when set, each
    /// round mirrors the site's live export by delta from there (`crate::delta`).
    pub site_url: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Assistant {
    pub enabled: bool,
    /// SHA-256 (hex) of the assistant keys that may call the discovery endpoints.
    pub key_hashes: Vec<String>,
    /// Other sites whose pages may use those keys (`Origin`, `security::origins`), besides this
    /// server's own pages; empty: any site.
    pub allowed_origins: Vec<String>,
    /// Bound of the cache of term shards and text blocks search reads from the bundle's packs.
    pub search_cache_bytes: usize,
    pub backend: Backend,
    /// How long an LLM may be silent before a keep-alive goes out (the worker's default, 10 s).
    pub keep_alive: Duration,
}

/// Who writes the answers: `extractive` (from the passages, offline) or `openai` (any
/// OpenAI-compatible Chat Completions endpoint: vLLM, Ollama, llama.cpp server, a gateway).
#[derive(Debug, Clone)]
pub enum Backend {
    Extractive,
    OpenAi(Llm),
}

impl Backend {
    /// As the analytics rows record it (the worker's `ASSISTANT_BACKEND` names).
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Extractive => "extractive",
            Backend::OpenAi(_) => "openai",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Llm {
    /// Without a trailing slash; requests go to `{base_url}/chat/completions`.
    pub base_url: String,
    pub model: String,
    pub max_tokens: u32,
    /// From `DOCS_EDGE_LLM_API_KEY` only; `None` sends no `Authorization` (a local server needs none).
    pub api_key: Option<Secret>,
}

/// A secret setting: `Debug` shows only that it is set, so it cannot reach a log line.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    /// Secrets come from the config file or the environment; tests make their own.
    #[cfg(test)]
    pub fn new(value: String) -> Self {
        Secret(value)
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

/// `[storage]`: threads, feedback and answer analytics.
#[derive(Debug, Clone)]
pub struct Storage {
    /// `sqlite://…` or `postgres://…` (may hold a password: a [`Secret`]).
    pub url: Secret,
    /// Days a thread is kept after its last turn; 0 keeps threads for ever (the worker's
    /// `THREAD_RETENTION_DAYS`).
    pub thread_retention_days: u64,
    /// Days analytics rows are kept (the worker's `ANALYTICS_RETENTION_DAYS`).
    pub analytics_retention_days: u32,
}

/// The SQLite database in `cache_dir` when `[storage] url` is not set.
pub const DEFAULT_DATABASE: &str = "docs-edge.db";

/// As the worker's `SEARCH_CACHE_BYTES` default.
pub const DEFAULT_SEARCH_CACHE_BYTES: usize = 8 << 20;

#[derive(Debug, Clone)]
pub struct Limits {
    pub max_bundle_bytes: u64,
    pub max_files: usize,
    pub max_unpacked_bytes: u64,
    pub download_timeout: Duration,
    pub download_attempts: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_bundle_bytes: 512 << 20,
            max_files: 100_000,
            max_unpacked_bytes: 2 << 30,
            download_timeout: Duration::from_secs(300),
            download_attempts: 3,
        }
    }
}

/// The file as written; every key optional so the environment can supply it.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    listen: Option<String>,
    cache_dir: Option<PathBuf>,
    #[serde(default)]
    static_export: FileStaticExport,
    refresh: Option<FileRefresh>,
    #[serde(default)]
    assistant: FileAssistant,
    #[serde(default)]
    storage: FileStorage,
    #[serde(default)]
    admin: FileAdmin,
    #[serde(default)]
    limits: FileLimits,
    #[serde(default)]
    privacy: FilePrivacy,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FilePrivacy {
    masking: Option<bool>,
    mask_patterns: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileStorage {
    url: Option<String>,
    thread_retention_days: Option<u64>,
    analytics_retention_days: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileAdmin {
    key_sha256: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLlm {
    base_url: Option<String>,
    model: Option<String>,
    max_tokens: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileStaticExport {
    enabled: Option<bool>,
    bundle_url: Option<String>,
    version: Option<String>,
    sha256: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRefresh {
    api_url: Option<String>,
    domain: Option<String>,
    every: Option<String>,
    site_url: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileAssistant {
    enabled: Option<bool>,
    key_sha256: Option<Vec<String>>,
    allowed_origins: Option<Vec<String>>,
    search_cache_bytes: Option<u64>,
    backend: Option<String>,
    keep_alive_secs: Option<u64>,
    #[serde(default)]
    llm: FileLlm,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLimits {
    max_bundle_bytes: Option<u64>,
    max_files: Option<usize>,
    max_unpacked_bytes: Option<u64>,
    download_timeout_secs: Option<u64>,
    download_attempts: Option<u32>,
}

/// Reads the file (if any) and applies the environment (`lookup`) over it.
pub fn load(
    path: Option<&Path>,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<Config, String> {
    let file: File = match path {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?
        }
        None => File::default(),
    };
    let env = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
    let switch = |name: &'static str, file: Option<bool>, default: bool| -> Result<bool, String> {
        match env(name) {
            Some(raw) => parse_switch(&raw)
                .ok_or_else(|| format!("{name}: must be true or false, not `{raw}`")),
            None => Ok(file.unwrap_or(default)),
        }
    };
    let number = |name: &'static str, file: Option<u64>, default: u64| -> Result<u64, String> {
        match env(name) {
            Some(raw) => raw
                .trim()
                .parse()
                .map_err(|_| format!("{name}: must be a whole number, not `{raw}`")),
            None => Ok(file.unwrap_or(default)),
        }
    };

    let deployment = Deployment::from_lookup(|name| env(name)).map_err(|e| e.to_string())?;
    let static_export = StaticExport {
        enabled: switch(
            "DOCS_EDGE_STATIC_EXPORT_ENABLED",
            file.static_export.enabled,
            true,
        )?,
        bundle_url: env("DOCS_EDGE_BUNDLE_URL").or(file.static_export.bundle_url),
        version: env("DOCS_EDGE_BUNDLE_VERSION").or(file.static_export.version),
        sha256: env("DOCS_EDGE_BUNDLE_SHA256")
            .or(file.static_export.sha256)
            .map(|s| s.trim().to_ascii_lowercase()),
    };
    if let Some(sha) = &static_export.sha256 {
        if sha.len() != 64 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err("static_export.sha256: must be 64 hex digits".into());
        }
    }
    let refresh_file = file.refresh.unwrap_or_default();
    let api_url = env("DOCS_EDGE_REFRESH_API_URL").or(refresh_file.api_url);
    let refresh = match api_url {
        None => None,
        Some(api_url) => {
            let domain = env("DOCS_EDGE_REFRESH_DOMAIN")
                .or(refresh_file.domain)
                .ok_or("refresh.domain: is required with refresh.api_url")?;
            let every = env("DOCS_EDGE_REFRESH_EVERY")
                .or(refresh_file.every)
                .unwrap_or_else(|| "1h".into());
            let every = parse_duration(&every).ok_or_else(|| {
                format!("refresh.every: `{every}` is not a duration such as 30s, 15m or 1h")
            })?;
            let admin_key = env("DOCS_EDGE_ADMIN_KEY").ok_or(
                "refresh: the admin key comes from DOCS_EDGE_ADMIN_KEY (environment only)",
            )?;
            let site_url = env("DOCS_EDGE_REFRESH_SITE_URL")
                .or(refresh_file.site_url)
                .map(|url| url.trim_end_matches('/').to_string());
            if let Some(url) = &site_url {
                reqwest::Url::parse(url)
                    .ok()
                    .filter(|u| matches!(u.scheme(), "http" | "https"))
                    .ok_or_else(|| format!("refresh.site_url: `{url}` is not an http(s) URL"))?;
            }
            Some(Refresh {
                api_url: api_url.trim_end_matches('/').to_string(),
                domain,
                every,
                admin_key,
                site_url,
            })
        }
    };
    let assistant_enabled = switch("DOCS_EDGE_ASSISTANT_ENABLED", file.assistant.enabled, false)?;
    let key_hashes = hash_list(
        env("DOCS_EDGE_ASSISTANT_KEY_SHA256"),
        file.assistant.key_sha256,
    );
    let admin_key_hashes = hash_list(env("DOCS_EDGE_ADMIN_KEY_SHA256"), file.admin.key_sha256);
    let allowed_origins = match env("DOCS_EDGE_ASSISTANT_ALLOWED_ORIGINS") {
        Some(list) => list
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        None => file.assistant.allowed_origins.unwrap_or_default(),
    };
    let allowed_origins = allowed_origins
        .iter()
        .map(|raw| {
            normalize_origin(raw).ok_or_else(|| {
                format!("assistant.allowed_origins: `{raw}` is not an origin such as https://docs.example.com (or https://*.example.com for its subdomains)")
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let search_cache_bytes = number(
        "DOCS_EDGE_SEARCH_CACHE_BYTES",
        file.assistant.search_cache_bytes,
        DEFAULT_SEARCH_CACHE_BYTES as u64,
    )?
    .min(1 << 32) as usize;
    let defaults = Limits::default();
    let limits = Limits {
        max_bundle_bytes: number(
            "DOCS_EDGE_MAX_BUNDLE_BYTES",
            file.limits.max_bundle_bytes,
            defaults.max_bundle_bytes,
        )?,
        max_files: number(
            "DOCS_EDGE_MAX_FILES",
            file.limits.max_files.map(|n| n as u64),
            defaults.max_files as u64,
        )? as usize,
        max_unpacked_bytes: number(
            "DOCS_EDGE_MAX_UNPACKED_BYTES",
            file.limits.max_unpacked_bytes,
            defaults.max_unpacked_bytes,
        )?,
        download_timeout: Duration::from_secs(number(
            "DOCS_EDGE_DOWNLOAD_TIMEOUT_SECS",
            file.limits.download_timeout_secs,
            defaults.download_timeout.as_secs(),
        )?),
        download_attempts: number(
            "DOCS_EDGE_DOWNLOAD_ATTEMPTS",
            file.limits.download_attempts.map(u64::from),
            3,
        )?
        .clamp(1, 10) as u32,
    };
    // Air-gapped: the bundle, the export API and the model must be on the operator's own network.
    let internal = env("INTERNAL_HOSTS").unwrap_or_default();
    let llm = file.assistant.llm;
    let backend = match env("DOCS_EDGE_ASSISTANT_BACKEND")
        .or(file.assistant.backend)
        .as_deref()
        .map(str::trim)
    {
        None | Some("extractive") => Backend::Extractive,
        Some("openai") => {
            let base_url = env("DOCS_EDGE_LLM_BASE_URL")
                .or(llm.base_url)
                .unwrap_or_else(|| "https://api.openai.com/v1".into());
            outbound_allowed(
                deployment.kind,
                "assistant.llm.base_url",
                Some(&base_url),
                &internal,
            )?;
            if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
                return Err(format!(
                    "assistant.llm.base_url: `{base_url}` is not an http(s) URL"
                ));
            }
            Backend::OpenAi(Llm {
                base_url: base_url.trim_end_matches('/').to_string(),
                model: env("DOCS_EDGE_LLM_MODEL")
                    .or(llm.model)
                    .ok_or("assistant.llm.model: is required with backend = \"openai\"")?,
                max_tokens: number("DOCS_EDGE_LLM_MAX_TOKENS", llm.max_tokens, 1024)?
                    .clamp(1, 1 << 20) as u32,
                api_key: env("DOCS_EDGE_LLM_API_KEY").map(Secret),
            })
        }
        Some(other) => {
            return Err(format!(
                "assistant.backend: `{other}` is not extractive or openai"
            ))
        }
    };
    let keep_alive = Duration::from_secs(
        number(
            "DOCS_EDGE_ASSISTANT_KEEPALIVE_SECS",
            file.assistant.keep_alive_secs,
            10,
        )?
        .clamp(1, 300),
    );
    if let Some(url) = &static_export.bundle_url {
        outbound_allowed(
            deployment.kind,
            "static_export.bundle_url",
            Some(url),
            &internal,
        )?;
    }
    if let Some(refresh) = &refresh {
        outbound_allowed(
            deployment.kind,
            "refresh.api_url",
            Some(&refresh.api_url),
            &internal,
        )?;
        outbound_allowed(
            deployment.kind,
            "refresh.site_url",
            refresh.site_url.as_deref(),
            &internal,
        )?;
    }
    let cache_dir = env("DOCS_EDGE_CACHE_DIR")
        .map(PathBuf::from)
        .or(file.cache_dir)
        .unwrap_or_else(|| ".docs-edge-serve".into());
    let storage_url = env("DOCS_EDGE_STORAGE_URL")
        .or(file.storage.url)
        .unwrap_or_else(|| {
            format!(
                "sqlite://{}?mode=rwc",
                cache_dir.join(DEFAULT_DATABASE).display()
            )
        });
    if !(storage_url.starts_with("sqlite:")
        || storage_url.starts_with("postgres://")
        || storage_url.starts_with("postgresql://"))
    {
        return Err("storage.url: must start with sqlite: or postgres://".into());
    }
    let storage = Storage {
        url: Secret(storage_url),
        thread_retention_days: number(
            "DOCS_EDGE_THREAD_RETENTION_DAYS",
            file.storage.thread_retention_days,
            90,
        )?
        .min(3650),
        analytics_retention_days: number(
            "DOCS_EDGE_ANALYTICS_RETENTION_DAYS",
            file.storage.analytics_retention_days,
            u64::from(DEFAULT_RETENTION_DAYS),
        )?
        .clamp(1, u64::from(MAX_RETENTION_DAYS)) as u32,
    };
    let masking = switch("DOCS_EDGE_PRIVACY_MASKING", file.privacy.masking, true)?;
    let privacy = match env("DOCS_EDGE_PRIVACY_MASK_PATTERNS") {
        Some(list) => Masker::from_list(masking, Some(&list)),
        None => Masker::new(
            masking,
            file.privacy
                .mask_patterns
                .iter()
                .flatten()
                .map(String::as_str),
        ),
    }
    .map_err(|rule| format!("privacy.mask_patterns: {rule}"))?;
    Ok(Config {
        listen: env("DOCS_EDGE_LISTEN")
            .or(file.listen)
            .unwrap_or_else(|| "127.0.0.1:8080".into()),
        cache_dir,
        static_export,
        refresh,
        assistant: Assistant {
            enabled: assistant_enabled,
            key_hashes,
            allowed_origins,
            search_cache_bytes,
            backend,
            keep_alive,
        },
        storage,
        admin_key_hashes,
        limits,
        deployment,
        internal_hosts: internal,
        privacy,
    })
}

/// A comma-separated environment list, or the file's list; lower-case hex.
fn hash_list(env: Option<String>, file: Option<Vec<String>>) -> Vec<String> {
    match env {
        Some(list) => list
            .split(',')
            .map(|s| s.trim().to_ascii_lowercase())
            .filter(|s| !s.is_empty())
            .collect(),
        None => file
            .unwrap_or_default()
            .iter()
            .map(|s| s.trim().to_ascii_lowercase())
            .collect(),
    }
}

/// `90`, `90s`, `15m`, `2h`, `1d`.
pub fn parse_duration(raw: &str) -> Option<Duration> {
    let raw = raw.trim();
    let split = raw.find(|c: char| !c.is_ascii_digit()).unwrap_or(raw.len());
    let (digits, unit) = raw.split_at(split);
    let n: u64 = digits.parse().ok()?;
    let secs = match unit {
        "" | "s" => n,
        "m" => n.checked_mul(60)?,
        "h" => n.checked_mul(3600)?,
        "d" => n.checked_mul(86_400)?,
        _ => return None,
    };
    (secs > 0).then(|| Duration::from_secs(secs))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn load_with(toml_text: &str, vars: &[(&str, &str)]) -> Result<Config, String> {
        let dir = std::env::temp_dir().join(format!(
            "serve-config-{}-{}",
            std::process::id(),
            toml_text.len()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.toml");
        std::fs::write(&path, toml_text).unwrap();
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        load(Some(&path), &|name| map.get(name).cloned())
    }

    #[test]
    fn file_values_and_environment_overrides() {
        let text = "listen = \"0.0.0.0:9000\"\n[static_export]\nenabled = true\nbundle_url = \"https://a/b\"\nversion = \"v1\"\n";
        let config = load_with(text, &[]).unwrap();
        assert_eq!(config.listen, "0.0.0.0:9000");
        assert_eq!(config.static_export.version.as_deref(), Some("v1"));
        assert!(config.refresh.is_none() && !config.assistant.enabled);
        let config = load_with(
            text,
            &[
                ("DOCS_EDGE_BUNDLE_URL", "https://c/d"),
                ("DOCS_EDGE_LISTEN", "127.0.0.1:1"),
            ],
        )
        .unwrap();
        assert_eq!(
            config.static_export.bundle_url.as_deref(),
            Some("https://c/d")
        );
        assert_eq!(config.listen, "127.0.0.1:1");
    }

    #[test]
    fn mistakes_name_the_key() {
        assert!(load_with("lisen = \"x\"", &[])
            .unwrap_err()
            .contains("lisen"));
        assert!(load_with("[static_export]\nsha256 = \"abc\"", &[])
            .unwrap_err()
            .contains("sha256"));
        let refresh = "[refresh]\napi_url = \"http://x\"\ndomain = \"d.example.com\"\n";
        assert!(load_with(refresh, &[])
            .unwrap_err()
            .contains("DOCS_EDGE_ADMIN_KEY"));
        let config = load_with(
            refresh,
            &[
                ("DOCS_EDGE_ADMIN_KEY", "svc_x"),
                ("DOCS_EDGE_REFRESH_EVERY", "15m"),
            ],
        )
        .unwrap();
        assert_eq!(config.refresh.unwrap().every, Duration::from_secs(900));
        assert!(
            load_with("", &[("DOCS_EDGE_STATIC_EXPORT_ENABLED", "perhaps")])
                .unwrap_err()
                .contains("ENABLED")
        );
        // Air-gapped: only hosts the operator declared internal.
        let gapped = [
            ("DEPLOYMENT_KIND", "air-gapped"),
            ("DOCS_EDGE_BUNDLE_URL", "https://docs-edge.example.com/b"),
        ];
        assert!(load_with("", &gapped)
            .unwrap_err()
            .contains("static_export.bundle_url"));
        let declared = [
            gapped[0],
            gapped[1],
            ("INTERNAL_HOSTS", "docs-edge.example.com"),
        ];
        assert!(load_with("", &declared).is_ok());
    }

    #[test]
    fn allowed_origins_are_normalized_and_checked() {
        let config = load_with(
            "[assistant]\nallowed_origins = [\"HTTPS://Docs.Example.com/\"]\n",
            &[],
        )
        .unwrap();
        assert_eq!(
            config.assistant.allowed_origins,
            ["https://docs.example.com"]
        );
        let config = load_with(
            "",
            &[(
                "DOCS_EDGE_ASSISTANT_ALLOWED_ORIGINS",
                "https://a.example.com, https://*.b.example.com",
            )],
        )
        .unwrap();
        assert_eq!(
            config.assistant.allowed_origins,
            ["https://a.example.com", "https://*.b.example.com"]
        );
        assert!(load_with(
            "[assistant]\nallowed_origins = [\"docs.example.com\"]\n",
            &[]
        )
        .unwrap_err()
        .contains("assistant.allowed_origins"));
    }

    #[test]
    fn the_llm_backend_from_the_file_and_the_environment() {
        let text = "[assistant]\nbackend = \"openai\"\n[assistant.llm]\nbase_url = \"http://llm.internal:8000/v1/\"\nmodel = \"qwen\"\n";
        let config = load_with(text, &[("DOCS_EDGE_LLM_API_KEY", "sk-secret-value")]).unwrap();
        let Backend::OpenAi(llm) = &config.assistant.backend else {
            panic!("openai expected")
        };
        assert_eq!(
            (llm.base_url.as_str(), llm.model.as_str(), llm.max_tokens),
            ("http://llm.internal:8000/v1", "qwen", 1024)
        );
        assert_eq!(
            llm.api_key.as_ref().map(Secret::expose),
            Some("sk-secret-value")
        );
        assert!(
            !format!("{config:?}").contains("sk-secret-value"),
            "the key never reaches a log line"
        );
        let moved = [
            ("DOCS_EDGE_LLM_BASE_URL", "http://gpu.internal/v1"),
            ("DOCS_EDGE_LLM_MODEL", "llama"),
        ];
        let Backend::OpenAi(llm) = load_with(text, &moved).unwrap().assistant.backend else {
            panic!("openai expected")
        };
        assert_eq!(
            (
                llm.base_url.as_str(),
                llm.model.as_str(),
                llm.api_key.is_none()
            ),
            ("http://gpu.internal/v1", "llama", true)
        );
        let back = load_with(text, &[("DOCS_EDGE_ASSISTANT_BACKEND", "extractive")]).unwrap();
        assert!(matches!(back.assistant.backend, Backend::Extractive));
        assert!(
            matches!(
                load_with("", &[]).unwrap().assistant.backend,
                Backend::Extractive
            ),
            "extractive by default"
        );
        assert!(load_with("[assistant]\nbackend = \"gpt\"", &[])
            .unwrap_err()
            .contains("assistant.backend"));
        let no_model = load_with("[assistant]\nbackend = \"openai\"", &[]).unwrap_err();
        assert!(no_model.contains("assistant.llm.model"), "{no_model}");
    }

    #[test]
    fn air_gapped_refuses_a_model_outside_the_internal_hosts_naming_it() {
        let text = "[assistant]\nbackend = \"openai\"\n[assistant.llm]\nbase_url = \"https://api.openai.com/v1\"\nmodel = \"m\"\n";
        let gapped = [
            ("DEPLOYMENT_KIND", "air-gapped"),
            ("INTERNAL_HOSTS", "llm.internal"),
        ];
        let refused = load_with(text, &gapped).unwrap_err();
        assert!(
            refused.contains("assistant.llm.base_url") && refused.contains("`api.openai.com`"),
            "{refused}"
        );
        let inside = [
            gapped[0],
            gapped[1],
            ("DOCS_EDGE_LLM_BASE_URL", "http://llm.internal:8000/v1"),
        ];
        assert!(load_with(text, &inside).is_ok());
        // Extractive answers call nothing: no host to declare.
        assert!(load_with("", &gapped[..1]).is_ok());
    }

    #[test]
    fn storage_defaults_to_a_sqlite_file_in_the_cache_and_admin_keys_are_hashes() {
        let config = load_with(
            "cache_dir = \"/var/cache/docs\"\n[admin]\nkey_sha256 = [\"ABC\"]\n",
            &[],
        )
        .unwrap();
        assert_eq!(
            config.storage.url.expose(),
            "sqlite:///var/cache/docs/docs-edge.db?mode=rwc"
        );
        assert_eq!(
            (
                config.storage.thread_retention_days,
                config.storage.analytics_retention_days
            ),
            (90, 90)
        );
        assert_eq!(config.admin_key_hashes, ["abc"]);
        let pg = [
            (
                "DOCS_EDGE_STORAGE_URL",
                "postgres://docs:pw@db.internal/docs",
            ),
            ("DOCS_EDGE_THREAD_RETENTION_DAYS", "0"),
        ];
        let config = load_with("", &pg).unwrap();
        assert_eq!(
            config.storage.url.expose(),
            "postgres://docs:pw@db.internal/docs"
        );
        assert_eq!(config.storage.thread_retention_days, 0);
        assert!(
            !format!("{config:?}").contains(":pw@"),
            "the database password never reaches a log line"
        );
        assert!(load_with("[storage]\nurl = \"mysql://x\"", &[])
            .unwrap_err()
            .contains("storage.url"));
    }

    #[test]
    fn masking_is_on_unless_switched_off_and_takes_the_operators_patterns() {
        let config = load_with("", &[]).unwrap();
        assert!(config.privacy.is_on());
        assert_eq!(
            config.privacy.mask("cust_123 a@b.io").as_str(),
            "cust_123 [email]"
        );
        let config = load_with("[privacy]\nmask_patterns = [\"cust_*\"]\n", &[]).unwrap();
        assert_eq!(config.privacy.mask("cust_123").as_str(), "[masked]");
        let config = load_with(
            "[privacy]\nmask_patterns = [\"cust_*\"]\n",
            &[("DOCS_EDGE_PRIVACY_MASK_PATTERNS", "emp-*, ord-#*")],
        )
        .unwrap();
        assert_eq!(
            config.privacy.mask("cust_1 emp-2 ord-3x").as_str(),
            "cust_1 [masked] [masked]"
        );
        assert!(!load_with("[privacy]\nmasking = false\n", &[])
            .unwrap()
            .privacy
            .is_on());
        let bad = load_with("[privacy]\nmask_patterns = [\"a*b\"]\n", &[]).unwrap_err();
        assert!(bad.starts_with("privacy.mask_patterns: `a*b`"), "{bad}");
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90"), Some(Duration::from_secs(90)));
        assert_eq!(parse_duration("2h"), Some(Duration::from_secs(7200)));
        assert_eq!(parse_duration("0s"), None);
        assert_eq!(parse_duration("5 weeks"), None);
    }
}
