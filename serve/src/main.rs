//! `docs-edge-serve`: serves a static export bundle from its `bundleUrl` on a self-hosted machine.
//! `cargo run --release -p docs-edge-serve -- --config docs-edge-serve.toml` (README "Self-hosting").
//!
//! Modules: `config` (file and environment), `bundle` (download, verify, unpack), `state` (the live
//! bundle and health), `static_site` (HTTP serving), `refresh` (the export loop) and `discovery` (search and the assistant from the bundle).

mod bundle;
mod config;
mod discovery;
mod refresh;
mod state;
mod static_site;

use std::path::PathBuf;
use std::sync::Arc;

use axum::routing::get;
use axum::{Json, Router};
use tower_http::compression::predicate::{DefaultPredicate, NotForContentType, Predicate};
use tower_http::compression::CompressionLayer;

use crate::state::State;

fn main() {
    let code = match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build() {
        Ok(runtime) => runtime.block_on(run()),
        Err(err) => Err(format!("runtime: {err}")),
    };
    if let Err(err) = code {
        eprintln!("{}", serde_json::json!({"event": "startup_failed", "error": err}));
        std::process::exit(1);
    }
}

fn config_path() -> Result<Option<PathBuf>, String> {
    let mut args = std::env::args().skip(1);
    let mut path = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--config" | "-c" => path = Some(PathBuf::from(args.next().ok_or("--config needs a file")?)),
            other => return Err(format!("unknown argument `{other}`; usage: docs-edge-serve [--config FILE]")),
        }
    }
    Ok(path.or_else(|| std::env::var_os("DOCS_EDGE_CONFIG").map(PathBuf::from)))
}

fn read_config(path: Option<&std::path::Path>) -> Result<config::Config, String> {
    config::load(path, &|name| std::env::var(name).ok())
}

async fn run() -> Result<(), String> {
    // One TLS backend for the client, chosen here (ring: no C toolchain beyond cc).
    let _ = rustls::crypto::ring::default_provider().install_default();
    let path = config_path()?;
    let config = read_config(path.as_deref())?;
    let listen = config.listen.clone();
    let state = Arc::new(State::new(config, path)?);

    initial_load(&state).await;
    tokio::spawn(refresh::run(state.clone()));
    tokio::spawn(reload_on_sighup(state.clone()));

    let compression = CompressionLayer::new().gzip(true).br(true).compress_when(
        DefaultPredicate::new()
            .and(NotForContentType::const_new("application/gzip"))
            .and(|_: axum::http::StatusCode, _: axum::http::Version, headers: &axum::http::HeaderMap, _: &axum::http::Extensions| {
                // A byte range is of the identity body; never recompress one.
                !headers.contains_key(axum::http::header::CONTENT_RANGE)
            }),
    );
    let app = Router::new()
        .route("/_docs-edge/health", get(health))
        .merge(discovery::router())
        .fallback(static_site::serve)
        .layer(compression)
        .with_state(state.clone());
    let listener = tokio::net::TcpListener::bind(&listen).await.map_err(|e| format!("listen {listen}: {e}"))?;
    let local = listener.local_addr().map(|a| a.to_string()).unwrap_or(listen);
    eprintln!("{}", serde_json::json!({"event": "listening", "address": local}));
    axum::serve(listener, app).await.map_err(|e| format!("server: {e}"))
}

async fn health(axum::extract::State(state): axum::extract::State<Arc<State>>) -> Json<state::Health> {
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
            let _ = state.load_url(url, config.static_export.sha256.as_deref()).await;
        }
        None => state.load_cached(&config).await,
    }
}

/// SIGHUP: read the configuration again and load its bundle. A configuration that does not parse
/// keeps the old one (and says so in health).
async fn reload_on_sighup(state: Arc<State>) {
    let Ok(mut hangups) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()) else {
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
