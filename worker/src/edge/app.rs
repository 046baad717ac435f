//! The request pipeline: request id, routing (the table is `docs_edge_core::http::routes`), CORS, the
//! log line. The top of the worker's module graph: it imports `crate::edge::routes`, which import the
//! request context from `crate::edge::context` and never this module; errors become responses in
//! `crate::shared::error`.

use std::any::Any;
use std::panic::AssertUnwindSafe;

use docs_edge_core::http::routes::{match_route, Gate, Route, RouteError};
use futures_util::FutureExt;
use worker::{Context, Env, Request, Response};

use crate::edge::context::Call;
use crate::edge::{cors, routes};
use crate::shared::clock::now_ms;
use crate::shared::config::Config;
use crate::shared::error::{error_response, ApiError, ApiResult};
use crate::shared::random;

pub async fn handle(req: Request, env: Env, ctx: Context) -> Response {
    let started = now_ms();
    let request_id = random::random_id("req_", 8).unwrap_or_else(|_| "req_unavailable".into());
    let method = req.method().to_string();
    let path = req.path();
    let cors = cors::applies_to(&path);

    let (result, extra_headers) = if cors && method == "OPTIONS" {
        (cors::preflight().map_err(ApiError::from), Vec::new())
    } else {
        match match_route(&method, &path) {
            Ok(matched) => {
                let config = Config::from_env(&env);
                let mut call = Call {
                    req,
                    env,
                    ctx,
                    config,
                    matched,
                    request_id: request_id.clone(),
                    response_headers: Vec::new(),
                };
                // The worker is built with panic=unwind (scripts/build-worker.mjs): a panic in a
                // handler unwinds to here and becomes this request's 500, and the Wasm instance, with
                // the other requests and streams in flight in it, carries on.
                let result = match AssertUnwindSafe(dispatch(&mut call)).catch_unwind().await {
                    Ok(result) => result,
                    Err(payload) => Err(ApiError::Internal(format!(
                        "panic: {}",
                        panic_message(payload.as_ref())
                    ))),
                };
                (result, call.response_headers)
            }
            // A path no route takes may be a page of the site this host serves (`crate::edge::hosted_site`):
            // API routes always come first.
            Err(err @ RouteError::NotFound) if method == "GET" || method == "HEAD" => {
                match crate::edge::hosted_site::serve(&req, &env).await {
                    Ok(Some(page)) => (Ok(page), Vec::new()),
                    Ok(None) => (Err(ApiError::from(err)), Vec::new()),
                    Err(failed) => (Err(failed), Vec::new()),
                }
            }
            Err(err) => (Err(ApiError::from(err)), Vec::new()),
        }
    };

    let (mut response, detail) = match result {
        Ok(response) => (response, None),
        Err(err) => {
            let detail = err.log_detail().map(str::to_string);
            (error_response(&err), detail)
        }
    };
    let headers = response.headers_mut();
    let _ = headers.set("x-request-id", &request_id);
    for (name, value) in &extra_headers {
        let _ = headers.set(name, value);
    }
    if cors {
        let _ = cors::add_headers(headers);
    }
    log_request(
        &method,
        &path,
        response.status_code(),
        now_ms().saturating_sub(started),
        &request_id,
        detail,
    );
    response
}

/// The route's gate, then its handler. The match is exhaustive over the core's `Route`: a route
/// added to the table (`core/src/http/routes.rs`) does not compile until it has a handler here.
async fn dispatch(call: &mut Call) -> ApiResult<Response> {
    let gate = call.matched.route.gate();
    if gate != Gate::Open {
        let features = crate::shared::config::deployment(&call.env)
            .map_err(ApiError::Internal)?
            .features;
        if let Some(feature) = gate.refused(&features) {
            return Err(ApiError::FeatureDisabled(feature));
        }
    }
    match call.matched.route {
        Route::Health => routes::health::get(call).await,
        Route::Features => routes::health::features(call).await,
        Route::OpenApi => routes::openapi::get(call).await,
        Route::CreateOrg => routes::admin::forward(call).await,
        Route::GetOrg => routes::admin::forward(call).await,
        Route::UpdateOrg => routes::admin::forward(call).await,
        Route::AddDomain => routes::admin::forward(call).await,
        Route::RemoveDomain => routes::admin::forward(call).await,
        Route::CreateKey => routes::admin::forward(call).await,
        Route::ListKeys => routes::admin::forward(call).await,
        Route::UpdateKey => routes::admin::forward(call).await,
        Route::RevokeKey => routes::admin::forward(call).await,
        Route::PublishSite => routes::sites::publish(call).await,
        Route::GetSite => routes::sites::get(call).await,
        Route::GetPublish => routes::sites::publish_status(call).await,
        Route::CommitManifest => routes::site_files::commit(call).await,
        Route::LiveManifest => routes::site_files::live_manifest(call).await,
        Route::MissingFiles => routes::site_files::missing(call).await,
        Route::PutFile => routes::site_files::put(call).await,
        Route::Search => routes::search::search(call).await,
        Route::Page => routes::search::page(call).await,
        Route::AssistantV1 => routes::assistant::message_v1(call).await,
        Route::AssistantV2 => routes::assistant::message_v2(call).await,
        Route::AssistantV2Resume => routes::assistant::resume_v2(call).await,
        Route::AssistantV2Stop => routes::assistant::stop_v2(call).await,
        Route::Mcp => routes::mcp::post(call).await,
        Route::LlmsTxt => routes::llms::llms_txt(call).await,
        Route::LlmsFullTxt => routes::llms::llms_full_txt(call).await,
        Route::SkillMd => routes::llms::skill_md(call).await,
        Route::SkillsIndex | Route::SkillFile => routes::llms::skills_file(call).await,
        Route::GetThread => routes::threads::get(call).await,
        Route::StartExport => routes::export::start(call).await,
        Route::GetExport => routes::export::get(call).await,
        Route::CancelExport => routes::export::cancel(call).await,
        Route::CreateBundle => routes::export::bundle(call).await,
        Route::DownloadBundle => routes::export::download(call).await,
        Route::Feedback => routes::analytics::feedback(call).await,
        Route::AnalyticsEvents => routes::analytics::events(call).await,
        Route::AnalyticsReport => routes::analytics::forward_report(call).await,
        Route::ConversationsCsv => routes::analytics::forward_report(call).await,
        Route::GetHosting | Route::RollbackHosting => routes::admin::forward(call).await,
        Route::PutHosting => routes::hosting::put(call).await,
    }
}

/// The message of a caught panic (`panic!` with a literal or a formatted message).
fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message")
}

/// One JSON line per request. Never the query string (signed links carry their signature there),
/// never headers or bodies (keys and tokens live there).
fn log_request(
    method: &str,
    path: &str,
    status: u16,
    duration_ms: u64,
    request_id: &str,
    detail: Option<String>,
) {
    let (cache_bytes, cache_entries, cache_evictions) = crate::edge::search_cache::stats();
    let line = serde_json::json!({
        "event": "request",
        "requestId": request_id,
        "method": method,
        "path": path,
        "status": status,
        "durationMs": duration_ms,
        "error": detail,
        "wasmMemoryBytes": crate::shared::memory::wasm_memory_bytes(),
        "searchCacheBytes": cache_bytes,
        "searchCacheEntries": cache_entries,
        "searchCacheEvictions": cache_evictions,
    });
    crate::shared::log_line::info(&line);
}
