//! `GET /discovery/v1/llms/{domain}/llms.txt` and `.../llms-full.txt`: the live site's index of
//! pages for agents and every page as Markdown. Same key (assistant), CORS and rate limits as the
//! other discovery endpoints: the public key is what a site already hands to browsers.

use worker::{Headers, Response, ResponseBuilder};

use crate::agent_docs;
use crate::storage::{LLMS_FULL_TXT, LLMS_TXT};
use crate::context::Call;
use crate::error::{ApiError, ApiResult};
use crate::routes::discovery::authorize;
use crate::site_upgrade;
use crate::sites;
use crate::storage;

pub async fn llms_txt(call: &mut Call) -> ApiResult<Response> {
    document(call, LLMS_TXT).await
}

pub async fn llms_full_txt(call: &mut Call) -> ApiResult<Response> {
    document(call, LLMS_FULL_TXT).await
}

async fn document(call: &mut Call, name: &str) -> ApiResult<Response> {
    let caller = authorize(call).await?;
    let bucket = storage::bucket(&call.env)?;
    let version = sites::current_version(&bucket, &caller.domain, &caller.key.org_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no docs are published for {}", caller.domain)))?;
    site_upgrade::require_current(&call.env, &bucket, &caller.domain, &version).await?;
    let headers = Headers::new();
    // The llms.txt convention serves Markdown as plain text, which every agent and browser shows.
    headers.set("content-type", "text/plain; charset=utf-8")?;
    agent_docs::document(&bucket, &caller.domain, &version, name, ResponseBuilder::new().with_status(200).with_headers(headers)).await
}
