//! The server's one piece of shared state: the configuration, the bundle being served (swapped
//! atomically as one `Arc`), and what the last load attempt said. Loads are serialised.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use serde::Serialize;
use tokio::sync::Mutex;

use crate::bundle::{self, LoadError, Unpacked, CACHED_ARCHIVE};
use crate::config::Config;

/// Where the live bundle came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Downloaded from its link in this process.
    Fresh,
    /// The archive kept from an earlier run: the link failed (expired, unreachable).
    Cached,
}

#[derive(Debug)]
pub struct Active {
    pub bundle: Unpacked,
    pub loaded_at: String,
    pub source: Source,
}

pub struct State {
    config: RwLock<Arc<Config>>,
    active: RwLock<Option<Arc<Active>>>,
    last_error: RwLock<Option<String>>,
    /// When the last download attempt finished (successful or not).
    last_attempt_at: RwLock<Option<String>>,
    /// What the refresh's last round that changed the bundle fetched.
    last_fetch: RwLock<Option<Fetched>>,
    loading: Mutex<()>,
    pub client: reqwest::Client,
    pub config_path: Option<PathBuf>,
    /// Opened once from the configuration at start; a SIGHUP does not move it.
    pub store: crate::storage::Store,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Health {
    pub status: &'static str,
    pub version: Option<String>,
    pub job_id: Option<String>,
    pub publish_id: Option<String>,
    pub domain: Option<String>,
    pub created_at: Option<String>,
    pub sha256: Option<String>,
    pub loaded_at: Option<String>,
    pub source: Option<Source>,
    pub last_attempt_at: Option<String>,
    pub last_refresh_error: Option<String>,
    pub deployment: docs_edge_core::platform::deployment::Deployment,
    /// What the live bundle's pages may do under this server's switches (`analytics`: the beacon
    /// may post, `playground`: the panel may call out) and the policy sent with them.
    pub pages: Option<crate::page_policy::PagePolicy>,
    /// What search holds of the live bundle's index (`None`: no index, or the discovery API is off).
    pub search: Option<crate::search_packs::SearchStats>,
    /// What the refresh's last round that changed the bundle fetched.
    pub last_fetch: Option<Fetched>,
}

/// What one refresh round fetched: by delta (the files it lacked) or the whole bundle.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Fetched {
    /// `delta` or `bundle`.
    pub mode: &'static str,
    /// Response body bytes received.
    pub bytes: u64,
    /// Requests that fetched a body.
    pub requests: u64,
    /// The bundle's files and their bytes.
    pub files: u64,
    pub file_bytes: u64,
}

impl State {
    pub fn new(config: Config, config_path: Option<PathBuf>) -> Result<Self, String> {
        // One TLS backend for the client (ring: no C toolchain beyond cc). Installed here, where the
        // client is built, because reqwest panics without one; a second install is a no-op.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder()
            .connect_timeout(std::time::Duration::from_secs(15))
            .redirect(reqwest::redirect::Policy::limited(5))
            .build()
            .map_err(|e| format!("HTTP client: {e}"))?;
        let store = crate::storage::Store::new(&config.storage).map_err(|e| e.0)?;
        Ok(Self {
            store,
            config: RwLock::new(Arc::new(config)),
            active: RwLock::new(None),
            last_error: RwLock::new(None),
            last_attempt_at: RwLock::new(None),
            last_fetch: RwLock::new(None),
            loading: Mutex::new(()),
            client,
            config_path,
        })
    }

    pub fn config(&self) -> Arc<Config> {
        self.config
            .read()
            .map(|c| c.clone())
            .unwrap_or_else(|p| p.into_inner().clone())
    }

    pub fn set_config(&self, config: Config) {
        if let Ok(mut slot) = self.config.write() {
            *slot = Arc::new(config);
        }
    }

    pub fn active(&self) -> Option<Arc<Active>> {
        self.active.read().ok().and_then(|a| a.clone())
    }

