//! Publishing file by file (`docs_edge_core::publish::manifest`): `POST /v1/sites/{domain}/files/missing`
//! answers which of the caller's hashes the site's store lacks, `PUT /v1/sites/{domain}/files/{hash}`
//! stores one file (its hash checked as it streams in), and `POST /v1/sites/{domain}/publishes`
//! commits a manifest, which publishes like an upload; `GET /v1/sites/{domain}/manifest` reads the
//! live one. Admin keys only, and only the caller's own domain: the store of another organization's
//! site is never consulted.
//!
//! This script authorizes the call and refuses a body declared over its limit; the builder script
//! does the work on the store (`crate::builder::site_files`), the body streamed to it
//! (`crate::edge::builder_client`). A commit's publish is counted against the rate and run from here,
//! as an upload's is.

use docs_edge_core::publish::manifest::{is_hash, MANIFEST_OBJECT};
use docs_edge_core::wire::KeyKind;
use worker::Response;

use crate::edge::auth::{require_domain, require_key};
use crate::edge::builder_client::forward;
use crate::edge::context::Call;
use crate::edge::routes::sites::{reserve_publish, start_publish};
use crate::shared::builder_orders::{FileOp, FileOrder, Staged, MAX_LIST_BYTES};
use crate::shared::config::JobSettings;
use crate::shared::directory::Directory;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::http::refuse_declared_over;
use crate::shared::random::random_id;
use crate::shared::storage::{self, version_key};

/// The caller's organization and domain (admin keys only), as the builder is to trust them.
async fn order(call: &Call) -> ApiResult<FileOrder> {
    let directory = Directory::open(&call.env)?;
    let key = require_key(&call.req, &directory, KeyKind::Admin).await?;
    let domain = require_domain(&directory, &key, call.param(0)).await?;
    let settings = JobSettings::from_env(&call.env).map_err(ApiError::Internal)?;
    Ok(FileOrder {
        org_id: key.org_id,
        domain,
        hash: None,
        publish_id: None,
        max_bytes: None,
        preview: None,
        settings,
    })
}

/// `POST /v1/sites/{domain}/files/missing` `{"hashes": [...]}`: those the store lacks, in the order asked.
pub async fn missing(call: &mut Call) -> ApiResult<Response> {
    let order = order(call).await?;
    refuse_declared_over(&call.req, MAX_LIST_BYTES)?;
    forward(call, FileOp::Missing, &order).await
}

/// `PUT /v1/sites/{domain}/files/{hash}`: stores one file, streamed; 400 `hash_mismatch` if its bytes
/// have another hash, 413 past the largest file a site may hold.
pub async fn put(call: &mut Call) -> ApiResult<Response> {
    let mut order = order(call).await?;
    let hash = call.param(1);
    if !is_hash(hash) {
        return Err(ApiError::Invalid(
            "hash: must be 32 lower-case hex digits (the start of the file's SHA-256)".into(),
        ));
    }
    order.hash = Some(hash.to_owned());
    let max = order
        .settings
        .max_media_file_bytes
        .max(order.settings.max_source_file_bytes);
    refuse_declared_over(&call.req, usize::try_from(max).unwrap_or(usize::MAX))?;
    forward(call, FileOp::Put, &order).await
}

/// `POST /v1/sites/{domain}/publishes` `{"files": {"path": "hash"}}`: the builder checks that the
/// store holds every file (400 `missing_files` naming the paths, the live version unchanged) and
/// that the files keep the upload limits, and stores the manifest; then it is published as an
/// upload is (the rate counted only now: a refused manifest never counts).
pub async fn commit(call: &mut Call) -> ApiResult<Response> {
    let mut order = order(call).await?;
    refuse_declared_over(&call.req, MAX_LIST_BYTES)?;
    let publish_id = random_id("pub_", 8)?;
    order.publish_id = Some(publish_id.clone());
    let mut staged = forward(call, FileOp::Stage, &order).await?;
    if !(200..300).contains(&staged.status_code()) {
        return Ok(staged);
    }
    let staged: Staged = serde_json::from_slice(&staged.bytes().await?)?;
    let jobs = match reserve_publish(
        &call.env,
        &call.config,
        &order.org_id,
        &order.domain,
        &publish_id,
    )
    .await
    {
        Ok(jobs) => jobs,
        Err(err) => {
            let manifest = version_key(&order.domain, &publish_id, MANIFEST_OBJECT);
            if let Err(delete) = storage::bucket(&call.env)?.delete(&manifest).await {
                crate::shared::log_line::error(
                    &serde_json::json!({"event": "manifest_cleanup_failed", "publishId": publish_id, "error": delete.to_string()}),
                );
            }
            return Err(err);
        }
    };
    start_publish(
        &call.config,
        &jobs,
        &order.domain,
        &order.org_id,
        publish_id,
        staged,
    )
    .await
}

/// `GET /v1/sites/{domain}/manifest`: the live version's files and hashes, so a client with no memory
/// of its last publish asks only about what changed since (404 when nothing is live, or the live
/// version was published as a `.tar.gz`).
pub async fn live_manifest(call: &mut Call) -> ApiResult<Response> {
    let order = order(call).await?;
    forward(call, FileOp::LiveManifest, &order).await
}
