//! The live site's documents for agents in R2, written at publish beside the index (keys and names
//! in `crate::shared::storage`): `llms.txt`, `llms-full.txt` (every page as Markdown) and
//! `markdown-pages.txt` (where each page sits in `llms-full.txt`, so one page is one ranged read
//! and no request holds the whole site). A staged version's `llms-full.txt` is its batches' pieces
//! (`crate::shared::pieced`), served one after another. A version published before these existed answers
//! 409 `republish_required`.

use docs_edge_core::agents::llms::MarkdownManifest;
use docs_edge_core::publish::pieced::Pieced;
use worker::{Bucket, Object, Range, Response, ResponseBuilder};

use crate::shared::error::{ApiError, ApiResult};
use crate::shared::pieced::Stored;
use crate::shared::sites::{self, SiteVersion};
use crate::shared::storage::{version_key, LLMS_FULL_TXT, MARKDOWN_MANIFEST as MANIFEST};

/// An object of the version's documents; 409 `republish_required` for a version published before
/// them (no manifest).
async fn stored(
    bucket: &Bucket,
    domain: &str,
    publish_id: &str,
    name: &str,
    range: Option<Range>,
) -> ApiResult<Object> {
    let mut get = bucket.get(version_key(domain, publish_id, name));
    if let Some(range) = range {
        get = get.range(range);
    }
    if let Some(object) = get.execute().await? {
        return Ok(object);
    }
    if bucket
        .head(version_key(domain, publish_id, MANIFEST))
        .await?
        .is_none()
    {
        return Err(sites::republish_required(
            domain,
            "has no documents for agents stored with it",
        ));
    }
    Err(ApiError::Internal(format!(
        "{name} of {domain} {publish_id} is missing"
    )))
}

/// `llms-full.txt` of `version` as it is stored: whole, or its pieces.
async fn llms_full(bucket: &Bucket, domain: &str, version: &SiteVersion) -> ApiResult<Stored> {
    let table = match version.pieces {
        true => Some(std::rc::Rc::new(
            crate::shared::pieced::required_table(bucket, domain, &version.publish_id).await?,
        )),
        false => None,
    };
    Ok(Stored::of(domain, &version.publish_id, table, Pieced::Llms))
}

/// `llms.txt` or `llms-full.txt` of a published version, streamed from R2, as `response`'s body.
pub async fn document(
    bucket: &Bucket,
    domain: &str,
    version: &SiteVersion,
    name: &str,
    response: ResponseBuilder,
) -> ApiResult<Response> {
    if name == LLMS_FULL_TXT {
        if let Some(stream) = llms_full(bucket, domain, version).await?.stream(bucket) {
            return Ok(response.from_stream(stream)?);
        }
    }
    let object = stored(bucket, domain, &version.publish_id, name, None).await?;
    let body = object
        .body()
        .ok_or_else(|| ApiError::Internal(format!("{name} of {domain} has no body")))?;
    Ok(response.body(body.response_body()?))
}

/// A whole stored document of the version as text (`llms.txt`, `skill.md`); `None` when absent.
pub async fn text(
    bucket: &Bucket,
    domain: &str,
    version: &SiteVersion,
    name: &str,
) -> ApiResult<Option<String>> {
    let Some(object) = bucket
        .get(version_key(domain, &version.publish_id, name))
        .execute()
        .await?
    else {
        return Ok(None);
    };
    let bytes = object
        .body()
        .ok_or_else(|| ApiError::Internal(format!("{name} has no body")))?
        .bytes()
        .await?;
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| ApiError::Internal(format!("{name} is not UTF-8")))
}

/// One page as Markdown (`path` as the index stores it); `None` when the page has none.
pub async fn page_markdown(
    bucket: &Bucket,
    domain: &str,
    version: &SiteVersion,
    path: &str,
) -> ApiResult<Option<String>> {
    let publish_id = version.publish_id.as_str();
    let object = stored(bucket, domain, publish_id, MANIFEST, None).await?;
    let bytes = object
        .body()
        .ok_or_else(|| ApiError::Internal("Markdown manifest has no body".into()))?
        .bytes()
        .await?;
    let manifest = MarkdownManifest {
        text: String::from_utf8(bytes)
            .map_err(|_| ApiError::Internal("Markdown manifest is not UTF-8".into()))?,
    };
    let Some((offset, length)) = manifest.range(path) else {
        return Ok(None);
    };
    let bytes = if version.pieces {
        let pieces = llms_full(bucket, domain, version).await?;
        pieces
            .read(bucket, offset..offset + length)
            .await?
            .ok_or_else(|| ApiError::Internal("llms-full.txt is missing".into()))?
    } else {
        let object = stored(
            bucket,
            domain,
            publish_id,
            LLMS_FULL_TXT,
            Some(Range::OffsetWithLength { offset, length }),
        )
        .await?;
        object
            .body()
            .ok_or_else(|| ApiError::Internal("llms-full.txt has no body".into()))?
            .bytes()
            .await?
    };
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| ApiError::Internal(format!("Markdown of {path} is not UTF-8")))
}
