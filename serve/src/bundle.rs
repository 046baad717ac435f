//! Getting a bundle live: download (streamed to disk, size cap, timeout, retries with backoff, SHA-256
//! on the way), verify and unpack with core's archive rules into a fresh directory, read its manifest,
//! check the pinned version. Only a bundle that passes all of it replaces the one being served; the
//! archive that passed is kept as `bundle.tar.gz` so a restart can serve it after its link expired.

use std::fs;
use std::io::{self, BufReader};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use docs_edge_core::docs::archive::{for_each_archive_file, ArchiveError, ArchiveLimits};
use std::sync::Arc;

use docs_edge_core::export::redirects::{self, Rule, REDIRECTS_FILE};
use docs_edge_core::export::{BundleManifest, SearchIndexFormat, MANIFEST_FILE, SEARCH_INDEX_FILE};
use docs_edge_core::security::signing::to_hex;
use futures_util::StreamExt;
use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;

use crate::config::Config;
use crate::search_packs::{split_whole_index, PackIndex};

/// What went wrong, as health and the log show it.
#[derive(Debug)]
pub enum LoadError {
    Download(String),
    Checksum {
        expected: String,
        actual: String,
    },
    Archive(ArchiveError),
    Manifest(String),
    VersionMismatch {
        pinned: String,
        found: Option<String>,
    },
    Io(io::Error),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Download(reason) => write!(f, "download failed: {reason}"),
            Self::Checksum { expected, actual } => {
                write!(f, "archive SHA-256 is {actual}, expected {expected}")
            }
            Self::Archive(err) => write!(f, "archive refused: {err}"),
            Self::Manifest(reason) => write!(f, "bundle manifest: {reason}"),
            Self::VersionMismatch { pinned, found } => write!(
                f,
                "bundle is version {}, the configuration pins {pinned}",
                found.as_deref().unwrap_or("(unversioned)")
            ),
            Self::Io(err) => write!(f, "disk: {err}"),
        }
    }
}

impl From<ArchiveError> for LoadError {
    fn from(err: ArchiveError) -> Self {
        Self::Archive(err)
    }
}

impl From<io::Error> for LoadError {
    fn from(err: io::Error) -> Self {
        Self::Io(err)
    }
}

/// An unpacked, verified bundle.
#[derive(Debug, Clone)]
pub struct Unpacked {
    pub dir: PathBuf,
    pub manifest: BundleManifest,
    pub sha256: String,
    /// The bundle's search index, opened when the discovery API is on.
    pub index: Option<Arc<PackIndex>>,
    /// The rules of its `_redirects` file (the site's redirects), answered before its files.
    pub redirects: Vec<Rule>,
}

pub const CACHED_ARCHIVE: &str = "bundle.tar.gz";

/// Downloads `url` to `dest`, returning the SHA-256 of what was written.
pub async fn download(
    client: &reqwest::Client,
    url: &str,
    dest: &Path,
    config: &Config,
) -> Result<String, LoadError> {
    let attempts = config.limits.download_attempts;
    let mut last = String::new();
    for attempt in 1..=attempts {
        match download_once(client, url, dest, config).await {
            Ok(sha) => return Ok(sha),
            Err(Attempt::Final(reason)) => return Err(LoadError::Download(reason)),
            Err(Attempt::Retry(reason)) => {
                eprintln!(
                    "{}",
                    serde_json::json!({"event": "download_retry", "attempt": attempt, "of": attempts, "error": reason})
                );
                last = reason;
            }
        }
        if attempt < attempts {
            tokio::time::sleep(Duration::from_millis(500u64 << attempt.min(6))).await;
        }
    }
    Err(LoadError::Download(format!(
        "{last} (after {attempts} attempts)"
    )))
}

enum Attempt {
    Retry(String),
    Final(String),
}

