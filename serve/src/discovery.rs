//! With `[assistant] enabled = true`: the discovery API from the bundle itself, offline, with core's
//! request rules, search and extractive answers, and the worker's wire formats, so the SDK and
//! `useChat` apps work against this server unchanged. Keys are checked against the SHA-256 hashes in
//! the configuration, in constant time, and, when `[assistant] allowed_origins` lists sites, a
//! browser's request must come from one of them or from this server's own pages. Answers
//! ([`crate::answer`]) come from the passages or from the configured model; threads and feedback are
//! stored ([`crate::storage`]).

use std::sync::Arc;

use axum::body::{to_bytes, Body};
use axum::extract::{Path, Request, State as AxumState};
use axum::http::{header, HeaderName, HeaderValue, Method};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use docs_edge_core::analytics::input::parse_feedback;
use docs_edge_core::analytics::range::iso_of_ms;
use docs_edge_core::assistant::encode::Protocol;
use docs_edge_core::assistant::request::{parse_v1, parse_v2};
use docs_edge_core::export::markdown_file;
use docs_edge_core::platform::deployment::Feature;
use docs_edge_core::search::{
    discovery_query, discovery_results, page_content, parse_page_request, parse_search_request,
    PageFormat,
};
use docs_edge_core::security::origins::{origin_allowed, MAX_ORIGIN_CHARS};
use docs_edge_core::security::signing::{constant_time_eq, sha256_hex};
use docs_edge_core::wire::analytics::FeedbackReceipt;
use futures_util::StreamExt;
use serde_json::Value;
use tower_http::cors::{Any, CorsLayer};

use crate::answer::{self, Generation};
use crate::discovery_error::{read_index, DiscoveryError, MAX_BODY_BYTES};
use crate::search_packs::PackIndex;
use crate::state::{now_ms, Active, State};

/// The discovery routes, open to pages of any origin as the worker's are (a key, not a cookie, is
/// the grant): the assistant widget this server serves at `/widget.js` may be on another site.
pub fn router() -> Router<Arc<State>> {
    let cors = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::POST])
        .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE])
        .expose_headers([HeaderName::from_static("x-thread-id")])
        .max_age(std::time::Duration::from_secs(86_400));
    Router::new()
        .route("/discovery/v1/search/{domain}", post(search))
        .route("/discovery/v1/page/{domain}", post(page))
        .route("/discovery/v1/assistant/{domain}/message", post(message_v1))
        .route("/discovery/v2/assistant/{domain}/message", post(message_v2))
        .route("/discovery/v1/assistant/{domain}/feedback", post(feedback))
        .layer(cors)
}

/// The live bundle's index, after the key, the feature switch and the domain were checked.
async fn authorize(
    state: &State,
    feature: Feature,
    domain: &str,
    req: Request,
) -> Result<(Arc<Active>, Arc<PackIndex>, Value), DiscoveryError> {
    let config = state.config();
    if !config.assistant.enabled {
        return Err(DiscoveryError::NotFound(
            "the discovery API is off here ([assistant] enabled = false)".into(),
        ));
    }
    if !config.deployment.features.enabled(feature) {
        return Err(DiscoveryError::FeatureDisabled(feature));
    }
    if !bearer_known(req.headers(), &config.assistant.key_hashes) {
        return Err(DiscoveryError::Unauthorized);
    }
    check_origin(&req, &config.assistant.allowed_origins)?;
    let active = state
        .active()
        .ok_or(DiscoveryError::Unavailable("no bundle is loaded yet"))?;
    if !active.bundle.manifest.domain.eq_ignore_ascii_case(domain) {
        return Err(DiscoveryError::NotFound(format!(
            "no docs are served for {domain}"
        )));
    }
    let index = active
        .bundle
        .index
        .clone()
        .ok_or(DiscoveryError::Unavailable(
            "the bundle has no search index (export it with search or the assistant on)",
        ))?;
    let bytes = to_bytes(req.into_body(), MAX_BODY_BYTES)
        .await
        .map_err(|_| DiscoveryError::TooLarge)?;
    let body: Value = serde_json::from_slice(&bytes)
        .map_err(|e| DiscoveryError::Invalid(format!("body: not JSON ({e})")))?;
    if !body.is_object() {
        return Err(DiscoveryError::Invalid(
            "body: must be a JSON object".into(),
        ));
    }
    Ok((active, index, body))
}

