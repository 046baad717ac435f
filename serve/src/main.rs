//! `docs-edge-serve`: serves a static export bundle from its `bundleUrl` on a self-hosted machine.
//! `cargo run --release -p docs-edge-serve -- --config docs-edge-serve.toml`
//! (docs/self-hosting/serve.mdx).
//!
//! Modules: `config` (file and environment), `bundle` (download, verify, unpack), `state` (the live
//! bundle and health), `static_site` (HTTP serving), `refresh` (the export loop), `discovery` (search
//! and the assistant from the bundle), `answer` and `llm` (one answer, extractive or from an
//! OpenAI-compatible model), `storage` (threads, feedback, analytics) and `admin` (their reads).

mod admin;
mod answer;
#[cfg(test)]
mod answer_tests;
mod bundle;
mod config;
mod delta;
mod discovery;
mod discovery_error;
mod llm;
mod page_policy;
#[cfg(test)]
mod privacy_tests;
mod refresh;
mod search_packs;
mod state;
mod static_site;
mod storage;
#[cfg(test)]
mod storage_tests;
#[cfg(test)]
mod testing;

use std::path::PathBuf;
use std::sync::Arc;

use axum::routing::get;
use axum::{Json, Router};
use tower_http::compression::predicate::{DefaultPredicate, NotForContentType, Predicate};
use tower_http::compression::CompressionLayer;

use crate::state::State;

fn main() {
    let code = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime.block_on(run()),
        Err(err) => Err(format!("runtime: {err}")),
    };
    if let Err(err) = code {
        eprintln!(
            "{}",
            serde_json::json!({"event": "startup_failed", "error": err})
        );
        std::process::exit(1);
    }
}

fn config_path() -> Result<Option<PathBuf>, String> {
    let mut args = std::env::args().skip(1);
    let mut path = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--config" | "-c" => {
                path = Some(PathBuf::from(args.next().ok_or("--config needs a file")?))
            }
            other => {
                return Err(format!(
                    "unknown argument `{other}`; usage: docs-edge-serve [--config FILE]"
                ))
            }
        }
    }
    Ok(path.or_else(|| std::env::var_os("DOCS_EDGE_CONFIG").map(PathBuf::from)))
}

fn read_config(path: Option<&std::path::Path>) -> Result<config::Config, String> {
    config::load(path, &|name| std::env::var(name).ok())
}

async fn run() -> Result<(), String> {
    let path = config_path()?;
    let config = read_config(path.as_deref())?;
    let listen = config.listen.clone();
    std::fs::create_dir_all(&config.cache_dir)
        .map_err(|e| format!("cache_dir {}: {e}", config.cache_dir.display()))?;
    let state = Arc::new(State::new(config, path)?);
    // The database is reached and migrated before the server listens: a wrong URL stops the start.
    state.store.ready().await.map_err(|e| e.0)?;

    initial_load(&state).await;
    tokio::spawn(refresh::run(state.clone()));
    tokio::spawn(reload_on_sighup(state.clone()));
    tokio::spawn(retention(state.clone()));

    let app = app(state.clone());
    let listener = tokio::net::TcpListener::bind(&listen)
        .await
        .map_err(|e| format!("listen {listen}: {e}"))?;
    let local = listener
        .local_addr()
        .map(|a| a.to_string())
        .unwrap_or(listen);
    eprintln!(
        "{}",
        serde_json::json!({"event": "listening", "address": local})
    );
    axum::serve(listener, app)
        .await
        .map_err(|e| format!("server: {e}"))
}

/// Every route: health, the discovery API, and the bundle's files; compressed when the client accepts.
fn app(state: Arc<State>) -> Router {
    let compression = CompressionLayer::new().gzip(true).br(true).compress_when(
        DefaultPredicate::new()
            .and(NotForContentType::const_new("application/gzip"))
            .and(
                |_: axum::http::StatusCode,
                 _: axum::http::Version,
                 headers: &axum::http::HeaderMap,
                 _: &axum::http::Extensions| {
                    // A byte range is of the identity body; never recompress one.
                    !headers.contains_key(axum::http::header::CONTENT_RANGE)
                },
            ),
    );
    Router::new()
        .route("/_docs-edge/health", get(health))
        .merge(discovery::router())
        .merge(admin::router())
        .fallback(static_site::serve)
        .layer(compression)
        .with_state(state)
}