    pub fn health(&self) -> Health {
        let active = self.active();
        let config = self.config();
        let manifest = active.as_ref().map(|a| &a.bundle.manifest);
        Health {
            status: if active.is_some() { "ok" } else { "no_bundle" },
            version: manifest.and_then(|m| m.version.clone()),
            job_id: manifest.map(|m| m.job_id.clone()),
            publish_id: manifest.map(|m| m.publish_id.clone()),
            domain: manifest.map(|m| m.domain.clone()),
            created_at: manifest.map(|m| m.created_at.clone()),
            sha256: active.as_ref().map(|a| a.bundle.sha256.clone()),
            loaded_at: active.as_ref().map(|a| a.loaded_at.clone()),
            source: active.as_ref().map(|a| a.source),
            last_attempt_at: self.last_attempt_at.read().ok().and_then(|e| e.clone()),
            last_refresh_error: self.last_error.read().ok().and_then(|e| e.clone()),
            deployment: config.deployment,
            pages: manifest.map(|m| crate::page_policy::page_policy(m, &config)),
            search: active
                .as_ref()
                .and_then(|a| a.bundle.index.as_ref())
                .map(|index| index.stats()),
            last_fetch: self.last_fetch.read().ok().and_then(|f| f.clone()),
        }
    }

    pub fn set_fetched(&self, fetched: Fetched) {
        if let Ok(mut slot) = self.last_fetch.write() {
            *slot = Some(fetched);
        }
    }

    /// Serves the bundle `lay_out` assembles (`crate::delta`: a folder of links to its objects),
    /// named by `sha256`, once it passes a bundle's checks; on failure the folder is removed and the
    /// current bundle stays. Laid out under the loading lock, so no other load removes the folder
    /// while it is built.
    pub async fn load_laid_out(
        &self,
        sha256: String,
        lay_out: impl FnOnce() -> Result<PathBuf, String> + Send + 'static,
    ) -> Result<(), String> {
        let _guard = self.loading.lock().await;
        let config = self.config();
        let opened = {
            let config = config.clone();
            tokio::task::spawn_blocking(move || {
                let dir = lay_out().map_err(|e| LoadError::Io(std::io::Error::other(e)))?;
                let opened = bundle::open_dir(&dir, &sha256, &config);
                if opened.is_err() {
                    let _ = std::fs::remove_dir_all(&dir);
                }
                opened
            })
            .await
            .map_err(|e| LoadError::Io(std::io::Error::other(e.to_string())))
            .and_then(|r| r)
        };
        self.settle(&config, opened)
    }

    /// Downloads `url` and, if everything checks out, serves it. On failure the current bundle stays;
    /// with none yet, the cached archive of an earlier run is tried.
    pub async fn load_url(&self, url: &str, expected_sha256: Option<&str>) -> Result<(), String> {
        let _guard = self.loading.lock().await;
        let config = self.config();
        let outcome = self.fetch_and_unpack(&config, url, expected_sha256).await;
        let result = self.settle(&config, outcome);
        if result.is_err() && self.active().is_none() {
            self.load_cached(&config).await;
        }
        result
    }

    /// Serves a freshly unpacked bundle, or records why it was refused (the current one stays).
    fn settle(&self, config: &Config, outcome: Result<Unpacked, LoadError>) -> Result<(), String> {
        let result = match outcome {
            Ok(unpacked) => {
                self.activate(config, unpacked, Source::Fresh);
                self.set_error(None);
                Ok(())
            }
            Err(err) => {
                let message = err.to_string();
                self.set_error(Some(message.clone()));
                log("bundle_refused", &message, self.active().is_some());
                Err(message)
            }
        };
        self.note_attempt();
        result
    }

