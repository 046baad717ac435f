//! `GET /health`: liveness and the running version; `GET /v1/features`: the deployment kind and
//! which features are on. No key for either.

use docs_edge_core::wire::Health;
use worker::Response;

use crate::app::Call;
use crate::error::{ApiError, ApiResult};
use crate::http::json_response;

pub async fn get(_call: &mut Call) -> ApiResult<Response> {
    json_response(200, &Health { status: "ok".into(), version: env!("CARGO_PKG_VERSION").into() })
}

pub async fn features(call: &mut Call) -> ApiResult<Response> {
    json_response(200, &crate::config::deployment(&call.env).map_err(ApiError::Internal)?)
}
