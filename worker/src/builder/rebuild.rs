//! The builder's half of the upgrade of a version from an earlier release (`crate::edge::site_upgrade`
//! says why and when): started or followed on the request-serving script's order
//! (`crate::shared::builder_orders::UpgradeOrder`), it republishes the version's stored upload or manifest
//! through the domain's `PublishJob`, recorded beside the old version (`rebuild.json`).

use serde::{Deserialize, Serialize};
use worker::{Bucket, Env, Request, Response};

use docs_edge_core::publish::manifest::MANIFEST_OBJECT;
use docs_edge_core::wire::PublishState;

use crate::shared::builder_orders::UpgradeOrder;
use crate::shared::directory::Directory;
use crate::shared::durable::publish_job::{PublishJobClient, Query, Start};
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::http::empty_response;
use crate::shared::random::random_id;
use crate::shared::sites;
use crate::shared::storage::{self, version_key, SITE_REBUILD, SOURCE_OBJECT};

/// The rebuild of an old version, stored beside it.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Rebuild {
    publish_id: String,
    org_id: String,
}

/// `POST /upgrade` with an [`UpgradeOrder`] for a version from an earlier release: starts (or
/// follows) its rebuild and answers 503 `site_upgrading`, or 409 `republish_required` once the
/// rebuild has failed.
pub async fn serve(req: &mut Request, env: &Env) -> ApiResult<Response> {
    let order: UpgradeOrder = serde_json::from_slice(&req.bytes().await?)?;
    upgrade(env, &storage::bucket(env)?, &order).await?;
    Ok(empty_response(204))
}

async fn upgrade(env: &Env, bucket: &Bucket, order: &UpgradeOrder) -> ApiResult<()> {
    let domain = order.domain.as_str();
    let marker = version_key(domain, &order.publish_id, SITE_REBUILD);
    if let Some(object) = bucket.get(&marker).execute().await? {
        let bytes = object
            .body()
            .ok_or_else(|| ApiError::Internal("rebuild record has no body".into()))?
            .bytes()
            .await?;
        let rebuild: Rebuild = serde_json::from_slice(&bytes)?;
        let query = Query {
            publish_id: rebuild.publish_id,
            org_id: rebuild.org_id,
        };
        let record = PublishJobClient::new(env, domain).status(&query).await?;
        if record.status.status == PublishState::Failed {
            let reason = record
                .status
                .error
                .unwrap_or_else(|| "the rebuild failed".into());
            return Err(not_rebuilt(domain, &reason));
        }
        return Err(ApiError::SiteUpgrading {
            domain: domain.to_string(),
        });
    }
    start(env, bucket, order, &marker).await?;
    Err(ApiError::SiteUpgrading {
        domain: domain.to_string(),
    })
}

async fn start(env: &Env, bucket: &Bucket, order: &UpgradeOrder, marker: &str) -> ApiResult<()> {
    let (domain, old_publish_id) = (order.domain.as_str(), order.publish_id.as_str());
    let org_id = match &order.org_id {
        Some(org_id) => org_id.clone(),
        None => Directory::open(env)?
            .domain_owner(domain)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("no docs are published for {domain}")))?,
    };
    // A `.tar.gz` publish kept its upload; a publish file by file kept its manifest, whose files stay
    // in the site's store while the version is live (the sweep keeps what a kept version names).
    let source = match bucket
        .get(version_key(domain, old_publish_id, SOURCE_OBJECT))
        .execute()
        .await?
    {
        Some(upload) => Some((SOURCE_OBJECT, upload)),
        None => bucket
            .get(version_key(domain, old_publish_id, MANIFEST_OBJECT))
            .execute()
            .await?
            .map(|m| (MANIFEST_OBJECT, m)),
    };
    let Some((source_name, source)) = source else {
        return Err(not_rebuilt(
            domain,
            "neither its stored upload nor its manifest is stored",
        ));
    };
    let publish_id = random_id("pub_", 8)?;
    let jobs = PublishJobClient::new(env, domain);
    match jobs
        .begin_with(&publish_id, &org_id, order.settings.clone())
        .await
    {
        Ok(_) => {}
        // A publish (this rebuild started by another request, or the owner's own) is running.
        Err(err) if err.code() == "publish_in_progress" => return Ok(()),
        Err(err) => return Err(err),
    }
    // Uploads were at most MAX_UPLOAD_BYTES when they were stored whole by the release that wrote
    // them, manifests at most MAX_LIST_BYTES; the rebuild reads either as a publish does.
    let bytes = source
        .body()
        .ok_or_else(|| ApiError::Internal(format!("stored {source_name} has no body")))?
        .bytes()
        .await?;
    let source_bytes = bytes.len() as u64;
    bucket
        .put(version_key(domain, &publish_id, source_name), bytes)
        .execute()
        .await?;
    let record = serde_json::to_vec(&Rebuild {
        publish_id: publish_id.clone(),
        org_id,
    })?;
    bucket.put(marker, record).execute().await?;
    jobs.start(&Start {
        publish_id,
        source_bytes,
        wait: false,
        preview_host: None,
    })
    .await?;
    Ok(())
}

/// 409 `republish_required`: the rebuild cannot be made or has failed, for `reason`.
fn not_rebuilt(domain: &str, reason: &str) -> ApiError {
    sites::republish_required(domain, &format!("was published by an earlier release and could not be rebuilt from its stored upload or manifest ({reason})"))
}
