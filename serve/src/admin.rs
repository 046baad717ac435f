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
use futures_util::StreamExt;

use crate::discovery::bearer_known;
use crate::discovery_error::DiscoveryError;
use crate::state::{now_ms, State};
use crate::storage::CSV_PAGE_ROWS;

pub fn router() -> Router<Arc<State>> {
    Router::new()
        .route("/v1/threads/{thread_id}", get(thread))
        .route("/v1/analytics/{domain}", get(report))
        .route(
            "/v1/analytics/{domain}/conversations.csv",
            get(conversations_csv),
        )
}

fn require_admin(state: &State, headers: &HeaderMap) -> Result<(), DiscoveryError> {
    match bearer_known(headers, &state.config().admin_key_hashes) {
        true => Ok(()),
        false => Err(DiscoveryError::AdminUnauthorized),
    }
}

async fn thread(
    AxumState(state): AxumState<Arc<State>>,
    Path(thread_id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, DiscoveryError> {
    require_admin(&state, &headers)?;
    let record = state
        .store
        .thread(&thread_id, None)
        .await
        .map_err(|e| DiscoveryError::Storage(e.0))?;
    let record =
        record.ok_or_else(|| DiscoveryError::NotFound(format!("thread {thread_id} not found")))?;
    Ok(Json(record).into_response())
}

#[derive(serde::Deserialize)]
struct Range {
    from: Option<String>,
    to: Option<String>,
}

fn scope(
    state: &State,
    headers: &HeaderMap,
    domain: &str,
    range: &Range,
) -> Result<(String, DayRange), DiscoveryError> {
    require_admin(state, headers)?;
    let domain =
        validate_domain(domain).map_err(|_| DiscoveryError::NotFound("domain not found".into()))?;
    let today = (now_ms() / 86_400_000) as i64;
    let range = DayRange::parse(range.from.as_deref(), range.to.as_deref(), today)
        .map_err(|e| DiscoveryError::Invalid(e.to_string()))?;
    Ok((domain, range))
}

async fn report(
    AxumState(state): AxumState<Arc<State>>,
    Path(domain): Path<String>,
    Query(range): Query<Range>,
    headers: HeaderMap,
) -> Result<Response, DiscoveryError> {
    let (domain, range) = scope(&state, &headers, &domain, &range)?;
    let rows = state
        .store
        .report_rows(&domain, &range)
        .await
        .map_err(|e| DiscoveryError::Storage(e.0))?;
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
    let first = state
        .store
        .conversations_page(&domain, &range, None)
        .await
        .map_err(|e| DiscoveryError::Storage(e.0))?;
    struct Pages {
        state: Arc<State>,
        domain: String,
        range: DayRange,
        page: Option<
            Vec<(
                docs_edge_core::analytics::csv::ConversationRow,
                (i64, String),
            )>,
        >,
        header: bool,
    }
    let pages = Pages {
        state,
        domain,
        range,
        page: Some(first),
        header: true,
    };
    let body = futures_util::stream::unfold(pages, |mut pages| async move {
        if pages.header {
            pages.header = false;
            return Some((Ok::<String, std::io::Error>(header_line()), pages));
        }
        let page = pages.page.take().filter(|p| !p.is_empty())?;
        let chunk: String = page.iter().map(|(row, _)| row_line(row)).collect();
        if page.len() as i64 == CSV_PAGE_ROWS {
            let cursor = page.last().map(|(_, c)| c.clone());
            match pages
                .state
                .store
                .conversations_page(&pages.domain, &pages.range, cursor.as_ref())
                .await
            {
                Ok(next) => pages.page = Some(next),
                // Aborting the body tells the client the file is incomplete; a short CSV would not.
                Err(err) => {
                    eprintln!(
                        "{}",
                        serde_json::json!({"event": "analytics_failed", "error": err.0})
                    );
                    return Some((
                        Err(std::io::Error::other("conversations export failed")),
                        pages,
                    ));
                }
            }
        }
        Some((Ok(chunk), pages))
    })
    // The compression layer may poll again after the end.
    .fuse();
    let mut res = Body::from_stream(body).into_response();
    let headers = res.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"conversations.csv\""),
    );
    Ok(res)
}

#[cfg(test)]
mod tests {
    use axum::body::{to_bytes, Body};
    use axum::http::{Request, StatusCode};
    use docs_edge_core::analytics::record::{AnswerFacts, AnswerRow};
    use docs_edge_core::security::signing::sha256_hex;
    use tower::ServiceExt;

    use crate::testing::{config_with, manifest, scratch, serving};

    #[tokio::test]
    async fn the_conversations_csv_and_the_report_need_an_admin_key() {
        let hash = sha256_hex(b"admin-1");
        let state = serving(
            config_with(
                &[("DOCS_EDGE_ADMIN_KEY_SHA256", &hash)],
                &scratch("admin-csv"),
            ),
            &manifest("se_0123456789abcdef"),
            &[("index.html", b"<p>home</p>")],
        );
        let now = crate::state::now_ms();
        let cited = vec!["guide".to_string()];
        let row = AnswerRow::new(&AnswerFacts {
            message_id: "msg_1",
            thread_id: "thr_1",
            org_id: crate::storage::ORG_ID,
            domain: "docs.example.com",
            started_ms: now,
            first_byte_ms: now + 5,
            finished_ms: now + 9,
            question: &docs_edge_core::privacy::Masker::default().mask("q?"),
            answer: "a.",
            scores: &[1.0],
            cited_paths: &cited,
            uncertain: false,
            unanswered: false,
            backend: "extractive",
            fingerprint: None,
            salt: None,
            new_thread: true,
        });
        state.store.record_answer(&row).await.unwrap();
        let app = crate::app(state);
        let get = |path: &str, key: &str| {
            Request::get(path)
                .header("authorization", format!("Bearer {key}"))
                .body(Body::empty())
                .unwrap()
        };
        let res = app
            .clone()
            .oneshot(get(
                "/v1/analytics/docs.example.com/conversations.csv",
                "admin-1",
            ))
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        let text = String::from_utf8(
            to_bytes(res.into_body(), usize::MAX)
                .await
                .unwrap()
                .to_vec(),
        )
        .unwrap();
        let lines: Vec<&str> = text.split("\r\n").collect();
        assert_eq!(
            lines[0],
            "conversation_id,time,question,answer,sources,rating"
        );
        assert!(
            lines[1].starts_with("thr_1,") && lines[1].ends_with(",q?,a.,guide,"),
            "{text}"
        );
        // Compressed for a client that accepts it, to its end.
        let mut gzip = get(
            "/v1/analytics/docs.example.com/conversations.csv",
            "admin-1",
        );
        gzip.headers_mut()
            .insert("accept-encoding", "gzip".parse().unwrap());
        let gzip = app.clone().oneshot(gzip).await.unwrap();
        assert_eq!(gzip.headers()["content-encoding"], "gzip");
        assert!(!to_bytes(gzip.into_body(), usize::MAX)
            .await
            .unwrap()
            .is_empty());
        let report = app
            .clone()
            .oneshot(get("/v1/analytics/docs.example.com", "admin-1"))
            .await
            .unwrap();
        assert_eq!(report.status(), StatusCode::OK);
        let denied = app
            .clone()
            .oneshot(get("/v1/analytics/docs.example.com", "admin-2"))
            .await
            .unwrap();
        assert_eq!(denied.status(), StatusCode::UNAUTHORIZED);
        let unknown = app
            .oneshot(get("/v1/threads/thr_none", "admin-1"))
            .await
            .unwrap();
        assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
    }
}
