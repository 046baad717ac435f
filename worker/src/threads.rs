//! The THREADS Durable Object namespace, seen from the worker: look a thread up, append turns.

use serde::Serialize;
use wasm_bindgen::JsValue;
use worker::{Env, Headers, Method, Request, RequestInit};

use crate::config::THREADS_BINDING;
use crate::durable::thread::{AppendRequest, OwnerQuery, ThreadRecord};
use crate::error::{ApiError, ApiResult};

async fn send<T: Serialize>(env: &Env, thread_id: &str, op: &str, body: &T) -> ApiResult<Option<ThreadRecord>> {
    let stub = env.durable_object(THREADS_BINDING)?.id_from_name(thread_id)?.get_stub()?;
    let headers = Headers::new();
    headers.set("content-type", "application/json")?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(JsValue::from_str(&serde_json::to_string(body)?)));
    let request = Request::new_with_init(&format!("https://thread/{op}"), &init)?;
    let mut response = stub.fetch_with_request(request).await?;
    match response.status_code() {
        200 => Ok(Some(response.json().await?)),
        404 => Ok(None),
        status => Err(ApiError::Internal(format!("thread object answered {status} to {op}"))),
    }
}

/// The thread if it exists and belongs to this organization (and domain, when given).
pub async fn find(env: &Env, thread_id: &str, org_id: &str, domain: Option<&str>) -> ApiResult<Option<ThreadRecord>> {
    send(env, thread_id, "get", &OwnerQuery { org_id: org_id.into(), domain: domain.map(str::to_string) }).await
}

/// Appends turns; `None` when `create` is false and the thread does not exist for this owner.
pub async fn append(env: &Env, request: &AppendRequest) -> ApiResult<Option<ThreadRecord>> {
    send(env, &request.thread_id, "append", request).await
}
