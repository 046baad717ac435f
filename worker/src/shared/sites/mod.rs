//! Published docs sites in R2; the live version as the request-serving script answers it, with its
//! isolate's bounded cache of which version is live, is `crate::edge::live`.
//!
//! A version's objects live under `sites/{domain}/{publishId}/`, and `sites/{domain}/current.json`
//! names the live version (the keys and object names are `crate::shared::storage`'s). Writing that one
//! small object is the switch, so readers see the old version or the new one, never a mix, and a
//! failed publish (which never reaches the switch) leaves the old one live.
//!
//! A version names the organization that published it, and readers pass theirs: when a domain
//! changes hands, the previous owner's versions read as nothing published (and removing a domain
//! deletes its pointer; the retention sweep deletes the unreferenced versions).

use docs_edge_core::export::api::REPUBLISH_REQUIRED;
use serde::{Deserialize, Serialize};
use worker::Bucket;

use crate::shared::error::{ApiError, ApiResult};
use crate::shared::storage::current_key;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SiteVersion {
    pub publish_id: String,
    pub published_at: String,
    pub page_count: usize,
    pub languages: Vec<String>,
    pub versions: Vec<String>,
    /// The version readers land on (`default: true`, else the first declared), which search prefers
    /// when a question names none; absent for unversioned sites and versions published before this
    /// field, whose first declared version stands for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_version: Option<String>,
    pub warnings: Vec<String>,
    pub source_bytes: u64,
    pub index_bytes: u64,
    /// The publishing organization (versions published before this field have none, and are read
    /// by whoever owns the domain; removing the domain deletes their pointer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub org_id: Option<String>,
    #[serde(default)]
    pub index_format: IndexFormat,
    /// Which storage layout the version was published in: [`CURRENT_LAYOUT`] for versions of the
    /// publish pipeline; absent (0) for earlier ones, which are rebuilt (`crate::edge::site_upgrade`).
    #[serde(default)]
    pub layout: u32,
    /// Whether its text pack and `llms-full.txt` are its batches' pieces in the site's store, listed
    /// by its piece table (`crate::shared::pieced`); absent for versions stored whole (before the pieces,
    /// and sites built in memory).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pieces: bool,
}

/// The layout the publish pipeline writes: split search index, source packs and file table, site
/// outline, documents for agents. 2: the outline and plan hold the site settings and generated
/// endpoint pages (format 2), and media sit apart from the source packs. 3: the outline's fonts carry
/// weights and formats (outline format 3, which cannot read format 2). 4: pages and divisions say whether search keeps
/// them (outline format 4). A version of an earlier layout
/// is rebuilt from its stored upload on first use (`crate::edge::site_upgrade`).
pub const CURRENT_LAYOUT: u32 = 4;

impl SiteVersion {
    pub fn readable_by(&self, org_id: &str) -> bool {
        self.org_id.as_deref().is_none_or(|owner| owner == org_id)
    }
}

/// Which search objects a version has. Versions published before the split have only the whole
/// index (the field is absent from their record); their split objects are made on first use.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum IndexFormat {
    #[default]
    Whole,
    /// `index.bin` and the split objects under `search/`.
    Sharded,
}

/// The live version of `domain` as `org_id` may see it: another organization's is `None`.
pub async fn current_version(
    bucket: &Bucket,
    domain: &str,
    org_id: &str,
) -> ApiResult<Option<SiteVersion>> {
    let Some(object) = bucket.get(current_key(domain)).execute().await? else {
        return Ok(None);
    };
    let Some(body) = object.body() else {
        return Ok(None);
    };
    let version: SiteVersion = serde_json::from_slice(&body.bytes().await?)?;
    Ok(version.readable_by(org_id).then_some(version))
}

/// The publish id `domain`'s pointer names, whoever published it (the retention sweep keeps it).
/// The publish id `domain`'s pointer names, and when the pointer was stored (ms).
pub async fn live_pointer(bucket: &Bucket, domain: &str) -> ApiResult<Option<(String, u64)>> {
    let Some(object) = bucket.get(current_key(domain)).execute().await? else {
        return Ok(None);
    };
    let since_ms = object.uploaded().as_millis();
    let Some(body) = object.body() else {
        return Ok(None);
    };
    let version: SiteVersion = serde_json::from_slice(&body.bytes().await?)?;
    Ok(Some((version.publish_id, since_ms)))
}

/// Makes `version` (all of whose objects are stored) the live one. Serving isolates see it within
/// [`pointers::POINTER_TTL_MS`]; the one that answers the publishing request at once ([`forget`]).
pub async fn switch_to(bucket: &Bucket, domain: &str, version: &SiteVersion) -> ApiResult<()> {
    bucket
        .put(current_key(domain), serde_json::to_vec(version)?)
        .execute()
        .await?;
    Ok(())
}

/// The 409 for a live version that cannot be served as stored (`why` completes "the live version of
/// {domain} …"); publishing the docs again stores a whole version. Versions from an earlier release
/// are rebuilt first (`crate::edge::site_upgrade`), so this answers a rebuild that failed or an object missing.
pub fn republish_required(domain: &str, why: &str) -> ApiError {
    ApiError::Conflict {
        code: REPUBLISH_REQUIRED,
        message: format!("the live version of {domain} {why}; publish the docs again"),
    }
}

/// Takes `domain`'s site offline (its organization lost the domain): the pointer goes. Serving
/// isolates trust the pointer they hold for `pointers::POINTER_TTL_MS` more; the versions themselves
/// are left to the retention sweep.
pub async fn unpublish(bucket: &Bucket, domain: &str) -> ApiResult<()> {
    bucket.delete(current_key(domain)).await?;
    Ok(())
}
