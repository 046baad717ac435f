//! Publishing file by file (`docs_edge_core::publish::manifest`), the builder's half: the work on a
//! site's content-addressed store behind the edge's routes (`crate::edge::routes::site_files`; and storing
//! a `.tar.gz` upload for `crate::edge::routes::sites`), which
//! authorize the caller and send the request here with its [`FileOrder`]
//! (`crate::edge::builder_client`). Only the order's domain's store is ever consulted, and in it only the
//! files the order's organization stored: a domain given to another organization keeps its previous
//! owner's files until the sweep, and the new owner must learn nothing of them (nor refer to them).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use docs_edge_core::publish::manifest::{is_hash, parse_hash_query, Manifest, MANIFEST_OBJECT};
use serde::Serialize;
use worker::{Bucket, Env, Include, Request, Response};

use crate::builder::sweep::file_stores;
use crate::builder::upload::{store_body, store_file};
use crate::shared::builder_orders::{FileOp, FileOrder, Staged, MAX_LIST_BYTES};
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::http::{json_response, read_maybe_gzip_body};
use crate::shared::join::try_join_all;
use crate::shared::sites;
use crate::shared::storage::{self, site_file_key, site_files_prefix, version_key, SOURCE_OBJECT};

pub async fn serve(
    op: FileOp,
    req: &mut Request,
    env: &Env,
    order: &FileOrder,
) -> ApiResult<Response> {
    let bucket = storage::bucket(env)?;
    match op {
        FileOp::Missing => missing(req, &bucket, order).await,
        FileOp::Put => put(req, &bucket, order).await,
        FileOp::Stage => stage(req, env, &bucket, order).await,
        FileOp::LiveManifest => live_manifest(&bucket, order).await,
        FileOp::Source => source(req, env, &bucket, order).await,
    }
}

#[derive(Serialize)]
struct Missing {
    missing: Vec<String>,
}

/// `{"hashes": [...]}`: those the store lacks, in the order asked.
async fn missing(req: &mut Request, bucket: &Bucket, order: &FileOrder) -> ApiResult<Response> {
    let body = read_maybe_gzip_body(req, MAX_LIST_BYTES).await?;
    let hashes = parse_hash_query(&body, order.settings.max_source_files)?;
    let wanted: BTreeSet<String> = hashes.iter().cloned().collect();
    let held = held_sizes(bucket, order, &wanted).await?;
    let mut seen = BTreeSet::new();
    let missing = hashes
        .iter()
        .filter(|h| !held.contains_key(h.as_str()) && seen.insert(h.as_str()))
        .cloned()
        .collect();
    json_response(200, &Missing { missing })
}

#[derive(Serialize)]
struct StoredFile<'a> {
    hash: &'a str,
    size: u64,
}

/// Stores one file, streamed; 400 `hash_mismatch` if its bytes have another hash, 413 past the
/// largest file a site may hold.
async fn put(req: &mut Request, bucket: &Bucket, order: &FileOrder) -> ApiResult<Response> {
    let hash = order
        .hash
        .as_deref()
        .filter(|h| is_hash(h))
        .ok_or_else(|| ApiError::Internal("builder files/put: no hash in the order".into()))?;
    let max = order
        .settings
        .max_media_file_bytes
        .max(order.settings.max_source_file_bytes);
    let owner = HashMap::from([(OWNER_METADATA.to_owned(), order.org_id.clone())]);
    let size = store_file(
        req,
        bucket,
        &site_file_key(&order.domain, hash),
        usize::try_from(max).unwrap_or(usize::MAX),
        hash,
        owner,
    )
    .await?;
    json_response(200, &StoredFile { hash, size })
}

