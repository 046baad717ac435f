//! The THREADS Durable Object namespace, seen from the worker: look a thread up, append turns.

use crate::config::THREADS_BINDING;
use crate::durable::thread::{AppendRequest, OwnerQuery, ThreadRecord};
use crate::durable_client::post;
use crate::error::{ApiError, ApiResult};

/// The object answers 404 for a thread that does not exist for this owner.
fn absent_as_none(result: ApiResult<ThreadRecord>) -> ApiResult<Option<ThreadRecord>> {
    match result {
        Ok(record) => Ok(Some(record)),
        Err(ApiError::Relayed { status: 404, .. }) => Ok(None),
        Err(err) => Err(err),
    }
}

/// The thread if it exists and belongs to this organization (and domain, when given).
pub async fn find(env: &worker::Env, thread_id: &str, org_id: &str, domain: Option<&str>) -> ApiResult<Option<ThreadRecord>> {
    let owner = OwnerQuery { org_id: org_id.into(), domain: domain.map(str::to_string) };
    absent_as_none(post(env, THREADS_BINDING, thread_id, "get", &owner).await)
}

/// Appends turns; `None` when `create` is false and the thread does not exist for this owner.
pub async fn append(env: &worker::Env, request: &AppendRequest) -> ApiResult<Option<ThreadRecord>> {
    absent_as_none(post(env, THREADS_BINDING, &request.thread_id, "append", request).await)
}
