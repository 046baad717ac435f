//! The builder script's own `fetch` handler, reached only through the edge script's service binding
//! (`crate::config::BUILDER_BINDING`, wrangler.toml `[[services]]`; the builder has no public URL):
//! the work of publishing on a site's store (`crate::builder::site_files`: files, manifests, uploads), the
//! rebuild of a version from an earlier release (`crate::site_upgrade`) and the daily storage sweep
//! (`crate::builder::sweep`), kept out of the request-serving module.
//!
//! The edge authenticates and authorizes the request, applies the rate limits and refuses a body
//! whose declared length is over its limit, then forwards it: the body as a stream, never read by the
//! edge, and what the builder may trust in one header (an order, `crate::builder_orders`: the
//! caller's organization and domain, the settings it runs under). Each call is a stateless invocation of
//! the builder script, so a site's concurrent uploads hash in parallel isolates, as they did in the
//! edge. The builder's answer, success or error, goes back to the client as it is.

#[cfg(feature = "edge")]
use crate::config::BUILDER_BINDING;

/// The sweep's path on the binding.
const SWEEP_PATH: &str = "sweep";

/// The prefix of a forwarded admin route's path on the binding: `admin` + the original path.
const ADMIN_PREFIX: &str = "admin/";

#[cfg(feature = "edge")]
pub use client::{forward, forward_admin, sweep};

#[cfg(feature = "edge")]
mod client {
    use worker::{Env, Headers, Response};

    use super::{ADMIN_PREFIX, BUILDER_BINDING, SWEEP_PATH};
    use crate::builder_orders::{AdminOrder, FileOp, FileOrder, SweepOrder, Swept, ORDER_HEADER};
    use crate::durable_client::post_to_builder;
    use crate::edge::context::Call;
    use crate::error::{ApiError, ApiResult};
    use crate::http::header;

    /// The request headers the builder reads besides the order.
    const PASSED_HEADERS: [&str; 2] = ["content-type", "content-encoding"];

    /// Sends the request's body (a stream, as it arrives) to the builder for `op`, with `order`;
    /// answers the builder's response. Only the order and [`PASSED_HEADERS`] go along: nothing the
    /// client sent can pass for the order.
    pub async fn forward(call: &mut Call, op: FileOp, order: &FileOrder) -> ApiResult<Response> {
        let method = if op == FileOp::LiveManifest {
            "GET"
        } else {
            "POST"
        };
        send(
            call,
            method,
            &format!("https://builder/{}", op.path()),
            &serde_json::to_string(order)?,
        )
        .await
    }

    /// Sends an admin route's request, as the caller made it (method, path, query, body), to the
    /// builder (`crate::builder::admin`), with `order`; answers the builder's response.
    pub async fn forward_admin(call: &mut Call, order: &AdminOrder) -> ApiResult<Response> {
        let url = call.req.url()?;
        let query = url.query().map(|q| format!("?{q}")).unwrap_or_default();
        let target = format!(
            "https://builder/{ADMIN_PREFIX}{}{query}",
            url.path().trim_start_matches('/')
        );
        let method = call.req.method().to_string();
        send(call, &method, &target, &serde_json::to_string(order)?).await
    }

    async fn send(call: &mut Call, method: &str, target: &str, order: &str) -> ApiResult<Response> {
        let headers = Headers::new();
        for name in PASSED_HEADERS {
            if let Some(value) = header(&call.req, name) {
                headers.set(name, &value)?;
            }
        }
        headers.set(ORDER_HEADER, order)?;
        let init = web_sys::RequestInit::new();
        init.set_method(method);
        init.set_headers(&headers.0);
        // A GET may not carry a body; the runtime maps methods it does not know (`QUERY`) to GET
        // for routing, and such a request may arrive with one.
        if let Some(body) = call
            .req
            .inner()
            .body()
            .filter(|_| !matches!(method, "GET" | "HEAD"))
        {
            init.set_body(&body);
        }
        let request = web_sys::Request::new_with_str_and_init(target, &init)
            .map_err(|e| ApiError::Internal(format!("forwarding to the builder: {e:?}")))?;
        Ok(call
            .env
            .service(BUILDER_BINDING)?
            .fetch_request(worker::Request::from(request))
            .await?)
    }

    /// Runs one storage sweep in the builder.
    pub async fn sweep(env: &Env, order: &SweepOrder) -> ApiResult<Swept> {
        Ok(serde_json::from_slice(
            &post_to_builder(env, SWEEP_PATH, &serde_json::to_string(order)?).await?,
        )?)
    }
}

/// The builder's `fetch` handler: only the paths above, with the order the edge sent; anything else
/// is 404 (nothing but the edge can reach this handler).
#[cfg(feature = "builder")]
// A build with both features (a check) exports the edge's `fetch`, not the builder's that calls this.
#[cfg_attr(feature = "edge", allow(dead_code))]
pub async fn serve(mut req: worker::Request, env: worker::Env) -> worker::Response {
    use crate::builder_orders::{AdminOrder, FileOp, FileOrder, ORDER_HEADER};
    use crate::error::{error_response, ApiError};

    let path = req.path();
    let path = path.strip_prefix('/').unwrap_or(&path);
    let order = crate::http::header(&req, ORDER_HEADER);
    let result = if path == SWEEP_PATH {
        crate::builder::sweep::serve(&mut req, &env).await
    } else if path == crate::site_upgrade::UPGRADE_PATH {
        crate::site_upgrade::serve(&mut req, &env).await
    } else if let Some(route_path) = path.strip_prefix(ADMIN_PREFIX) {
        match order.map(|order| serde_json::from_str::<AdminOrder>(&order)) {
            Some(Ok(order)) => {
                crate::builder::admin::serve(&format!("/{route_path}"), &mut req, &env, &order)
                    .await
            }
            _ => Err(ApiError::Internal(format!("builder {path}: no order"))),
        }
    } else if let Some(op) = FileOp::from_path(path) {
        match order.map(|order| serde_json::from_str::<FileOrder>(&order)) {
            Some(Ok(order)) => crate::builder::site_files::serve(op, &mut req, &env, &order).await,
            _ => Err(ApiError::Internal(format!("builder {path}: no order"))),
        }
    } else {
        Err(ApiError::RouteNotFound)
    };
    result.unwrap_or_else(|err| {
        if let Some(detail) = err.log_detail() {
            crate::log_line::error(
                &serde_json::json!({ "event": "builder_error", "path": path, "error": detail }),
            );
        }
        error_response(&err)
    })
}