/// `{"files": {"path": "hash"}}`: checks that the store holds every file (400 `missing_files` naming
/// the paths) and that the files keep the upload limits, then stores the manifest as version
/// `publish_id`'s, which the edge then publishes as an upload is published. The edge counts the
/// publish against the rate only after this, so a refused manifest never counts; it deletes the
/// manifest if the publish cannot begin.
async fn stage(
    req: &mut Request,
    env: &Env,
    bucket: &Bucket,
    order: &FileOrder,
) -> ApiResult<Response> {
    let publish_id = order.publish_id.as_deref().ok_or_else(|| {
        ApiError::Internal("builder files/stage: no publish id in the order".into())
    })?;
    let domain = order.domain.as_str();
    let body = read_maybe_gzip_body(req, MAX_LIST_BYTES).await?;
    let mut manifest = Manifest::parse(&body, order.settings.max_source_files)?;
    let preview_host =
        crate::builder::preview::check(env, order, manifest.preview.as_deref()).await?;
    let wanted: BTreeSet<String> = manifest.hashes().into_iter().map(str::to_owned).collect();
    // Checked before the manifest is stored; checked again once it is.
    let held = held_sizes(bucket, order, &wanted).await?;
    let missing = fill_sizes(&mut manifest, &held);
    if !missing.is_empty() {
        return Err(ApiError::MissingFiles(missing));
    }
    manifest
        .check_limits(&order.settings.archive_limits())
        .map_err(|e| ApiError::InvalidArchive(e.to_string()))?;
    let bytes = manifest.to_bytes();
    let size = bytes.len() as u64;
    let key = version_key(domain, publish_id, MANIFEST_OBJECT);
    bucket.put(&key, bytes).execute().await?;
    let checked = async {
        // The storage sweep may be deleting old files of this store that no version referred to
        // when it read them, this manifest reusing some: once the manifest is stored, wait until
        // no sweep holds the store, then check again (`docs_edge_core::platform::store_sweep`
        // argues why this order is sound). A file deleted meanwhile is `missing_files`, which a
        // client answers by uploading it again.
        file_stores::wait_for_sweep(bucket, domain).await?;
        let held = held_sizes(bucket, order, &wanted).await?;
        let missing = fill_sizes(&mut manifest, &held);
        if missing.is_empty() {
            Ok(())
        } else {
            Err(ApiError::MissingFiles(missing))
        }
    };
    if let Err(err) = checked.await {
        if let Err(delete) = bucket.delete(&key).await {
            crate::shared::log_line::error(
                &serde_json::json!({"event": "manifest_cleanup_failed", "publishId": publish_id, "error": delete.to_string()}),
            );
        }
        return Err(err);
    }
    json_response(200, &Staged { size, preview_host })
}

/// A publish's `.tar.gz` upload (`crate::edge::routes::sites`), streamed into version `publish_id`'s
/// source object; 413 past the order's limit. The edge begins the publish once it is stored.
async fn source(
    req: &mut Request,
    env: &Env,
    bucket: &Bucket,
    order: &FileOrder,
) -> ApiResult<Response> {
    let (Some(publish_id), Some(max)) = (order.publish_id.as_deref(), order.max_bytes) else {
        return Err(ApiError::Internal(
            "builder files/source: no publish id or limit in the order".into(),
        ));
    };
    // Before the upload is read: a refused preview costs nothing.
    let preview_host = crate::builder::preview::check(env, order, order.preview.as_deref()).await?;
    let key = version_key(&order.domain, publish_id, SOURCE_OBJECT);
    let size = store_body(
        req,
        bucket,
        &key,
        usize::try_from(max).unwrap_or(usize::MAX),
    )
    .await?;
    json_response(200, &Staged { size, preview_host })
}

