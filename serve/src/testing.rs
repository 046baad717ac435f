//! Test helpers: configurations from a variable list, scratch directories, bundles built with core's
//! own tar writer, and a state serving one.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use docs_edge_core::export::{
    tar_gz_member, tar_gz_trailer, BundleManifest, ExportFile, MANIFEST_FORMAT,
};
use docs_edge_core::platform::deployment::Features;

use crate::config::Config;
use crate::state::{Source, State};

/// A configuration from the environment `vars` only (no file), its cache in `cache_dir`.
pub fn config_with(vars: &[(&str, &str)], cache_dir: &std::path::Path) -> Config {
    let mut map: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    // Through the lookup, so what defaults to a place in the cache (the database) is there too.
    map.insert(
        "DOCS_EDGE_CACHE_DIR".into(),
        cache_dir.display().to_string(),
    );
    crate::config::load(None, &|name| map.get(name).cloned()).expect("test configuration")
}

/// A fresh, empty directory of its own for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("serve-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

pub fn manifest(job_id: &str) -> BundleManifest {
    BundleManifest {
        format: MANIFEST_FORMAT,
        domain: "docs.example.com".into(),
        job_id: job_id.into(),
        version: None,
        versions: Vec::new(),
        publish_id: "p1".into(),
        created_at: "2026-11-22T10:00:00.000Z".into(),
        page_count: 1,
        features: Features::default(),
        content_security_policy: String::new(),
        beacon_endpoint: None,
        assistant: None,
        search_index: None,
        frame_origins: Vec::new(),
        image_origins: Vec::new(),
        support: None,
    }
}

/// A `.tar.gz` bundle of `files` plus the manifest.
pub fn bundle_bytes(manifest: &BundleManifest, files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut all: Vec<ExportFile> = files
        .iter()
        .map(|(p, b)| ExportFile {
            path: (*p).into(),
            bytes: b.to_vec(),
        })
        .collect();
    all.push(manifest.to_file());
    let mut out = tar_gz_member(&all, 1_700_000_000);
    out.extend(tar_gz_trailer());
    out
}

/// A state whose live bundle is `files` (unpacked as a load would), under `config`.
pub fn serving(config: Config, manifest: &BundleManifest, files: &[(&str, &[u8])]) -> Arc<State> {
    std::fs::create_dir_all(&config.cache_dir).expect("cache dir");
    let archive = config.cache_dir.join("fixture.tar.gz");
    std::fs::write(&archive, bundle_bytes(manifest, files)).expect("archive");
    let sha = crate::bundle::file_sha256(&archive).expect("sha");
    let unpacked = crate::bundle::unpack(&archive, &sha, &config.cache_dir.join("sites"), &config)
        .expect("unpacks");
    let state = Arc::new(State::new(config.clone(), None).expect("state"));
    state.activate(&config, unpacked, Source::Fresh);
    state
}

/// A database of its own on the PostgreSQL server `DOCS_EDGE_TEST_POSTGRES_URL` names (`npm test`
/// starts one and always sets it), for one test; [`ScratchPostgres::drop_database`] removes it.
pub struct ScratchPostgres {
    admin: sqlx::PgConnection,
    name: String,
    pub url: String,
}

impl ScratchPostgres {
    /// `None` (said on stderr) when the variable is unset: the PostgreSQL run is left out.
    pub async fn create(prefix: &str) -> Option<ScratchPostgres> {
        use sqlx::Connection;
        let Some(server) = std::env::var("DOCS_EDGE_TEST_POSTGRES_URL")
            .ok()
            .filter(|u| !u.is_empty())
        else {
            eprintln!("DOCS_EDGE_TEST_POSTGRES_URL is not set: the PostgreSQL run is left out (npm test starts a server and sets it)");
            return None;
        };
        let name = format!("{prefix}_{}_{}", std::process::id(), crate::state::now_ms());
        let mut admin = sqlx::PgConnection::connect(&server)
            .await
            .unwrap_or_else(|err| panic!("DOCS_EDGE_TEST_POSTGRES_URL: {err}"));
        sqlx::raw_sql(&format!("CREATE DATABASE {name}"))
            .execute(&mut admin)
            .await
            .unwrap();
        let mut url = reqwest::Url::parse(&server).unwrap();
        url.set_path(&name);
        Some(ScratchPostgres {
            admin,
            name,
            url: url.to_string(),
        })
    }

    pub async fn drop_database(mut self) {
        sqlx::raw_sql(&format!("DROP DATABASE {} WITH (FORCE)", self.name))
            .execute(&mut self.admin)
            .await
            .unwrap();
    }
}
