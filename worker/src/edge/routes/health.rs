//! `GET /health`: liveness and the running version; `GET /v1/features`: the deployment kind and
//! which features are on. No key for either.

use docs_edge_core::wire::Health;
use worker::Response;

use crate::edge::context::Call;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::http::json_response;

pub async fn get(call: &mut Call) -> ApiResult<Response> {
    // Test-only (`crate::shared::config::test_only::panic_route`): a panic deep in a request.
    if crate::shared::config::test_only::panic_route(&call.env)
        && call
            .req
            .headers()
            .get("x-test-panic")
            .ok()
            .flatten()
            .is_some()
    {
        worker::Delay::from(std::time::Duration::from_millis(1)).await;
        panic!("test-only panic (TEST_PANIC_ROUTE)");
    }
    json_response(
        200,
        &Health {
            status: "ok".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        },
    )
}

pub async fn features(call: &mut Call) -> ApiResult<Response> {
    json_response(
        200,
        &crate::shared::config::deployment(&call.env).map_err(ApiError::Internal)?,
    )
}