    async fn fetch_and_unpack(
        &self,
        config: &Arc<Config>,
        url: &str,
        expected: Option<&str>,
    ) -> Result<Unpacked, LoadError> {
        std::fs::create_dir_all(&config.cache_dir)?;
        let partial = config.cache_dir.join("download.partial");
        let sha256 = bundle::download(&self.client, url, &partial, config).await?;
        if let Some(expected) = expected {
            if !expected.eq_ignore_ascii_case(&sha256) {
                let _ = std::fs::remove_file(&partial);
                return Err(LoadError::Checksum {
                    expected: expected.to_string(),
                    actual: sha256,
                });
            }
        }
        let unpacked = self
            .unpack_blocking(config, partial.clone(), sha256)
            .await?;
        // Only an archive that passed every check replaces the cached one.
        std::fs::rename(&partial, config.cache_dir.join(CACHED_ARCHIVE))?;
        Ok(unpacked)
    }

    async fn unpack_blocking(
        &self,
        config: &Arc<Config>,
        archive: PathBuf,
        sha256: String,
    ) -> Result<Unpacked, LoadError> {
        let config = config.clone();
        let sites = config.cache_dir.join("sites");
        tokio::task::spawn_blocking(move || bundle::unpack(&archive, &sha256, &sites, &config))
            .await
            .map_err(|e| LoadError::Io(std::io::Error::other(e.to_string())))?
    }

    /// Serves the archive kept from an earlier run, when there is one and it still passes the checks
    /// (a pinned version included).
    pub async fn load_cached(&self, config: &Arc<Config>) {
        let archive = config.cache_dir.join(CACHED_ARCHIVE);
        if !archive.is_file() {
            return;
        }
        let outcome = async {
            let sha256 = bundle::file_sha256(&archive)?;
            self.unpack_blocking(config, archive.clone(), sha256).await
        }
        .await;
        match outcome {
            Ok(unpacked) => {
                eprintln!(
                    "{}",
                    serde_json::json!({"event": "serving_cached_bundle", "jobId": unpacked.manifest.job_id,
                        "version": unpacked.manifest.version, "reason": "the bundle link could not be used; serving the last good bundle"})
                );
                self.activate(config, unpacked, Source::Cached);
            }
            Err(err) => log("cached_bundle_refused", &err.to_string(), false),
        }
    }

    pub(crate) fn activate(&self, config: &Config, bundle: Unpacked, source: Source) {
        let dir = bundle.dir.clone();
        let active = Arc::new(Active {
            bundle,
            loaded_at: now_iso(),
            source,
        });
        eprintln!(
            "{}",
            serde_json::json!({"event": "bundle_live", "jobId": active.bundle.manifest.job_id, "version": active.bundle.manifest.version,
                "source": source, "pageCount": active.bundle.manifest.page_count})
        );
        let previous = self
            .active
            .write()
            .ok()
            .and_then(|mut slot| slot.replace(active));
        remove_old_sites(
            &config.cache_dir.join("sites"),
            &dir,
            previous.as_ref().map(|p| p.bundle.dir.as_path()),
        );
    }

    fn set_error(&self, error: Option<String>) {
        if let Ok(mut slot) = self.last_error.write() {
            *slot = error;
        }
    }

    fn note_attempt(&self) {
        if let Ok(mut slot) = self.last_attempt_at.write() {
            *slot = Some(now_iso());
        }
    }

    pub fn record_error(&self, error: String) {
        log("refresh_failed", &error, self.active().is_some());
        self.set_error(Some(error));
        self.note_attempt();
    }
}

/// Keeps the live directory and the one before it (requests may still be reading it).
fn remove_old_sites(sites: &Path, live: &Path, previous: Option<&Path>) {
    let Ok(entries) = std::fs::read_dir(sites) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path != live && Some(path.as_path()) != previous {
            let _ = std::fs::remove_dir_all(&path);
        }
    }
}

fn log(event: &str, error: &str, still_serving: bool) {
    eprintln!(
        "{}",
        serde_json::json!({"event": event, "error": error, "previousBundleStillServing": still_serving})
    );
}

pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_millis() as u64
}

/// ISO 8601 in UTC with milliseconds, as the API reports times.
pub fn now_iso() -> String {
    docs_edge_core::analytics::range::iso_of_ms(now_ms())
}
