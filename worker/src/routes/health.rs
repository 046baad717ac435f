//! `GET /health`: liveness and the running version; no key.

use docs_edge_core::wire::Health;
use worker::Response;

use crate::app::Call;
use crate::error::ApiResult;
use crate::http::json_response;

pub async fn get(_call: &mut Call) -> ApiResult<Response> {
    json_response(200, &Health { status: "ok".into(), version: env!("CARGO_PKG_VERSION").into() })
}
