//! Calls from the worker (or one Durable Object) to a Durable Object: a JSON POST to an internal
//! path of the object named `name`. Errors made by the object pass through as it made them.

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::JsValue;
use worker::{Env, Headers, Method, Request, RequestInit};

use crate::error::{ApiError, ApiResult};
use docs_edge_core::wire::ErrorBody;

/// The object's 2xx body, or its error as [`ApiError::Relayed`] (status, body and `Retry-After` kept).
pub async fn post<B: Serialize, T: DeserializeOwned>(
    env: &Env,
    binding: &str,
    name: &str,
    op: &str,
    body: &B,
) -> ApiResult<T> {
    let (_, bytes) = exchange(env, binding, name, op, body).await?;
    Ok(serde_json::from_slice(&bytes)?)
}

/// [`post`] for an operation that answers plain bytes with its facts in headers: the headers and body.
pub async fn post_for_bytes<B: Serialize>(
    env: &Env,
    binding: &str,
    name: &str,
    op: &str,
    body: &B,
) -> ApiResult<(Headers, Vec<u8>)> {
    exchange(env, binding, name, op, body).await
}

async fn exchange<B: Serialize>(env: &Env, binding: &str, name: &str, op: &str, body: &B) -> ApiResult<(Headers, Vec<u8>)> {
    let stub = env.durable_object(binding)?.id_from_name(name)?.get_stub()?;
    let headers = Headers::new();
    headers.set("content-type", "application/json")?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(JsValue::from_str(&serde_json::to_string(body)?)));
    let request = Request::new_with_init(&format!("https://durable-object/{op}"), &init)?;
    let mut response = stub.fetch_with_request(request).await?;
    let status = response.status_code();
    let bytes = response.bytes().await?;
    if (200..300).contains(&status) {
        return Ok((response.headers().clone(), bytes));
    }
    match serde_json::from_slice::<ErrorBody>(&bytes) {
        Ok(body) => {
            let mut headers = Vec::new();
            if let Ok(Some(retry)) = response.headers().get("retry-after") {
                headers.push(("Retry-After".to_string(), retry));
            }
            Err(ApiError::Relayed { status, body, headers })
        }
        Err(_) => Err(ApiError::Internal(format!(
            "{binding} object answered {status} to {op}: {}",
            String::from_utf8_lossy(&bytes).chars().take(200).collect::<String>()
        ))),
    }
}

/// A response made inside an object from our one error type, for [`post`] to pass on.
pub fn error_reply(err: &ApiError) -> worker::Result<worker::Response> {
    if let Some(detail) = err.log_detail() {
        worker::console_error!("{}", serde_json::json!({ "event": "durable_object_error", "error": detail }));
    }
    Ok(crate::error::error_response(err))
}