/// A browser's request (`Origin`) from a page that is neither this server's own (the origin's host
/// and port are the request's `Host`) nor on `allowed`; an empty list allows any. Without `Origin`
/// the caller is no page.
fn check_origin(req: &Request, allowed: &[String]) -> Result<(), DiscoveryError> {
    let Some(origin) = req.headers().get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = String::from_utf8_lossy(origin.as_bytes())
        .chars()
        .take(MAX_ORIGIN_CHARS)
        .collect::<String>();
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let own = origin
        .split_once("://")
        .is_some_and(|(_, authority)| !host.is_empty() && authority.eq_ignore_ascii_case(host));
    if own || origin_allowed(allowed, &origin) {
        Ok(())
    } else {
        Err(DiscoveryError::OriginNotAllowed(origin))
    }
}

/// Whether the request's bearer key hashes to one of `hashes`. Every hash is compared, so the time
/// taken does not depend on which one matched.
pub fn bearer_known(headers: &axum::http::HeaderMap, hashes: &[String]) -> bool {
    let Some(key) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
    else {
        return false;
    };
    let hash = sha256_hex(key.as_bytes());
    hashes.iter().fold(false, |found, h| {
        constant_time_eq(h.as_bytes(), hash.as_bytes()) | found
    })
}

async fn search(
    AxumState(state): AxumState<Arc<State>>,
    Path(domain): Path<String>,
    req: Request,
) -> Result<Response, DiscoveryError> {
    let (_, index, body) = authorize(&state, Feature::Search, &domain, req).await?;
    let request =
        parse_search_request(&body).map_err(|e| DiscoveryError::Invalid(e.to_string()))?;
    let hits = read_index(index, move |index| index.search(&discovery_query(&request))).await?;
    Ok(Json(discovery_results(hits)).into_response())
}

async fn page(
    AxumState(state): AxumState<Arc<State>>,
    Path(domain): Path<String>,
    req: Request,
) -> Result<Response, DiscoveryError> {
    let (active, index, body) = authorize(&state, Feature::Search, &domain, req).await?;
    let request = parse_page_request(&body).map_err(|e| DiscoveryError::Invalid(e.to_string()))?;
    let path = request.path.clone();
    let mut page = read_index(index, move |index| index.page(&path))
        .await?
        .map(page_content)
        .ok_or_else(|| DiscoveryError::NotFound(format!("page {} not found", request.path)))?;
    if request.format == PageFormat::Markdown {
        // The path is one the bundle's own index holds, so it names a file inside the bundle.
        let file = active.bundle.dir.join(markdown_file(&page.path));
        page.content = tokio::fs::read_to_string(&file).await.map_err(|_| {
            DiscoveryError::NotFound(format!("page {} has no Markdown rendering", page.path))
        })?;
    }
    Ok(Json(page).into_response())
}

async fn message_v1(
    state: AxumState<Arc<State>>,
    domain: Path<String>,
    req: Request,
) -> Result<Response, DiscoveryError> {
    message(state, domain, req, Protocol::DataStreamV1).await
}

async fn message_v2(
    state: AxumState<Arc<State>>,
    domain: Path<String>,
    req: Request,
) -> Result<Response, DiscoveryError> {
    message(state, domain, req, Protocol::UiMessageStreamV2).await
}