/// Fills in the sizes of the manifest's files from the store's; the paths of those it lacks.
fn fill_sizes(manifest: &mut Manifest, held: &BTreeMap<String, u64>) -> Vec<String> {
    let mut missing = Vec::new();
    for file in &mut manifest.files {
        match held.get(file.hash.as_str()) {
            Some(size) => file.size = *size,
            None => missing.push(file.path.clone()),
        }
    }
    missing
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LiveManifest {
    publish_id: String,
    files: BTreeMap<String, String>,
}

/// The live version's files and hashes, so a client with no memory of its last publish asks only
/// about what changed since (404 when nothing is live, or the live version was published as a
/// `.tar.gz`).
async fn live_manifest(bucket: &Bucket, order: &FileOrder) -> ApiResult<Response> {
    let domain = order.domain.as_str();
    let (publish_id, manifest) = live(bucket, domain, &order.org_id).await?.ok_or_else(|| {
        ApiError::NotFound(format!(
            "no version of {domain} published file by file is live"
        ))
    })?;
    let files = manifest
        .files
        .into_iter()
        .map(|f| (f.path, f.hash))
        .collect();
    json_response(200, &LiveManifest { publish_id, files })
}

/// The custom metadata of a stored file that names the organization that uploaded it. A file stored
/// before it was recorded counts as not held: its next upload records it.
const OWNER_METADATA: &str = "org";

fn stored_by(object: &worker::Object, org_id: &str) -> bool {
    object.custom_metadata().is_ok_and(|custom| {
        custom
            .get(OWNER_METADATA)
            .is_some_and(|owner| owner == org_id)
    })
}

/// The sizes of the hashes of `wanted` that `domain`'s store holds for the order's organization. Those the live version's
/// manifest names are held (the sweep never deletes a file a live version refers to:
/// `docs_edge_core::platform::store_sweep`), with the sizes it records: a re-publish's manifest
/// costs one read, not a listing of the whole store. The rest are looked up one by one when few,
/// else by listing the store.
async fn held_sizes(
    bucket: &Bucket,
    order: &FileOrder,
    wanted: &BTreeSet<String>,
) -> ApiResult<BTreeMap<String, u64>> {
    let domain = order.domain.as_str();
    let live = live(bucket, domain, &order.org_id)
        .await?
        .map(|(_, manifest)| manifest.files)
        .unwrap_or_default();
    let mut held = docs_edge_core::sort::map_from(
        live.into_iter()
            .filter(|f| wanted.contains(&f.hash))
            .map(|f| (f.hash, f.size)),
    );
    let rest: Vec<&String> = wanted.iter().filter(|h| !held.contains_key(*h)).collect();
    if rest.len() <= LOOKED_UP_AT_MOST {
        let org_id = order.org_id.as_str();
        let heads = rest.iter().map(|hash| async move {
            let object = bucket.head(site_file_key(domain, hash)).await?;
            Ok::<_, ApiError>(
                object
                    .filter(|o| stored_by(o, org_id))
                    .map(|o| ((*hash).clone(), o.size())),
            )
        });
        held.extend(try_join_all(heads).await?.into_iter().flatten());
    } else {
        held.extend(listed_sizes(bucket, domain, &order.org_id, wanted).await?);
    }
    Ok(held)
}

/// Past this many hashes the live version lacks, the store is listed rather than each looked up.
const LOOKED_UP_AT_MOST: usize = 50;

/// The live version of `domain` (`org_id`'s) and its manifest; none when nothing is live or it was
/// published as a `.tar.gz`.
async fn live(
    bucket: &Bucket,
    domain: &str,
    org_id: &str,
) -> ApiResult<Option<(String, Manifest)>> {
    let Some(version) = sites::current_version(bucket, domain, org_id).await? else {
        return Ok(None);
    };
    let Some(bytes) = storage::read(
        bucket,
        &version_key(domain, &version.publish_id, MANIFEST_OBJECT),
        None,
    )
    .await?
    else {
        return Ok(None);
    };
    let manifest = Manifest::from_bytes(&bytes)
        .map_err(|e| ApiError::Internal(format!("stored manifest: {e}")))?;
    Ok(Some((version.publish_id, manifest)))
}

/// The sizes of the hashes of `wanted` that `domain`'s store holds for `org_id`, by listing it (a
/// thousand keys a request at most; a listing never reaches another site's store).
async fn listed_sizes(
    bucket: &Bucket,
    domain: &str,
    org_id: &str,
    wanted: &BTreeSet<String>,
) -> ApiResult<BTreeMap<String, u64>> {
    let prefix = site_files_prefix(domain);
    let mut held = BTreeMap::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut list = bucket
            .list()
            .prefix(prefix.clone())
            .limit(1000)
            .include(vec![Include::CustomMetadata]);
        if let Some(c) = cursor.take() {
            list = list.cursor(c);
        }
        let page = list.execute().await?;
        for object in page.objects() {
            let key = object.key();
            if let Some(hash) = key
                .strip_prefix(&prefix)
                .filter(|h| wanted.contains(*h) && stored_by(&object, org_id))
            {
                held.insert(hash.to_owned(), object.size());
            }
        }
        match (page.truncated(), page.cursor()) {
            (true, Some(next)) => cursor = Some(next),
            _ => return Ok(held),
        }
    }
}
