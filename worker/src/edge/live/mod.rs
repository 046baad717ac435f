//! The live version of a domain as the serving isolate answers it: from its pointer cache
//! (`pointers`) while fresh, else from R2, and never a version from an earlier release before
//! it is rebuilt (`crate::edge::site_upgrade`).

use worker::{Bucket, Env};

use self::pointers::{recent, remember};
use crate::edge::site_upgrade;
use crate::shared::clock::now_ms;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::sites::{current_version, SiteVersion};

/// The live version of `domain` for `org_id`, from the isolate's pointer cache when it was checked
/// in the last [`pointers::POINTER_TTL_MS`]; 404 when nothing is published (or only by another
/// organization), 503 `site_upgrading` while a version from an earlier release is rebuilt.
pub async fn live_version(
    env: &Env,
    bucket: &Bucket,
    domain: &str,
    org_id: &str,
) -> ApiResult<SiteVersion> {
    let version = cached_live_version(bucket, domain, org_id).await?;
    site_upgrade::require_current(env, domain, &version).await?;
    Ok(version)
}

async fn cached_live_version(
    bucket: &Bucket,
    domain: &str,
    org_id: &str,
) -> ApiResult<SiteVersion> {
    if let Some(version) = recent(domain, org_id, now_ms()) {
        return Ok(version);
    }
    let version = current_version(bucket, domain, org_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no docs are published for {domain}")))?;
    remember(domain, &version);
    Ok(version)
}

mod pointers;

pub use pointers::forget;