async fn download_once(
    client: &reqwest::Client,
    url: &str,
    dest: &Path,
    config: &Config,
) -> Result<String, Attempt> {
    let cap = config.limits.max_bundle_bytes;
    let response = client
        .get(url)
        .timeout(config.limits.download_timeout)
        .send()
        .await
        .map_err(|e| Attempt::Retry(describe(&e)))?;
    let status = response.status();
    if !status.is_success() {
        let reason = format!("the bundle URL answered {status}");
        // An expired or forged link, or a job that is gone, stays that way.
        return Err(if status.is_client_error() {
            Attempt::Final(reason)
        } else {
            Attempt::Retry(reason)
        });
    }
    if response.content_length().is_some_and(|len| len > cap) {
        return Err(Attempt::Final(format!(
            "the bundle is larger than max_bundle_bytes ({cap})"
        )));
    }
    let mut file = tokio::fs::File::create(dest)
        .await
        .map_err(|e| Attempt::Final(format!("{}: {e}", dest.display())))?;
    let mut hasher = Sha256::new();
    let mut written = 0u64;
    let mut body = response.bytes_stream();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| Attempt::Retry(describe(&e)))?;
        written += chunk.len() as u64;
        if written > cap {
            return Err(Attempt::Final(format!(
                "the bundle is larger than max_bundle_bytes ({cap})"
            )));
        }
        hasher.update(&chunk);
        file.write_all(&chunk)
            .await
            .map_err(|e| Attempt::Final(format!("{}: {e}", dest.display())))?;
    }
    file.sync_all()
        .await
        .map_err(|e| Attempt::Final(e.to_string()))?;
    Ok(to_hex(&hasher.finalize()))
}

/// The URL is a secret (its signature); errors name the failure, never the link.
fn describe(err: &reqwest::Error) -> String {
    let kind = if err.is_timeout() {
        "timed out"
    } else if err.is_connect() {
        "could not connect"
    } else if err.is_body() || err.is_decode() {
        "the body broke off"
    } else {
        "request failed"
    };
    let mut source = std::error::Error::source(err);
    let mut detail = String::new();
    while let Some(inner) = source {
        detail = inner.to_string();
        source = inner.source();
    }
    if detail.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}: {detail}")
    }
}

pub fn file_sha256(path: &Path) -> io::Result<String> {
    let mut hasher = Sha256::new();
    io::copy(&mut BufReader::new(fs::File::open(path)?), &mut hasher)?;
    Ok(to_hex(&hasher.finalize()))
}

/// Verifies and unpacks `archive` into a new directory under `sites`; blocking (run it off the
/// async threads). On any failure the half-written directory is removed.
pub fn unpack(
    archive: &Path,
    sha256: &str,
    sites: &Path,
    config: &Config,
) -> Result<Unpacked, LoadError> {
    fs::create_dir_all(sites)?;
    let stamp = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos();
    let dir = sites.join(format!("{}-{stamp}", &sha256[..sha256.len().min(16)]));
    let result = unpack_into(archive, &dir, config).and_then(|()| open_dir(&dir, sha256, config));
    if result.is_err() {
        let _ = fs::remove_dir_all(&dir);
    }
    result
}

/// A bundle's files laid out in `dir` (unpacked, or assembled by `crate::delta`), checked as a
/// bundle: its manifest, its `index.html`, the pinned version; its search index and redirects read.
/// The caller removes `dir` on failure.
pub fn open_dir(dir: &Path, sha256: &str, config: &Config) -> Result<Unpacked, LoadError> {
    let bytes = fs::read(dir.join(MANIFEST_FILE))
        .map_err(|_| LoadError::Manifest(format!("the bundle has no {MANIFEST_FILE}")))?;
    let manifest = BundleManifest::parse(&bytes).map_err(LoadError::Manifest)?;
    if !dir.join("index.html").is_file() {
        return Err(LoadError::Manifest("the bundle has no index.html".into()));
    }
    if let Some(pinned) = &config.static_export.version {
        if manifest.version.as_deref() != Some(pinned.as_str()) {
            return Err(LoadError::VersionMismatch {
                pinned: pinned.clone(),
                found: manifest.version,
            });
        }
    }
    let index = read_index(dir, &manifest, config)?;
    // Bundles made before redirects were exported have no such file.
    let redirects = fs::read_to_string(dir.join(REDIRECTS_FILE))
        .map(|text| redirects::parse(&text))
        .unwrap_or_default();
    Ok(Unpacked {
        dir: dir.to_path_buf(),
        manifest,
        sha256: sha256.to_string(),
        index,
        redirects,
    })
}

