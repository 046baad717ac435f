//! Feedback and analytics:
//! - `POST /discovery/v1/assistant/{domain}/feedback` (assistant key): rate one answer, up or down.
//! - `POST /discovery/v1/analytics/{domain}/events` (no key: `navigator.sendBeacon` sends none):
//!   page views and searches from exported pages, one D1 batch per beacon.
//! - `GET /v1/analytics/{domain}?from=&to=` (admin key): the report.
//! - `GET /v1/analytics/{domain}/conversations.csv` (admin key): every answered question, streamed.

use docs_edge_core::analytics::csv::{header_line, row_line};
use docs_edge_core::analytics::input::{parse_events, parse_feedback};
use docs_edge_core::analytics::range::{iso_of_ms, DayRange};
use docs_edge_core::analytics::report::build_report;
use docs_edge_core::wire::KeyKind;
use docs_edge_core::wire::analytics::FeedbackReceipt;
use serde_json::Value;
use worker::Response;

use crate::analytics_store::AnalyticsStore;
use crate::context::Call;
use crate::auth::{require_domain, require_key};
use crate::clock::now_ms;
use crate::directory::Directory;
use crate::error::{ApiError, ApiResult};
use crate::http::{empty_response, header, json_response, read_body, read_json_object, require_content_type, stream_response};
use crate::routes::discovery::authorize;
use crate::durable::thread::ThreadClient;
use crate::ratelimit;

/// A beacon carries at most 20 small events.
const MAX_EVENTS_BODY_BYTES: usize = 16 * 1024;

pub async fn feedback(call: &mut Call) -> ApiResult<Response> {
    let caller = authorize(call).await?;
    let body = read_json_object(&mut call.req, call.config.max_json_body_bytes).await?;
    let feedback = parse_feedback(&body)?;
    let org_id = &caller.key.org_id;
    let thread = ThreadClient::new(&call.env).find(&feedback.thread_id, org_id, Some(&caller.domain))
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("thread {} not found", feedback.thread_id)))?;
    // The thread is written before the answer's finish part goes out, so an answer the client has
    // finished reading is always there (the analytics row may still be on its way).
    let answered = thread
        .messages
        .iter()
        .any(|m| m.role == "assistant" && m.id.as_deref() == Some(feedback.message_id.as_str()));
    if !answered {
        return Err(ApiError::NotFound(format!(
            "message {} not found in thread {}",
            feedback.message_id, feedback.thread_id
        )));
    }
    let store = AnalyticsStore::open(&call.env)?;
    let now = now_ms();
    store.put_feedback(&feedback, org_id, &caller.domain, now).await?;
    json_response(
        200,
        &FeedbackReceipt {
            thread_id: feedback.thread_id,
            message_id: feedback.message_id,
            rating: feedback.rating.as_str().into(),
            created_at: iso_of_ms(now),
        },
    )
}

pub async fn events(call: &mut Call) -> ApiResult<Response> {
    // sendBeacon posts a string as text/plain, which needs no CORS preflight.
    require_content_type(&call.req, &["text/plain", "application/json"], "JSON (as text/plain or application/json)")?;
    let directory = Directory::open(&call.env)?;
    let domain = docs_edge_core::http::domain::validate_domain(call.param(0))
        .map_err(|_| ApiError::NotFound("domain not found".into()))?;
    let org_id = directory
        .domain_owner(&domain)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("domain {domain} not found")))?;
    let ip = ratelimit::client_ip(&call.req);
    let limits = ratelimit::check_bucket(&call.env, &call.ctx, &call.config, "/events", &org_id, &ip)?;
    call.response_headers.extend(limits);
    let bytes = read_body(&mut call.req, MAX_EVENTS_BODY_BYTES).await?;
    let body: Value = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::InvalidJson(format!("body is not valid JSON at line {} column {}", e.line(), e.column())))?;
    let events = parse_events(&body)?;
    // The page does this too; a visitor whose browser says "do not track" is not counted either way.
    let opted_out = header(&call.req, "dnt").as_deref() == Some("1") || header(&call.req, "sec-gpc").as_deref() == Some("1");
    // Written before answering: a beacon's response is read by nobody, so waiting costs no reader
    // anything, and a 204 then means stored.
    if !opted_out {
        AnalyticsStore::open(&call.env)?.record_events(&events, &org_id, &domain, now_ms()).await?;
    }
    Ok(empty_response(204))
}

/// The report's domain, organization and day range.
async fn report_scope(call: &mut Call) -> ApiResult<(String, String, DayRange)> {
    let directory = Directory::open(&call.env)?;
    let key = require_key(&call.req, &directory, KeyKind::Admin).await?;
    let domain = require_domain(&directory, &key, call.param(0)).await?;
    let url = call.req.url()?;
    let query = |name: &str| url.query_pairs().find(|(k, _)| k == name).map(|(_, v)| v.into_owned());
    let today = (now_ms() / 86_400_000) as i64;
    let range = DayRange::parse(query("from").as_deref(), query("to").as_deref(), today)?;
    Ok((domain, key.org_id, range))
}

pub async fn report(call: &mut Call) -> ApiResult<Response> {
    let (domain, org_id, range) = report_scope(call).await?;
    let rows = AnalyticsStore::open(&call.env)?.report_rows(&domain, &org_id, &range).await?;
    json_response(200, &build_report(&domain, &range, rows))
}

/// Streamed a page of rows at a time, so an export of any length holds one page in memory.
pub async fn conversations_csv(call: &mut Call) -> ApiResult<Response> {
    let (domain, org_id, range) = report_scope(call).await?;
    let store = AnalyticsStore::open(&call.env)?;
    // The first page is read before answering, so a database failure is still a clean 500.
    let first = store.conversations_page(&domain, &org_id, &range, None).await?;
    let request_id = call.request_id.clone();
    struct State {
        store: AnalyticsStore,
        domain: String,
        org_id: String,
        range: DayRange,
        page: Option<Vec<(docs_edge_core::analytics::csv::ConversationRow, (u64, String))>>,
        header: bool,
        request_id: String,
    }
    let state = State { store, domain, org_id, range, page: Some(first), header: true, request_id };
    let stream = futures_util::stream::unfold(state, |mut state| async move {
        if state.header {
            state.header = false;
            return Some((Ok::<Vec<u8>, worker::Error>(header_line().into_bytes()), state));
        }
        let page = state.page.take()?;
        if page.is_empty() {
            return None;
        }
        let mut chunk = String::new();
        for (row, _) in &page {
            chunk.push_str(&row_line(row));
        }
        if page.len() as u32 == crate::analytics_store::CSV_PAGE_ROWS {
            let cursor = page.last().map(|(_, c)| c.clone());
            match state.store.conversations_page(&state.domain, &state.org_id, &state.range, cursor.as_ref()).await {
                Ok(next) => state.page = Some(next),
                // Aborting the body tells the client the file is incomplete; a short CSV would not.
                Err(err) => {
                    log_failure(&state.request_id, &err);
                    return Some((Err(worker::Error::RustError("conversations export failed".into())), state));
                }
            }
        }
        Some((Ok(chunk.into_bytes()), state))
    });
    let headers = [("content-type", "text/csv; charset=utf-8"), ("content-disposition", "attachment; filename=\"conversations.csv\"")];
    stream_response(Box::pin(stream), &headers)
}

fn log_failure(request_id: &str, err: &ApiError) {
    let line = serde_json::json!({ "event": "analytics_failed", "requestId": request_id, "error": err.log_detail() });
    crate::log_line::error(&line);
}
