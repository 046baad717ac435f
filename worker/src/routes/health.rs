//! `GET /health`: liveness and the running version; `GET /v1/features`: the deployment kind and
//! which features are on. No key for either.

use docs_edge_core::wire::Health;
use worker::Response;

use crate::context::Call;
use crate::error::{ApiError, ApiResult};
use crate::http::json_response;

/// Test-only setting: with `TEST_PANIC_ROUTE=1`, `GET /health` with an `x-test-panic` header panics
/// (after an await, as a handler deep in a request would), so a test can prove that one request's panic
/// leaves the others in flight in the isolate, streams included, running. Unset in every real
/// deployment.
const TEST_PANIC_VAR: &str = "TEST_PANIC_ROUTE";

pub async fn get(call: &mut Call) -> ApiResult<Response> {
    if crate::config::text(&call.env, TEST_PANIC_VAR).as_deref() == Some("1")
        && call.req.headers().get("x-test-panic").ok().flatten().is_some()
    {
        worker::Delay::from(std::time::Duration::from_millis(1)).await;
        panic!("test-only panic (TEST_PANIC_ROUTE)");
    }
    json_response(200, &Health { status: "ok".into(), version: env!("CARGO_PKG_VERSION").into() })
}

pub async fn features(call: &mut Call) -> ApiResult<Response> {
    json_response(200, &crate::config::deployment(&call.env).map_err(ApiError::Internal)?)
}
