//! The analytics report and the conversations CSV, the builder's half: the edge checked the admin key
//! and that the domain is the key's organization's (`crate::edge::routes::analytics`), and sends both in
//! the order; the day range comes from the query (`?from=&to=`).

use docs_edge_core::analytics::csv::{header_line, row_line};
use docs_edge_core::analytics::range::DayRange;
use docs_edge_core::analytics::report::build_report;
use worker::Response;

use super::call::AdminCall;
use crate::shared::analytics_store::AnalyticsStore;
use crate::shared::clock::now_ms;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::http::{json_response, stream_response};

/// The report's domain, organization and day range.
fn report_scope(call: &AdminCall<'_>) -> ApiResult<(String, String, DayRange)> {
    let caller = call
        .order
        .caller
        .as_ref()
        .ok_or_else(|| ApiError::Internal("builder report: no caller in the order".into()))?;
    let url = call.req.url()?;
    let query = |name: &str| {
        url.query_pairs()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
    };
    let today = (now_ms() / 86_400_000) as i64;
    let range = DayRange::parse(query("from").as_deref(), query("to").as_deref(), today)?;
    Ok((caller.domain.clone(), caller.org_id.clone(), range))
}

pub async fn report(call: &mut AdminCall<'_>) -> ApiResult<Response> {
    let (domain, org_id, range) = report_scope(call)?;
    let rows = AnalyticsStore::open(call.env)?
        .report_rows(&domain, &org_id, &range)
        .await?;
    json_response(200, &build_report(&domain, &range, rows))
}

/// Streamed a page of rows at a time, so an export of any length holds one page in memory.
pub async fn conversations_csv(call: &mut AdminCall<'_>) -> ApiResult<Response> {
    let (domain, org_id, range) = report_scope(call)?;
    let store = AnalyticsStore::open(call.env)?;
    // The first page is read before answering, so a database failure is still a clean 500.
    let first = store
        .conversations_page(&domain, &org_id, &range, None)
        .await?;
    let request_id = call.order.request_id.clone();
    struct State {
        store: AnalyticsStore,
        domain: String,
        org_id: String,
        range: DayRange,
        page: Option<
            Vec<(
                docs_edge_core::analytics::csv::ConversationRow,
                (u64, String),
            )>,
        >,
        header: bool,
        request_id: String,
    }
    let state = State {
        store,
        domain,
        org_id,
        range,
        page: Some(first),
        header: true,
        request_id,
    };
    let stream = futures_util::stream::unfold(state, |mut state| async move {
        if state.header {
            state.header = false;
            return Some((
                Ok::<Vec<u8>, worker::Error>(header_line().into_bytes()),
                state,
            ));
        }
        let page = state.page.take()?;
        if page.is_empty() {
            return None;
        }
        let mut chunk = String::new();
        for (row, _) in &page {
            chunk.push_str(&row_line(row));
        }
        if page.len() as u32 == crate::shared::analytics_store::CSV_PAGE_ROWS {
            let cursor = page.last().map(|(_, c)| c.clone());
            match state
                .store
                .conversations_page(&state.domain, &state.org_id, &state.range, cursor.as_ref())
                .await
            {
                Ok(next) => state.page = Some(next),
                // Aborting the body tells the client the file is incomplete; a short CSV would not.
                Err(err) => {
                    log_failure(&state.request_id, &err);
                    return Some((
                        Err(worker::Error::RustError(
                            "conversations export failed".into(),
                        )),
                        state,
                    ));
                }
            }
        }
        Some((Ok(chunk.into_bytes()), state))
    });
    let headers = [
        ("content-type", "text/csv; charset=utf-8"),
        (
            "content-disposition",
            "attachment; filename=\"conversations.csv\"",
        ),
    ];
    stream_response(Box::pin(stream), &headers)
}

fn log_failure(request_id: &str, err: &ApiError) {
    let line = serde_json::json!({ "event": "analytics_failed", "requestId": request_id, "error": err.log_detail() });
    crate::shared::log_line::error(&line);
}
