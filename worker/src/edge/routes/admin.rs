//! The operator API under `/v1/admin` (organizations, their domains, API keys and hosting settings),
//! ROOT_TOKEN only: checked here, then the request goes to the builder, which runs it
//! (`crate::builder::admin`).

use docs_edge_core::http::routes::Route;
use worker::Response;

use crate::edge::auth::require_operator;
use crate::edge::builder_client::forward_admin;
use crate::edge::context::Call;
use crate::shared::builder_orders::AdminOrder;
use crate::shared::error::ApiResult;

pub async fn forward(call: &mut Call) -> ApiResult<Response> {
    require_operator(&call.req, &call.env)?;
    let order = AdminOrder {
        request_id: call.request_id.clone(),
        max_json_body_bytes: call.config.max_json_body_bytes,
        caller: None,
    };
    let response = forward_admin(call, &order).await?;
    // The builder took the site offline; this isolate forgets it at once, others within the
    // pointer's time to live.
    if call.matched.route == Route::RemoveDomain && response.status_code() == 204 {
        crate::edge::live::forget(&call.param(1).to_ascii_lowercase());
    }
    // The builder switched the hosted site back: likewise.
    if call.matched.route == Route::RollbackHosting && response.status_code() == 200 {
        crate::edge::hosted_site::forget(&call.param(1).to_ascii_lowercase());
    }
    Ok(response)
}
