//! `GET /v1/threads/{threadId}`: the server's record of an assistant conversation. Admin keys only;
//! another organization's thread is 404.

use docs_edge_core::wire::KeyKind;
use worker::Response;

use crate::edge::auth::require_key;
use crate::edge::context::Call;
use crate::edge::durable::thread::ThreadClient;
use crate::shared::directory::Directory;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::http::json_response;

pub async fn get(call: &mut Call) -> ApiResult<Response> {
    let directory = Directory::open(&call.env)?;
    let key = require_key(&call.req, &directory, KeyKind::Admin).await?;
    let thread_id = call.param(0).to_string();
    if thread_id.len() > 100 || !thread_id.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(ApiError::NotFound("thread not found".into()));
    }
    let record = ThreadClient::new(&call.env)
        .find(&thread_id, &key.org_id, None)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("thread {thread_id} not found")))?;
    json_response(200, &record)
}
