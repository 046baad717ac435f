//! Published docs sites in R2, and the isolate's cache of their search indexes.
//!
//! Layout: `sites/{domain}/{publishId}/source.tar.gz` (the upload as received) and `.../index.bin` (the
//! search index); `sites/{domain}/current.json` names the live version. Writing that one small object is
//! the switch, so readers see the old version or the new one, never a mix, and a failed publish (which
//! never reaches the switch) leaves the old one live.
//!
//! A version names the organization that published it, and readers pass theirs: when a domain
//! changes hands, the previous owner's versions read as nothing published (and removing a domain
//! deletes its pointer; the retention sweep deletes the unreferenced versions).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use docs_edge_core::docs::archive::{read_docs_archive, ArchiveLimits, SourceTree};
use docs_edge_core::search::SearchIndex;
use serde::{Deserialize, Serialize};
use worker::{Bucket, Env};

use crate::clock::now_ms;
use crate::config::R2_BINDING;
use crate::error::{ApiError, ApiResult};

/// How long an isolate trusts its idea of the live version before asking R2 again.
const POINTER_TTL_MS: u64 = 5_000;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SiteVersion {
    pub publish_id: String,
    pub published_at: String,
    pub page_count: usize,
    pub languages: Vec<String>,
    pub versions: Vec<String>,
    pub warnings: Vec<String>,
    pub source_bytes: u64,
    pub index_bytes: u64,
    /// The publishing organization (versions published before this field have none, and are read
    /// by whoever owns the domain; removing the domain deletes their pointer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub org_id: Option<String>,
}

impl SiteVersion {
    fn readable_by(&self, org_id: &str) -> bool {
        self.org_id.as_deref().is_none_or(|owner| owner == org_id)
    }
}

struct CachedSite {
    version: SiteVersion,
    index: Rc<SearchIndex>,
    checked_ms: u64,
}

thread_local! {
    static INDEXES: RefCell<HashMap<String, CachedSite>> = RefCell::new(HashMap::new());
}

pub fn bucket(env: &Env) -> ApiResult<Bucket> {
    Ok(env.bucket(R2_BINDING)?)
}

pub fn current_key(domain: &str) -> String {
    format!("sites/{domain}/current.json")
}

pub fn version_prefix(domain: &str, publish_id: &str) -> String {
    format!("sites/{domain}/{publish_id}/")
}

/// The live version of `domain` as `org_id` may see it: another organization's is `None`.
pub async fn current_version(bucket: &Bucket, domain: &str, org_id: &str) -> ApiResult<Option<SiteVersion>> {
    let Some(object) = bucket.get(current_key(domain)).execute().await? else {
        return Ok(None);
    };
    let Some(body) = object.body() else { return Ok(None) };
    let version: SiteVersion = serde_json::from_slice(&body.bytes().await?)?;
    Ok(version.readable_by(org_id).then_some(version))
}

/// 404 unless `org_id` has a live version of `domain`: checked before an answer's response starts,
/// while retrieval itself runs after its first bytes. A fresh cached index answers without R2.
pub async fn require_live(env: &Env, domain: &str, org_id: &str) -> ApiResult<()> {
    let now = now_ms();
    let fresh = INDEXES.with(|cache| {
        cache.borrow().get(domain).is_some_and(|c| {
            now.saturating_sub(c.checked_ms) < POINTER_TTL_MS && c.version.readable_by(org_id)
        })
    });
    if fresh {
        return Ok(());
    }
    match current_version(&bucket(env)?, domain, org_id).await? {
        Some(_) => Ok(()),
        None => Err(ApiError::NotFound(format!("no docs are published for {domain}"))),
    }
}

/// The publish id `domain`'s pointer names, whoever published it (the retention sweep keeps it).
pub async fn live_publish_id(bucket: &Bucket, domain: &str) -> ApiResult<Option<String>> {
    let Some(object) = bucket.get(current_key(domain)).execute().await? else {
        return Ok(None);
    };
    let Some(body) = object.body() else { return Ok(None) };
    let version: SiteVersion = serde_json::from_slice(&body.bytes().await?)?;
    Ok(Some(version.publish_id))
}

