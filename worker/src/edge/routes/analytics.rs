//! Feedback and analytics:
//! - `POST /discovery/v1/assistant/{domain}/feedback` (assistant key): rate one answer, up or down.
//! - `POST /discovery/v1/analytics/{domain}/events` (no key: `navigator.sendBeacon` sends none):
//!   page views and searches from exported pages, one D1 batch per beacon.
//! - `GET /v1/analytics/{domain}?from=&to=` (admin key): the report, and
//!   `GET /v1/analytics/{domain}/conversations.csv` (admin key): every answered question, streamed;
//!   both built by the builder (`crate::builder::admin`) once the key is checked here.

use docs_edge_core::analytics::input::{parse_events, parse_feedback};
use docs_edge_core::analytics::range::iso_of_ms;
use docs_edge_core::wire::analytics::FeedbackReceipt;
use docs_edge_core::wire::KeyKind;
use serde_json::Value;
use worker::Response;

use crate::edge::auth::{require_domain, require_key};
use crate::edge::builder_client::forward_admin;
use crate::edge::context::Call;
use crate::edge::durable::thread::ThreadClient;
use crate::edge::ratelimit;
use crate::edge::routes::discovery::authorize;
use crate::shared::analytics_store::AnalyticsStore;
use crate::shared::builder_orders::{AdminCaller, AdminOrder};
use crate::shared::clock::now_ms;
use crate::shared::directory::Directory;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::http::{
    empty_response, header, json_response, read_body, read_json_object, require_content_type,
};

/// A beacon carries at most 20 small events.
const MAX_EVENTS_BODY_BYTES: usize = 16 * 1024;

pub async fn feedback(call: &mut Call) -> ApiResult<Response> {
    let caller = authorize(call).await?;
    let body = read_json_object(&mut call.req, call.config.max_json_body_bytes).await?;
    let feedback = parse_feedback(&body, &crate::shared::config::masker(&call.env)?)?;
    let org_id = &caller.key.org_id;
    let thread = ThreadClient::new(&call.env)
        .find(&feedback.thread_id, org_id, Some(&caller.domain))
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
    store
        .put_feedback(&feedback, org_id, &caller.domain, now)
        .await?;
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
    require_content_type(
        &call.req,
        &["text/plain", "application/json"],
        "JSON (as text/plain or application/json)",
    )?;
    let directory = Directory::open(&call.env)?;
    let domain = docs_edge_core::http::domain::validate_domain(call.param(0))
        .map_err(|_| ApiError::NotFound("domain not found".into()))?;
    let org_id = directory
        .domain_owner(&domain)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("domain {domain} not found")))?;
    let ip = ratelimit::client_ip(&call.req);
    let limits =
        ratelimit::check_bucket(&call.env, &call.ctx, &call.config, "/events", &org_id, &ip)?;
    call.response_headers.extend(limits);
    let bytes = read_body(&mut call.req, MAX_EVENTS_BODY_BYTES).await?;
    let body: Value = serde_json::from_slice(&bytes).map_err(|e| {
        ApiError::InvalidJson(format!(
            "body is not valid JSON at line {} column {}",
            e.line(),
            e.column()
        ))
    })?;
    let events = parse_events(&body, &crate::shared::config::masker(&call.env)?)?;
    // The page does this too; a visitor whose browser says "do not track" is not counted either way.
    let opted_out = header(&call.req, "dnt").as_deref() == Some("1")
        || header(&call.req, "sec-gpc").as_deref() == Some("1");
    // Written before answering: a beacon's response is read by nobody, so waiting costs no reader
    // anything, and a 204 then means stored.
    if !opted_out {
        AnalyticsStore::open(&call.env)?
            .record_events(&events, &org_id, &domain, now_ms())
            .await?;
    }
    Ok(empty_response(204))
}

/// The report and the conversations CSV: the admin key and its domain checked here, the work done
/// by the builder (`crate::builder::admin`).
pub async fn forward_report(call: &mut Call) -> ApiResult<Response> {
    let directory = Directory::open(&call.env)?;
    let key = require_key(&call.req, &directory, KeyKind::Admin).await?;
    let domain = require_domain(&directory, &key, call.param(0)).await?;
    let caller = AdminCaller {
        org_id: key.org_id,
        domain,
    };
    let order = AdminOrder {
        request_id: call.request_id.clone(),
        max_json_body_bytes: call.config.max_json_body_bytes,
        caller: Some(caller),
    };
    forward_admin(call, &order).await
}
