//! `POST /discovery/v1/search/{domain}` and `POST /discovery/v1/page/{domain}`: search the live docs and
//! read one page. Shapes as the hosted service's discovery OpenAPI document; request rules in core's
//! `search::api`, answers in `search::discovery`, both shared with docs-edge-serve.

use docs_edge_core::search::{
    discovery_query, discovery_results, page_content, parse_page_request, parse_search_request,
    PageFormat,
};
use worker::Response;

use crate::edge::agent_docs;
use crate::edge::context::Call;
use crate::edge::routes::discovery::authorize;
use crate::edge::search_store;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::http::{json_response, read_json_object};
use crate::shared::storage;

pub async fn search(call: &mut Call) -> ApiResult<Response> {
    let caller = authorize(call).await?;
    let body = read_json_object(&mut call.req, call.config.max_json_body_bytes).await?;
    let request = parse_search_request(&body)?;
    let site = search_store::open(
        &call.env,
        call.config.search_cache_bytes,
        &caller.domain,
        &caller.key.org_id,
    )
    .await?;
    let hits = site.search(&discovery_query(&request)).await?;
    json_response(200, &discovery_results(hits))
}

pub async fn page(call: &mut Call) -> ApiResult<Response> {
    let caller = authorize(call).await?;
    let body = read_json_object(&mut call.req, call.config.max_json_body_bytes).await?;
    let request = parse_page_request(&body)?;
    let site = search_store::open(
        &call.env,
        call.config.search_cache_bytes,
        &caller.domain,
        &caller.key.org_id,
    )
    .await?;
    let doc = site
        .page(&request.path)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("page {} not found", request.path)))?;
    let mut page = page_content(doc);
    if request.format == PageFormat::Markdown {
        page.content = agent_docs::page_markdown(
            &storage::bucket(&call.env)?,
            &caller.domain,
            &site.version,
            &page.path,
        )
        .await?
        .ok_or_else(|| {
            ApiError::NotFound(format!("page {} has no Markdown rendering", page.path))
        })?;
    }
    json_response(200, &page)
}
