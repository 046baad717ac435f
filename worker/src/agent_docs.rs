//! The live site's documents for agents in R2, written at publish beside the index:
//! `sites/{domain}/{publishId}/llms.txt`, `.../llms-full.txt` (every page as Markdown) and
//! `.../markdown.json` (where each page sits in `llms-full.txt`, so one page is one ranged read
//! and no request holds the whole site).

use docs_edge_core::llms::{AgentDocs, MarkdownManifest};
use worker::{Bucket, Range, ResponseBody};

use crate::error::{ApiError, ApiResult};
use crate::sites::version_prefix;

pub const LLMS_TXT: &str = "llms.txt";
pub const LLMS_FULL_TXT: &str = "llms-full.txt";
const MANIFEST: &str = "markdown.json";

/// The objects to store with a new version (names under its prefix).
pub fn objects(docs: AgentDocs) -> ApiResult<Vec<(&'static str, Vec<u8>)>> {
    Ok(vec![
        (LLMS_TXT, docs.llms_txt.into_bytes()),
        (LLMS_FULL_TXT, docs.llms_full.into_bytes()),
        (MANIFEST, serde_json::to_vec(&docs.manifest)?),
    ])
}

fn missing(domain: &str) -> ApiError {
    // Versions published before agent documents existed have none; publishing again makes them.
    ApiError::NotFound(format!("no Markdown documents are stored for {domain}; publish the site again to create them"))
}

/// `llms.txt` or `llms-full.txt` of a published version, streamed from R2.
pub async fn document(bucket: &Bucket, domain: &str, publish_id: &str, name: &str) -> ApiResult<ResponseBody> {
    let key = format!("{}{name}", version_prefix(domain, publish_id));
    let object = bucket.get(key).execute().await?.ok_or_else(|| missing(domain))?;
    let body = object.body().ok_or_else(|| ApiError::Internal(format!("{name} of {domain} has no body")))?;
    Ok(body.response_body()?)
}

/// One page as Markdown (`path` as the index stores it); `None` when the page has none.
pub async fn page_markdown(bucket: &Bucket, domain: &str, publish_id: &str, path: &str) -> ApiResult<Option<String>> {
    let prefix = version_prefix(domain, publish_id);
    let object = bucket.get(format!("{prefix}{MANIFEST}")).execute().await?.ok_or_else(|| missing(domain))?;
    let bytes = object.body().ok_or_else(|| ApiError::Internal("Markdown manifest has no body".into()))?.bytes().await?;
    let manifest: MarkdownManifest = serde_json::from_slice(&bytes)?;
    let Some((offset, length)) = manifest.range(path) else { return Ok(None) };
    let object = bucket
        .get(format!("{prefix}{LLMS_FULL_TXT}"))
        .range(Range::OffsetWithLength { offset, length })
        .execute()
        .await?
        .ok_or_else(|| missing(domain))?;
    let bytes = object.body().ok_or_else(|| ApiError::Internal("llms-full.txt has no body".into()))?.bytes().await?;
    String::from_utf8(bytes).map(Some).map_err(|_| ApiError::Internal(format!("Markdown of {path} is not UTF-8")))
}
