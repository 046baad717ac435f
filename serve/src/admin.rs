//! The worker's admin reads of what the assistant stored, for the keys in `[admin] key_sha256`
//! (checked as the assistant keys are):
//! - `GET /v1/threads/{threadId}`: a conversation as recorded.
//! - `GET /v1/analytics/{domain}?from=&to=`: the report.
//! - `GET /v1/analytics/{domain}/conversations.csv`: every answered question, a page of rows at a time.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, Query, State as AxumState};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use docs_edge_core::analytics::csv::{header_line, row_line};
use docs_edge_core::analytics::range::DayRange;
use docs_edge_core::analytics::report::build_report;
use docs_edge_core::http::domain::validate_domain;

use crate::discovery::{bearer_known, DiscoveryError};
use crate::state::{now_ms, State};
use crate::storage::CSV_PAGE_ROWS;

pub fn router() -> Router<Arc<State>> {
    Router::new()
        .route("/v1/threads/{thread_id}", get(thread))
        .route("/v1/analytics/{domain}", get(report))
        .route("/v1/analytics/{domain}/conversations.csv", get(conversations_csv))
}

fn require_admin(state: &State, headers: &HeaderMap) -> Result<(), DiscoveryError> {
    match bearer_known(headers, &state.config().admin_key_hashes) {
        true => Ok(()),
        false => Err(DiscoveryError::AdminUnauthorized),
    }
}

async fn thread(AxumState(state): AxumState<Arc<State>>, Path(thread_id): Path<String>, headers: HeaderMap) -> Result<Response, DiscoveryError> {
    require_admin(&state, &headers)?;
    let record = state.store.thread(&thread_id, None).await.map_err(|e| DiscoveryError::Storage(e.0))?;
    let record = record.ok_or_else(|| DiscoveryError::NotFound(format!("thread {thread_id} not found")))?;
    Ok(Json(record).into_response())
}

#[derive(serde::Deserialize)]
struct Range {
    from: Option<String>,
    to: Option<String>,
}

fn scope(state: &State, headers: &HeaderMap, domain: &str, range: &Range) -> Result<(String, DayRange), DiscoveryError> {
    require_admin(state, headers)?;
    let domain = validate_domain(domain).map_err(|_| DiscoveryError::NotFound("domain not found".into()))?;
    let today = (now_ms() / 86_400_000) as i64;
    let range = DayRange::parse(range.from.as_deref(), range.to.as_deref(), today).map_err(|e| DiscoveryError::Invalid(e.to_string()))?;
    Ok((domain, range))
}

async fn report(
    AxumState(state): AxumState<Arc<State>>,
    Path(domain): Path<String>,
    Query(range): Query<Range>,
    headers: HeaderMap,
) -> Result<Response, DiscoveryError> {
    let (domain, range) = scope(&state, &headers, &domain, &range)?;
    let rows = state.store.report_rows(&domain, &range).await.map_err(|e| DiscoveryError::Storage(e.0))?;
    Ok(Json(build_report(&domain, &range, rows)).into_response())
}

async fn conversations_csv(
    AxumState(state): AxumState<Arc<State>>,
    Path(domain): Path<String>,
    Query(range): Query<Range>,
    headers: HeaderMap,
) -> Result<Response, DiscoveryError> {
    let (domain, range) = scope(&state, &headers, &domain, &range)?;
    // The first page is read before answering, so a database failure is still a clean 500.
    let first = state.store.conversations_page(&domain, &range, None).await.map_err(|e| DiscoveryError::Storage(e.0))?;
    struct Pages {
        state: Arc<State>,
        domain: String,
        range: DayRange,
        page: Option<Vec<(docs_edge_core::analytics::csv::ConversationRow, (i64, String))>>,
        header: bool,
    }
    let pages = Pages { state, domain, range, page: Some(first), header: true };
    let body = futures_util::stream::unfold(pages, |mut pages| async move {
        if pages.header {
            pages.header = false;
            return Some((Ok::<String, std::io::Error>(header_line()), pages));
        }
        let page = pages.page.take().filter(|p| !p.is_empty())?;
        let chunk: String = page.iter().map(|(row, _)| row_line(row)).collect();
        if page.len() as i64 == CSV_PAGE_ROWS {
            let cursor = page.last().map(|(_, c)| c.clone());
            match pages.state.store.conversations_page(&pages.domain, &pages.range, cursor.as_ref()).await {
                Ok(next) => pages.page = Some(next),
                // Aborting the body tells the client the file is incomplete; a short CSV would not.
                Err(err) => {
                    eprintln!("{}", serde_json::json!({"event": "analytics_failed", "error": err.0}));
                    return Some((Err(std::io::Error::other("conversations export failed")), pages));
                }
            }
        }
        Some((Ok(chunk), pages))
    });
    let mut res = Body::from_stream(body).into_response();
    let headers = res.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8"));
    headers.insert(header::CONTENT_DISPOSITION, HeaderValue::from_static("attachment; filename=\"conversations.csv\""));
    Ok(res)
}