async fn message(
    AxumState(state): AxumState<Arc<State>>,
    Path(domain): Path<String>,
    req: Request,
    protocol: Protocol,
) -> Result<Response, DiscoveryError> {
    let started_ms = now_ms();
    let (active, index, body) = authorize(&state, Feature::Assistant, &domain, req).await?;
    let request = match protocol {
        Protocol::DataStreamV1 => parse_v1(&body),
        Protocol::UiMessageStreamV2 => parse_v2(&body),
    }
    .map_err(|e| DiscoveryError::Invalid(e.to_string()))?;
    let job = answer::prepare(&state, &active.bundle.manifest, request, started_ms).await?;
    let thread_id = job.thread_id.clone();
    let (sender, receiver) = tokio::sync::mpsc::unbounded_channel::<String>();
    tokio::spawn(Generation::new(state.clone(), index, job, protocol, sender).run());
    // The body ends when the generation drops its sender; a reader that leaves drops the receiver.
    let parts = futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver
            .recv()
            .await
            .map(|part| (Ok::<_, std::convert::Infallible>(part), receiver))
    })
    .fuse();
    let mut res = Body::from_stream(parts).into_response();
    for (name, value) in protocol.headers() {
        if let Ok(value) = HeaderValue::from_str(value) {
            res.headers_mut().insert(*name, value);
        }
    }
    if let Ok(value) = HeaderValue::from_str(&thread_id) {
        res.headers_mut().insert("x-thread-id", value);
    }
    Ok(res)
}

/// `POST /discovery/v1/assistant/{domain}/feedback`: a rating of an answer of a stored thread
/// (404 otherwise, as on the worker), kept for the analytics report and the conversations export.
async fn feedback(
    AxumState(state): AxumState<Arc<State>>,
    Path(domain): Path<String>,
    req: Request,
) -> Result<Response, DiscoveryError> {
    let (active, _, body) = authorize(&state, Feature::Assistant, &domain, req).await?;
    let feedback = parse_feedback(&body, &state.config().privacy)
        .map_err(|e| DiscoveryError::Invalid(e.to_string()))?;
    let domain = &active.bundle.manifest.domain;
    let thread = state
        .store
        .thread(&feedback.thread_id, Some(domain))
        .await
        .map_err(|e| DiscoveryError::Storage(e.0))?
        .ok_or_else(|| {
            DiscoveryError::NotFound(format!("thread {} not found", feedback.thread_id))
        })?;
    let answered = thread
        .messages
        .iter()
        .any(|m| m.role == "assistant" && m.id.as_deref() == Some(feedback.message_id.as_str()));
    if !answered {
        return Err(DiscoveryError::NotFound(format!(
            "message {} not found in thread {}",
            feedback.message_id, feedback.thread_id
        )));
    }
    let now = now_ms();
    state
        .store
        .put_feedback(&feedback, domain, now)
        .await
        .map_err(|e| DiscoveryError::Storage(e.0))?;
    let receipt = FeedbackReceipt {
        thread_id: feedback.thread_id,
        message_id: feedback.message_id,
        rating: feedback.rating.as_str().into(),
        created_at: iso_of_ms(now),
    };
    Ok(Json(receipt).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(origin: Option<&str>) -> Request {
        let mut builder = Request::builder()
            .uri("/discovery/v1/search/docs.example.com")
            .header(header::HOST, "docs.internal:8080");
        if let Some(origin) = origin {
            builder = builder.header(header::ORIGIN, origin);
        }
        builder.body(Body::empty()).unwrap()
    }

    #[test]
    fn listed_sites_and_the_servers_own_pages_pass_others_are_named() {
        let allowed = vec!["https://docs.example.com".to_string()];
        for ok in [
            None,
            Some("https://docs.example.com"),
            Some("http://docs.internal:8080"),
        ] {
            assert!(check_origin(&request(ok), &allowed).is_ok(), "{ok:?}");
        }
        match check_origin(&request(Some("https://copycat.example.net")), &allowed) {
            Err(DiscoveryError::OriginNotAllowed(origin)) => {
                assert_eq!(origin, "https://copycat.example.net")
            }
            other => panic!("{other:?}"),
        }
        assert!(
            check_origin(&request(Some("https://copycat.example.net")), &[]).is_ok(),
            "no list: any site"
        );
    }
}
