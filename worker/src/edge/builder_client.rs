//! The request-serving script's side of the builder's service binding
//! (`crate::shared::config::BUILDER_BINDING`, wrangler.toml `[[services]]`; the builder has no public
//! URL): the calls that hand work to the builder script's own `fetch` handler
//! (`crate::builder::service`), kept out of the request-serving module: the work of publishing on a
//! site's store (`crate::builder::site_files`: files, manifests, uploads), the admin routes' work
//! (`crate::builder::admin`), the rebuild of a version from an earlier release
//! (`crate::edge::site_upgrade` asks, `crate::builder::rebuild` does it) and the daily storage sweep
//! (`crate::builder::sweep`).
//!
//! The edge authenticates and authorizes the request, applies the rate limits and refuses a body
//! whose declared length is over its limit, then forwards it: the body as a stream, never read by the
//! edge, and what the builder may trust in one header (an order, `crate::shared::builder_orders`: the
//! caller's organization and domain, the settings it runs under). Each call is a stateless invocation of
//! the builder script, so a site's concurrent uploads hash in parallel isolates, as they did in the
//! edge. The builder's answer, success or error, goes back to the client as it is.

use docs_edge_core::http::request_url;
use worker::{Env, Headers, Response};

use crate::edge::context::Call;
use crate::shared::builder_orders::{
    AdminOrder, FileOp, FileOrder, SweepOrder, Swept, ADMIN_PREFIX, ORDER_HEADER, SWEEP_PATH,
};
use crate::shared::config::BUILDER_BINDING;
use crate::shared::durable_client::read_reply;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::http::header;

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
    let url = call.req.inner().url();
    let query = request_url::query(&url)
        .map(|q| format!("?{q}"))
        .unwrap_or_default();
    let target = format!(
        "https://builder/{ADMIN_PREFIX}{}{query}",
        call.req.path().trim_start_matches('/')
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

/// POSTs `body` to the builder script's `path` (`crate::builder::service`); its 2xx body, or its
/// error as `read_reply` makes it.
pub async fn post_to_builder(env: &Env, path: &str, body: &str) -> ApiResult<Vec<u8>> {
    let request =
        crate::shared::http::json_post(&format!("https://builder/{path}"), &Headers::new(), body)?;
    let response = env.service(BUILDER_BINDING)?.fetch_request(request).await?;
    Ok(read_reply(response, "builder", path).await?.1)
}