/// The bundle's search index: its packs, or (bundles made before them) its whole index split into
/// packs first; `None` when it carries neither or the discovery API is off.
fn read_index(
    dir: &Path,
    manifest: &BundleManifest,
    config: &Config,
) -> Result<Option<Arc<PackIndex>>, LoadError> {
    if !config.assistant.enabled {
        return Ok(None);
    }
    if manifest.search_index != Some(SearchIndexFormat::Packs) {
        if !dir.join(SEARCH_INDEX_FILE).is_file() {
            return Ok(None);
        }
        split_whole_index(dir).map_err(LoadError::Manifest)?;
    }
    let index =
        PackIndex::open(dir, config.assistant.search_cache_bytes).map_err(LoadError::Manifest)?;
    Ok(Some(Arc::new(index)))
}

fn unpack_into(archive: &Path, dir: &Path, config: &Config) -> Result<(), LoadError> {
    let limits = ArchiveLimits {
        max_files: config.limits.max_files,
        max_total_bytes: config.limits.max_unpacked_bytes,
        max_file_bytes: config.limits.max_unpacked_bytes,
        // A bundle's media (the site's images, videos) count like its pages: one bound for all.
        max_media_file_bytes: config.limits.max_unpacked_bytes,
        max_site_bytes: config.limits.max_unpacked_bytes,
    };
    fs::create_dir_all(dir)?;
    let reader = BufReader::new(fs::File::open(archive)?);
    for_each_archive_file(reader, &limits, |path, data, _size| {
        // Core refused `..`, absolute paths and links; the path is relative and stays inside `dir`.
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent)?;
        }
        let mut file = fs::File::create_new(&target)?;
        io::copy(data, &mut file)?;
        Ok::<(), LoadError>(())
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use docs_edge_core::export::{tar_gz_member, tar_gz_trailer, ExportFile, MANIFEST_FORMAT};
    use docs_edge_core::platform::deployment::Features;

    use super::*;

    fn config(version: Option<&str>) -> Config {
        let mut config = crate::config::load(None, &|_| None).unwrap();
        config.static_export.version = version.map(str::to_string);
        config
    }

    fn bundle(version: Option<&str>) -> Vec<u8> {
        let manifest = BundleManifest {
            format: MANIFEST_FORMAT,
            domain: "docs.example.com".into(),
            job_id: "se_0123456789abcdef".into(),
            version: version.map(str::to_string),
            versions: version.map(str::to_string).into_iter().collect(),
            publish_id: "p1".into(),
            created_at: "2026-11-22T10:00:00.000Z".into(),
            page_count: 1,
            features: Features::default(),
            content_security_policy: "default-src 'self'".into(),
            beacon_endpoint: None,
            assistant: None,
            search_index: None,
            frame_origins: Vec::new(),
            image_origins: Vec::new(),
            support: None,
        };
        let files = vec![
            ExportFile {
                path: "index.html".into(),
                bytes: b"<p>home</p>".to_vec(),
            },
            ExportFile {
                path: "a/b.html".into(),
                bytes: b"b".to_vec(),
            },
            manifest.to_file(),
        ];
        let mut out = tar_gz_member(&files, 1_700_000_000);
        out.extend(tar_gz_trailer());
        out
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("serve-bundle-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn unpacks_a_multi_member_bundle_and_reads_its_manifest() {
        let dir = scratch("ok");
        let archive = dir.join("b.tar.gz");
        fs::write(&archive, bundle(Some("v2"))).unwrap();
        let sha = file_sha256(&archive).unwrap();
        let unpacked = unpack(&archive, &sha, &dir.join("sites"), &config(Some("v2"))).unwrap();
        assert_eq!(
            fs::read_to_string(unpacked.dir.join("a/b.html")).unwrap(),
            "b"
        );
        assert_eq!(unpacked.manifest.version.as_deref(), Some("v2"));
    }

    #[test]
    fn a_pinned_version_mismatch_and_a_broken_archive_leave_nothing_behind() {
        let dir = scratch("bad");
        let archive = dir.join("b.tar.gz");
        fs::write(&archive, bundle(Some("v1"))).unwrap();
        let sites = dir.join("sites");
        let err = unpack(&archive, "00", &sites, &config(Some("v2"))).unwrap_err();
        assert!(matches!(err, LoadError::VersionMismatch { .. }), "{err}");
        let mut tampered = bundle(None);
        let middle = tampered.len() / 2;
        tampered[middle] ^= 0xff;
        fs::write(&archive, tampered).unwrap();
        assert!(unpack(&archive, "00", &sites, &config(None)).is_err());
        assert_eq!(fs::read_dir(&sites).unwrap().count(), 0);
    }
}

/// The download against a local HTTP server misbehaving on purpose: each failure must leave the
/// bundle being served (and the cached archive) as they were.
#[cfg(test)]
mod download_tests {
    use std::convert::Infallible;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::Instant;

    use axum::body::Body;
    use axum::extract::State as AxumState;
    use axum::http::{header, StatusCode};
    use axum::response::{IntoResponse, Response};
    use axum::routing::get;
    use axum::Router;
    use futures_util::stream;

    use crate::state::State;
    use crate::testing::{bundle_bytes, config_with, manifest, scratch};

    const CAP: u64 = 64 * 1024;

    struct Origin {
        good: Vec<u8>,
        hits: [AtomicUsize; 4],
    }

    fn hit(origin: &Origin, i: usize) -> usize {
        origin.hits[i].fetch_add(1, Ordering::SeqCst) + 1
    }

    /// `/good`: a valid bundle; `/big-length`: over the cap, announced by Content-Length;
    /// `/big-chunked`: over the cap, chunked (no length); `/flaky`: 503 once, then the bundle;
    /// `/gone`: 403 (an expired link); `/stall`: a few bytes, then nothing.
    async fn origin() -> (String, Arc<Origin>) {
        let good = bundle_bytes(
            &manifest("se_good000000000000"),
            &[("index.html", b"<p>good</p>")],
        );
        let origin = Arc::new(Origin {
            good,
            hits: Default::default(),
        });
        let big = || vec![7u8; CAP as usize + 1];
        let app = Router::new()
            .route(
                "/good",
                get(|AxumState(o): AxumState<Arc<Origin>>| async move { o.good.clone() }),
            )
            .route("/big-length", get(move || async move { big() }))
            .route(
                "/big-chunked",
                get(|| async {
                    // Many small chunks and no Content-Length: only counting the bytes can stop it.
                    let chunks = stream::iter(
                        (0..(CAP / 1024 + 8)).map(|_| Ok::<_, Infallible>(vec![7u8; 1024])),
                    );
                    Body::from_stream(chunks)
                }),
            )
            .route(
                "/flaky",
                get(|AxumState(o): AxumState<Arc<Origin>>| async move {
                    if hit(&o, 0) == 1 {
                        StatusCode::SERVICE_UNAVAILABLE.into_response()
                    } else {
                        o.good.clone().into_response()
                    }
                }),
            )
            .route(
                "/gone",
                get(|AxumState(o): AxumState<Arc<Origin>>| async move {
                    hit(&o, 1);
                    StatusCode::FORBIDDEN
                }),
            )
            .route(
                "/stall",
                get(|AxumState(o): AxumState<Arc<Origin>>| async move {
                    hit(&o, 2);
                    let first = stream::once(async { Ok::<_, Infallible>(vec![0x1f, 0x8b]) });
                    let body =
                        Body::from_stream(futures_util::StreamExt::chain(first, stream::pending()));
                    Response::builder()
                        .header(header::CONTENT_LENGTH, "4096")
                        .body(body)
                        .unwrap()
                }),
            )
            .with_state(origin.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        (base, origin)
    }

    /// A server state with a 1 s timeout, two attempts and the cap, already serving `/good`.
    async fn serving_good(name: &str, base: &str) -> State {
        let vars = [
            ("DOCS_EDGE_MAX_BUNDLE_BYTES", "65536"),
            ("DOCS_EDGE_DOWNLOAD_TIMEOUT_SECS", "1"),
            ("DOCS_EDGE_DOWNLOAD_ATTEMPTS", "2"),
        ];
        let state = State::new(config_with(&vars, &scratch(name)), None).unwrap();
        state.load_url(&format!("{base}/good"), None).await.unwrap();
        state
    }

    fn still_good(state: &State) {
        let active = state.active().expect("a bundle is still served");
        assert_eq!(active.bundle.manifest.job_id, "se_good000000000000");
        let cached = state.config().cache_dir.join(super::CACHED_ARCHIVE);
        assert_eq!(
            super::file_sha256(&cached).unwrap(),
            active.bundle.sha256,
            "the cached archive is the good one"
        );
    }

    #[tokio::test]
    async fn over_the_cap_is_refused_with_or_without_a_content_length() {
        let (base, _) = origin().await;
        let state = serving_good("cap", &base).await;
        for path in ["/big-length", "/big-chunked"] {
            let err = state
                .load_url(&format!("{base}{path}"), None)
                .await
                .unwrap_err();
            assert!(
                err.contains("larger than max_bundle_bytes"),
                "{path}: {err}"
            );
            assert!(
                !err.contains("after"),
                "{path}: a size refusal is not retried: {err}"
            );
            still_good(&state);
            assert_eq!(
                state.health().last_refresh_error.as_deref(),
                Some(err.as_str())
            );
        }
    }

    #[tokio::test]
    async fn a_5xx_is_retried_and_then_succeeds() {
        let (base, origin) = origin().await;
        let state = State::new(
            config_with(
                &[
                    ("DOCS_EDGE_DOWNLOAD_ATTEMPTS", "3"),
                    ("DOCS_EDGE_DOWNLOAD_TIMEOUT_SECS", "5"),
                ],
                &scratch("flaky"),
            ),
            None,
        )
        .unwrap();
        state
            .load_url(&format!("{base}/flaky"), None)
            .await
            .unwrap();
        assert_eq!(
            origin.hits[0].load(Ordering::SeqCst),
            2,
            "one 503, then the bundle"
        );
        assert_eq!(
            state.active().unwrap().bundle.manifest.job_id,
            "se_good000000000000"
        );
        assert_eq!(state.health().last_refresh_error, None);
    }

    #[tokio::test]
    async fn a_4xx_is_not_retried() {
        let (base, origin) = origin().await;
        let state = serving_good("gone", &base).await;
        let err = state
            .load_url(&format!("{base}/gone"), None)
            .await
            .unwrap_err();
        assert!(err.contains("403"), "{err}");
        assert_eq!(
            origin.hits[1].load(Ordering::SeqCst),
            1,
            "an expired link is asked once"
        );
        still_good(&state);
    }

    #[tokio::test]
    async fn a_stalled_body_hits_the_timeout_on_every_attempt() {
        let (base, origin) = origin().await;
        let state = serving_good("stall", &base).await;
        let started = Instant::now();
        let err = state
            .load_url(&format!("{base}/stall"), None)
            .await
            .unwrap_err();
        assert!(
            err.contains("timed out") && err.contains("after 2 attempts"),
            "{err}"
        );
        assert_eq!(origin.hits[2].load(Ordering::SeqCst), 2);
        // Two 1 s timeouts and one backoff of 1 s, not the origin's "forever".
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "{:?}",
            started.elapsed()
        );
        still_good(&state);
    }
}
