//! A hosted domain's live pointer (`hosted/{domain}/live.json`, [`LiveSite`]), written: the switch to
//! a new export, which keeps the export served until then as the previous one, and the rollback to
//! that previous one. Each is one write of the pointer, so a request reads one export or the other.

use docs_edge_core::export::hosting::LiveSite;
use worker::{Bucket, HttpMetadata};

use crate::shared::clock::now_ms;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::storage::{self, export_host_key, hosted_live_key};

/// Switches the site at `host` (its domain, or a preview's hostname) to `live`, whose files are all
/// written. Two domains may map to one preview hostname (`docs_edge_core::publish::preview`): a
/// preview never replaces a pointer of another domain, nor a domain's own site.
pub async fn go_live(bucket: &Bucket, host: &str, live: LiveSite) -> ApiResult<()> {
    let current = read_live(bucket, host).await?;
    if let Some(current) = &current {
        if current.preview_of != live.preview_of {
            return Err(ApiError::Conflict {
                code: "preview_host_taken",
                message: format!("{host} serves another site; this preview is not served"),
            });
        }
    }
    write_live(bucket, host, &live.switched_from(current, now_ms())).await
}

/// Whether export `job_id`'s own files (`exports/{job_id}/…`: its parts, products and batch keys)
/// outlive the export retention: the site it was written for serves it, or keeps it to roll back
/// to. The next export takes its unchanged batches from them, and its bundle is minted from them.
pub async fn serves_export(bucket: &Bucket, job_id: &str) -> ApiResult<bool> {
    let Some(host) = storage::read(bucket, &export_host_key(job_id), None).await? else {
        return Ok(false);
    };
    let now = now_ms();
    Ok(read_live(bucket, &String::from_utf8_lossy(&host))
        .await?
        .is_some_and(|live| !live.expired(now) && live.keeps(job_id, now, 0)))
}

/// Switches the domain's site back to its previous export; the pointer written, or `None` when the
/// site is not live or has no previous export.
pub async fn roll_back(bucket: &Bucket, domain: &str) -> ApiResult<Option<LiveSite>> {
    let Some(back) = read_live(bucket, domain)
        .await?
        .and_then(|live| live.rolled_back(now_ms()))
    else {
        return Ok(None);
    };
    write_live(bucket, domain, &back).await?;
    Ok(Some(back))
}

/// The domain's live pointer; `None` when its site is not live.
pub async fn read_live(bucket: &Bucket, domain: &str) -> ApiResult<Option<LiveSite>> {
    match storage::read(bucket, &hosted_live_key(domain), None).await? {
        Some(bytes) => Ok(Some(serde_json::from_slice(&bytes)?)),
        None => Ok(None),
    }
}

async fn write_live(bucket: &Bucket, domain: &str, live: &LiveSite) -> ApiResult<()> {
    let metadata = HttpMetadata {
        content_type: Some("application/json".into()),
        ..HttpMetadata::default()
    };
    bucket
        .put(hosted_live_key(domain), serde_json::to_vec(live)?)
        .http_metadata(metadata)
        .execute()
        .await?;
    Ok(())
}
