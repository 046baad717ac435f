//! The live site's documents for agents in R2, written at publish beside the index (keys and names
//! in `crate::storage`): `llms.txt`, `llms-full.txt` (every page as Markdown) and
//! `markdown-pages.txt` (where each page sits in `llms-full.txt`, so one page is one ranged read
//! and no request holds the whole site). Versions published before these existed get them on first
//! use, made from their stored upload.

use docs_edge_core::docs::archive::ArchiveLimits;
use docs_edge_core::docs::site::build_site;
use docs_edge_core::agents::llms::{agent_docs, AgentDocs, MarkdownManifest};
use worker::{Bucket, Object, Range, ResponseBody};

use crate::error::{ApiError, ApiResult};
use crate::sites;
use crate::storage::{version_key, LLMS_FULL_TXT, LLMS_TXT, MARKDOWN_MANIFEST as MANIFEST};

/// The objects to store with a new version (names under its prefix).
pub fn objects(docs: AgentDocs) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        (LLMS_TXT, docs.llms_txt.into_bytes()),
        (LLMS_FULL_TXT, docs.llms_full.into_bytes()),
        (MANIFEST, docs.manifest.text.into_bytes()),
    ]
}

/// Makes the documents of a version published before they existed, from its stored upload (the
/// work and memory of a publish, once per version).
async fn backfill(bucket: &Bucket, domain: &str, publish_id: &str, limits: &ArchiveLimits) -> ApiResult<()> {
    let tree = sites::read_source(bucket, domain, publish_id, limits).await?;
    let site = build_site(&tree).map_err(|e| ApiError::Internal(format!("stored source: {e}")))?;
    // The manifest last: its presence says the others are there.
    for (name, bytes) in objects(agent_docs(&site, &tree, domain)).into_iter().rev() {
        bucket.put(version_key(domain, publish_id, name), bytes).execute().await?;
    }
    Ok(())
}

/// An object of the version's documents, made first if the version predates them.
async fn stored(bucket: &Bucket, domain: &str, publish_id: &str, name: &str, limits: &ArchiveLimits, range: Option<Range>) -> ApiResult<Object> {
    let key = version_key(domain, publish_id, name);
    let manifest_key = version_key(domain, publish_id, MANIFEST);
    for attempt in 0..2 {
        let mut get = bucket.get(&key);
        if let Some(range) = &range {
            get = get.range(range.clone());
        }
        if let Some(object) = get.execute().await? {
            return Ok(object);
        }
        if attempt == 0 && bucket.head(&manifest_key).await?.is_none() {
            backfill(bucket, domain, publish_id, limits).await?;
        }
    }
    Err(ApiError::Internal(format!("{name} of {domain} {publish_id} is missing")))
}

/// `llms.txt` or `llms-full.txt` of a published version, streamed from R2.
pub async fn document(bucket: &Bucket, domain: &str, publish_id: &str, name: &str, limits: &ArchiveLimits) -> ApiResult<ResponseBody> {
    let object = stored(bucket, domain, publish_id, name, limits, None).await?;
    let body = object.body().ok_or_else(|| ApiError::Internal(format!("{name} of {domain} has no body")))?;
    Ok(body.response_body()?)
}

/// One page as Markdown (`path` as the index stores it); `None` when the page has none.
pub async fn page_markdown(bucket: &Bucket, domain: &str, publish_id: &str, path: &str, limits: &ArchiveLimits) -> ApiResult<Option<String>> {
    let object = stored(bucket, domain, publish_id, MANIFEST, limits, None).await?;
    let bytes = object.body().ok_or_else(|| ApiError::Internal("Markdown manifest has no body".into()))?.bytes().await?;
    let manifest = MarkdownManifest { text: String::from_utf8(bytes).map_err(|_| ApiError::Internal("Markdown manifest is not UTF-8".into()))? };
    let Some((offset, length)) = manifest.range(path) else { return Ok(None) };
    let range = Range::OffsetWithLength { offset, length };
    let object = stored(bucket, domain, publish_id, LLMS_FULL_TXT, limits, Some(range)).await?;
    let bytes = object.body().ok_or_else(|| ApiError::Internal("llms-full.txt has no body".into()))?.bytes().await?;
    String::from_utf8(bytes).map(Some).map_err(|_| ApiError::Internal(format!("Markdown of {path} is not UTF-8")))
}