/// Takes `domain`'s site offline (its organization lost the domain): the pointer goes, and this
/// isolate forgets the index. The versions themselves are left to the retention sweep.
pub async fn unpublish(bucket: &Bucket, domain: &str) -> ApiResult<()> {
    bucket.delete(current_key(domain)).await?;
    INDEXES.with(|cache| cache.borrow_mut().remove(domain));
    Ok(())
}

/// Stores a new version's objects (`extra`: more named objects under its prefix), then switches the
/// site to it.
pub async fn publish(
    bucket: &Bucket,
    domain: &str,
    version: &SiteVersion,
    source: Vec<u8>,
    index: Vec<u8>,
    extra: Vec<(&str, Vec<u8>)>,
) -> ApiResult<()> {
    let prefix = version_prefix(domain, &version.publish_id);
    bucket.put(format!("{prefix}source.tar.gz"), source).execute().await?;
    bucket.put(format!("{prefix}index.bin"), index).execute().await?;
    for (name, bytes) in extra {
        bucket.put(format!("{prefix}{name}"), bytes).execute().await?;
    }
    bucket.put(current_key(domain), serde_json::to_vec(version)?).execute().await?;
    INDEXES.with(|cache| cache.borrow_mut().remove(domain));
    Ok(())
}

/// The docs tree of a published version, read back from its stored upload.
pub async fn read_source(bucket: &Bucket, domain: &str, publish_id: &str, limits: &ArchiveLimits) -> ApiResult<SourceTree> {
    let key = format!("{}source.tar.gz", version_prefix(domain, publish_id));
    let object = bucket
        .get(key)
        .execute()
        .await?
        .ok_or_else(|| ApiError::Internal(format!("the published version {publish_id} is gone")))?;
    let bytes = object.body().ok_or_else(|| ApiError::Internal("source object has no body".into()))?.bytes().await?;
    read_docs_archive(&bytes, limits).map_err(|e| ApiError::Internal(format!("stored source: {e}")))
}

/// The live index of `domain` for `org_id`, from the isolate cache when it is fresh; 404 when nothing
/// is published (or only by another organization).
pub async fn live_index(env: &Env, domain: &str, org_id: &str) -> ApiResult<(SiteVersion, Rc<SearchIndex>)> {
    let now = now_ms();
    let cached = INDEXES.with(|cache| {
        cache.borrow().get(domain).map(|c| (c.version.clone(), c.index.clone(), c.checked_ms))
    });
    if let Some((version, index, checked)) = &cached {
        if now.saturating_sub(*checked) < POINTER_TTL_MS && version.readable_by(org_id) {
            return Ok((version.clone(), index.clone()));
        }
    }
    let bucket = bucket(env)?;
    let version = current_version(&bucket, domain, org_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no docs are published for {domain}")))?;
    if let Some((cached_version, index, _)) = cached {
        if cached_version.publish_id == version.publish_id {
            remember(domain, &version, index.clone());
            return Ok((version, index));
        }
    }
    let key = format!("{}index.bin", version_prefix(domain, &version.publish_id));
    let object = bucket
        .get(key)
        .execute()
        .await?
        .ok_or_else(|| ApiError::Internal(format!("index of {domain} {} is missing", version.publish_id)))?;
    let bytes = object.body().ok_or_else(|| ApiError::Internal("index object has no body".into()))?.bytes().await?;
    let index = Rc::new(SearchIndex::from_bytes(&bytes).map_err(|e| ApiError::Internal(format!("index of {domain}: {e}")))?);
    remember(domain, &version, index.clone());
    Ok((version, index))
}

fn remember(domain: &str, version: &SiteVersion, index: Rc<SearchIndex>) {
    INDEXES.with(|cache| {
        cache.borrow_mut().insert(
            domain.to_string(),
            CachedSite { version: version.clone(), index, checked_ms: now_ms() },
        );
    });
}