async fn health(
    axum::extract::State(state): axum::extract::State<Arc<State>>,
) -> Json<state::Health> {
    Json(state.health())
}

/// The configured bundle, or (static export on but no link, or the link failing) the cached one.
async fn initial_load(state: &Arc<State>) {
    let config = state.config();
    if !config.static_export.enabled || !config.deployment.features.static_export {
        return;
    }
    match &config.static_export.bundle_url {
        Some(url) => {
            let _ = state
                .load_url(url, config.static_export.sha256.as_deref())
                .await;
        }
        None => state.load_cached(&config).await,
    }
}

/// Hourly, as the worker's thread alarms and daily cron do: threads with no turn for
/// `thread_retention_days` (0: kept), analytics rows older than `analytics_retention_days`.
async fn retention(state: Arc<State>) {
    loop {
        let storage = state.config().storage.clone();
        let now = state::now_ms();
        let threads = (storage.thread_retention_days > 0)
            .then(|| now.saturating_sub(storage.thread_retention_days * 86_400_000));
        let rows =
            docs_edge_core::analytics::retention_cutoff_ms(now, storage.analytics_retention_days);
        match state.store.delete_expired(threads, rows).await {
            Ok(deleted) => eprintln!(
                "{}",
                serde_json::json!({"event": "retention", "deleted": deleted})
            ),
            Err(err) => eprintln!(
                "{}",
                serde_json::json!({"event": "retention_failed", "error": err.0})
            ),
        }
        tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
    }
}

