//! `GET /discovery/v1/llms/{domain}/llms.txt`, `.../llms-full.txt`, `.../skill.md` and
//! `.../.well-known/{agent-skills,skills}/…`: the live site's index of pages for agents, every page
//! as Markdown, the owner's `skill.md`, and the skills' discovery indexes and files. Same key
//! (assistant), CORS and rate limits as the other discovery endpoints: the public key is what a
//! site already hands to browsers.

use docs_edge_core::docs::public_skills::requested_file;
use docs_edge_core::http::routes::Route;
use docs_edge_core::http::site_headers::content_type;
use worker::{Headers, Response, ResponseBuilder};

use crate::edge::agent_docs;
use crate::edge::context::Call;
use crate::edge::live;
use crate::edge::routes::discovery::authorize;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::storage;
use crate::shared::storage::{LLMS_FULL_TXT, LLMS_TXT, SKILL_MD};

pub async fn llms_txt(call: &mut Call) -> ApiResult<Response> {
    document(call, LLMS_TXT).await
}

pub async fn llms_full_txt(call: &mut Call) -> ApiResult<Response> {
    document(call, LLMS_FULL_TXT).await
}

/// The owner's `skill.md` as written; 404 when the live version has none.
pub async fn skill_md(call: &mut Call) -> ApiResult<Response> {
    let caller = authorize(call).await?;
    let bucket = storage::bucket(&call.env)?;
    let version =
        live::live_version(&call.env, &bucket, &caller.domain, &caller.key.org_id).await?;
    let skill = agent_docs::text(&bucket, &caller.domain, &version, SKILL_MD)
        .await?
        .ok_or_else(|| {
            ApiError::NotFound(format!(
                "{} has no skill.md: add one at the root of the docs repository and publish",
                caller.domain
            ))
        })?;
    let headers = Headers::new();
    headers.set("content-type", "text/markdown; charset=utf-8")?;
    Ok(ResponseBuilder::new()
        .with_status(200)
        .with_headers(headers)
        .fixed(skill.into_bytes()))
}

/// A file of the skills' discovery (`docs_edge_core::docs::public_skills`), streamed as the publish
/// stored it; 404 for a path that names none or a live version without it.
pub async fn skills_file(call: &mut Call) -> ApiResult<Response> {
    let named = (call.matched.route == Route::SkillFile).then(|| (call.param(2), call.param(3)));
    let path = requested_file(call.param(1), named);
    let caller = authorize(call).await?;
    let missing = || {
        ApiError::NotFound(format!("{} serves no such skill file: skills are the root skill.md and .mintlify/skills/<folder>/SKILL.md", caller.domain))
    };
    let path = path.ok_or_else(missing)?;
    let bucket = storage::bucket(&call.env)?;
    let version =
        live::live_version(&call.env, &bucket, &caller.domain, &caller.key.org_id).await?;
    let object = bucket
        .get(storage::version_key(
            &caller.domain,
            &version.publish_id,
            &path,
        ))
        .execute()
        .await?
        .ok_or_else(missing)?;
    let body = object.body().ok_or_else(missing)?;
    let headers = Headers::new();
    headers.set("content-type", content_type(&path))?;
    Ok(ResponseBuilder::new()
        .with_status(200)
        .with_headers(headers)
        .body(body.response_body()?))
}

async fn document(call: &mut Call, name: &str) -> ApiResult<Response> {
    let caller = authorize(call).await?;
    let bucket = storage::bucket(&call.env)?;
    let version =
        live::live_version(&call.env, &bucket, &caller.domain, &caller.key.org_id).await?;
    let headers = Headers::new();
    // The llms.txt convention serves Markdown as plain text, which every agent and browser shows.
    headers.set("content-type", "text/plain; charset=utf-8")?;
    agent_docs::document(
        &bucket,
        &caller.domain,
        &version,
        name,
        ResponseBuilder::new()
            .with_status(200)
            .with_headers(headers),
    )
    .await
}