/// SIGHUP: read the configuration again and load its bundle. A configuration that does not parse
/// keeps the old one (and says so in health).
async fn reload_on_sighup(state: Arc<State>) {
    let Ok(mut hangups) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())
    else {
        return;
    };
    while hangups.recv().await.is_some() {
        match read_config(state.config_path.as_deref()) {
            Ok(config) => {
                eprintln!("{}", serde_json::json!({"event": "config_reloaded"}));
                state.set_config(config);
                initial_load(&state).await;
            }
            Err(err) => state.record_error(format!("SIGHUP: configuration kept: {err}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::body::{to_bytes, Body};
    use axum::http::{header, Request, StatusCode};
    use tower::ServiceExt;

    use super::*;
    use crate::testing::{config_with, manifest, scratch, serving};

    const PAGE: &str = "<!doctype html><html><head><title>Guide</title></head><body>";

    fn site(name: &str, vars: &[(&str, &str)]) -> Router {
        let guide = format!(
            "{PAGE}{}</body></html>",
            "<p>Publish your docs with one upload.</p>".repeat(60)
        );
        let mut m = manifest("se_0123456789abcdef");
        m.beacon_endpoint =
            Some("https://api.example.com/discovery/v1/analytics/docs.example.com/events".into());
        let files: [(&str, &[u8]); 3] = [
            ("index.html", b"<p>home</p>"),
            ("guide.html", guide.as_bytes()),
            ("dir/index.html", b"<p>dir index</p>"),
        ];
        app(serving(config_with(vars, &scratch(name)), &m, &files))
    }

    async fn get(app: &Router, path: &str, headers: &[(&str, &str)]) -> axum::response::Response {
        let mut req = Request::get(path);
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        app.clone()
            .oneshot(req.body(Body::empty()).unwrap())
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn brotli_when_accepted_and_identity_otherwise() {
        let app = site("brotli", &[]);
        let plain = get(&app, "/guide", &[]).await;
        assert_eq!(plain.status(), StatusCode::OK);
        assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
        let plain = to_bytes(plain.into_body(), usize::MAX).await.unwrap();
        let br = get(&app, "/guide", &[("accept-encoding", "br")]).await;
        assert_eq!(br.status(), StatusCode::OK);
        assert_eq!(br.headers().get(header::CONTENT_ENCODING).unwrap(), "br");
        let squeezed = to_bytes(br.into_body(), usize::MAX).await.unwrap();
        assert!(
            !squeezed.is_empty() && squeezed.len() < plain.len() / 4,
            "{} of {}",
            squeezed.len(),
            plain.len()
        );
        // A client that offers only gzip gets gzip.
        let gzip = get(&app, "/guide", &[("accept-encoding", "gzip")]).await;
        assert_eq!(
            gzip.headers().get(header::CONTENT_ENCODING).unwrap(),
            "gzip"
        );
    }

    #[tokio::test]
    async fn a_directory_url_serves_its_index() {
        let app = site("dir", &[]);
        let res = get(&app, "/dir/", &[]).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/html"));
        assert_eq!(
            to_bytes(res.into_body(), usize::MAX).await.unwrap(),
            "<p>dir index</p>"
        );
        let root = get(&app, "/", &[]).await;
        assert_eq!(
            to_bytes(root.into_body(), usize::MAX).await.unwrap(),
            "<p>home</p>"
        );
    }

    #[tokio::test]
    async fn the_policy_and_health_follow_this_servers_switches() {
        let csp = |res: &axum::response::Response| {
            res.headers()[header::CONTENT_SECURITY_POLICY]
                .to_str()
                .unwrap()
                .to_string()
        };
        let on = site("policy-on", &[]);
        assert!(csp(&get(&on, "/guide", &[]).await).contains("connect-src 'self' https: http:;"));
        let off = site("policy-off", &[("FEATURE_ANALYTICS", "false")]);
        let policy = csp(&get(&off, "/guide", &[]).await);
        assert!(policy.contains("connect-src 'self';"), "{policy}");
        let health = get(&off, "/_docs-edge/health", &[]).await;
        let health: serde_json::Value =
            serde_json::from_slice(&to_bytes(health.into_body(), usize::MAX).await.unwrap())
                .unwrap();
        assert_eq!(health["pages"]["analytics"], false);
        assert_eq!(health["pages"]["playground"], false);
        assert_eq!(health["pages"]["contentSecurityPolicy"], policy);
    }

    #[tokio::test]
    async fn the_sites_redirects_answer_308_or_307_with_a_location_relative_to_the_request() {
        let rules = "# the site's redirects\n/old /guide 308\n/temp /dir/ 307\n/blog/* /dir/:splat 308\n/zh/old /zh/新#变量 308\n/away https://x.dev/y 308\n/guide /elsewhere 308\n";
        let files: [(&str, &[u8]); 4] = [
            ("_redirects", rules.as_bytes()),
            ("index.html", b"<p>home</p>"),
            ("guide.html", PAGE.as_bytes()),
            ("dir/index.html", b"<p>dir index</p>"),
        ];
        let app = app(serving(
            config_with(&[], &scratch("redirects")),
            &manifest("se_0123456789abcdef"),
            &files,
        ));
        for (path, status, location) in [
            ("/old", 308, "guide"),
            ("/old/", 308, "../guide"),
            ("/temp", 307, "dir/"),
            ("/blog/a/b", 308, "../../dir/a/b"),
            ("/zh/old", 308, "%E6%96%B0#%E5%8F%98%E9%87%8F"),
            ("/away", 308, "https://x.dev/y"),
            ("/guide", 308, "elsewhere"),
        ] {
            let res = get(&app, path, &[]).await;
            assert_eq!(res.status().as_u16(), status, "{path}");
            assert_eq!(res.headers()[header::LOCATION], location, "{path}");
        }
        let head = app
            .clone()
            .oneshot(Request::head("/old").body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(head.status(), StatusCode::PERMANENT_REDIRECT);
        assert_eq!(
            get(&app, "/dir/", &[]).await.status(),
            StatusCode::OK,
            "what no rule names is served"
        );
        assert_eq!(
            get(&app, "/_redirects", &[]).await.status(),
            StatusCode::NOT_FOUND,
            "the rules are not a page"
        );
    }
}
