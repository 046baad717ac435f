//! Publishing file by file (`docs_edge_core::publish::manifest`): `POST /v1/sites/{domain}/files/missing`
//! answers which of the caller's hashes the site's store lacks, `PUT /v1/sites/{domain}/files/{hash}`
//! stores one file (its hash checked as it streams in), and `POST /v1/sites/{domain}/publishes`
//! commits a manifest, which publishes like an upload; `GET /v1/sites/{domain}/manifest` reads the
//! live one. Admin keys only, and only the caller's own
//! domain: the store of another organization's site is never consulted.

use std::collections::{BTreeMap, BTreeSet};

use docs_edge_core::publish::manifest::{is_hash, parse_hash_query, Manifest, MANIFEST_OBJECT};
use docs_edge_core::wire::KeyKind;
use serde::Serialize;
use worker::{Bucket, Response};

use crate::auth::{require_domain, require_key};
use crate::directory::KeyRecord;
use crate::context::Call;
use crate::directory::Directory;
use crate::error::{ApiError, ApiResult};
use crate::http::{json_response, read_maybe_gzip_body};
use crate::routes::sites::{release, reserve_publish, start_publish};
use crate::sites;
use crate::storage::{self, site_file_key, site_files_prefix, version_key};
use crate::store_sweep;
use crate::upload::store_file;

/// Inflated bytes a manifest or hash list may have: about 60 bytes a file at the file limit.
const MAX_LIST_BYTES: usize = 8 << 20;

async fn admin_domain(call: &Call) -> ApiResult<(KeyRecord, String)> {
    let directory = Directory::open(&call.env)?;
    let key = require_key(&call.req, &directory, KeyKind::Admin).await?;
    let domain = require_domain(&directory, &key, call.param(0)).await?;
    Ok((key, domain))
}

#[derive(Serialize)]
struct Missing {
    missing: Vec<String>,
}

/// `POST /v1/sites/{domain}/files/missing` `{"hashes": [...]}`: those the store lacks, in the order asked.
pub async fn missing(call: &mut Call) -> ApiResult<Response> {
    let (_, domain) = admin_domain(call).await?;
    let body = read_maybe_gzip_body(&mut call.req, MAX_LIST_BYTES).await?;
    let hashes = parse_hash_query(&body, call.config.max_source_files)?;
    let wanted: BTreeSet<String> = hashes.iter().cloned().collect();
    let held = held_sizes(&storage::bucket(&call.env)?, &domain, &wanted).await?;
    let mut seen = BTreeSet::new();
    let missing = hashes.iter().filter(|h| !held.contains_key(h.as_str()) && seen.insert(h.as_str())).cloned().collect();
    json_response(200, &Missing { missing })
}

#[derive(Serialize)]
struct StoredFile<'a> {
    hash: &'a str,
    size: u64,
}

/// `PUT /v1/sites/{domain}/files/{hash}`: stores one file, streamed; 400 `hash_mismatch` if its bytes
/// have another hash, 413 past the largest file a site may hold.
pub async fn put(call: &mut Call) -> ApiResult<Response> {
    let (_, domain) = admin_domain(call).await?;
    let hash = call.param(1).to_owned();
    if !is_hash(&hash) {
        return Err(ApiError::Invalid("hash: must be 32 lower-case hex digits (the start of the file's SHA-256)".into()));
    }
    let max = call.config.max_media_file_bytes.max(call.config.max_source_file_bytes);
    let bucket = storage::bucket(&call.env)?;
    let size = store_file(&mut call.req, &bucket, &site_file_key(&domain, &hash), usize::try_from(max).unwrap_or(usize::MAX), &hash).await?;
    json_response(200, &StoredFile { hash: &hash, size })
}

/// `POST /v1/sites/{domain}/publishes` `{"files": {"path": "hash"}}`: checks that the store holds
/// every file (400 `missing_files` naming the paths, the live version unchanged) and that the
/// files keep the upload limits, then publishes the manifest as an upload is published.
pub async fn commit(call: &mut Call) -> ApiResult<Response> {
    let (key, domain) = admin_domain(call).await?;
    let body = read_maybe_gzip_body(&mut call.req, MAX_LIST_BYTES).await?;
    let mut manifest = Manifest::parse(&body, call.config.max_source_files)?;
    let bucket = storage::bucket(&call.env)?;
    let wanted: BTreeSet<String> = manifest.hashes().into_iter().map(str::to_owned).collect();
    // Checked before the publish counts against the rate; checked again once the manifest is stored.
    let held = held_sizes(&bucket, &domain, &wanted).await?;
    let missing = fill_sizes(&mut manifest, &held);
    if !missing.is_empty() {
        return Err(ApiError::MissingFiles(missing));
    }
    let limits = crate::config::JobSettings::from_env(&call.env).map_err(ApiError::Internal)?.archive_limits();
    manifest.check_limits(&limits).map_err(|e| ApiError::InvalidArchive(e.to_string()))?;
    let (publish_id, jobs) = reserve_publish(&call.env, &call.config, &key.org_id, &domain).await?;
    let bytes = manifest.to_bytes();
    let size = bytes.len() as u64;
    let stored = async {
        bucket.put(version_key(&domain, &publish_id, MANIFEST_OBJECT), bytes).execute().await?;
        // The storage sweep may be deleting old files of this store that no version referred to
        // when it read them, this manifest reusing some: once the manifest is stored, wait until
        // no sweep holds the store, then check again (`docs_edge_core::platform::store_sweep`
        // argues why this order is sound). A file deleted meanwhile is `missing_files`, which a
        // client answers by uploading it again.
        store_sweep::wait_for_sweep(&bucket, &domain).await?;
        let held = held_sizes(&bucket, &domain, &wanted).await?;
        let missing = fill_sizes(&mut manifest, &held);
        if missing.is_empty() { Ok(()) } else { Err(ApiError::MissingFiles(missing)) }
    };
    if let Err(err) = stored.await {
        release(&jobs, publish_id).await;
        return Err(err);
    }
    start_publish(&call.config, &jobs, &domain, &key.org_id, publish_id, size).await
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

/// `GET /v1/sites/{domain}/manifest`: the live version's files and hashes, so a client with no memory
/// of its last publish asks only about what changed since (404 when nothing is live, or the live
/// version was published as a `.tar.gz`).
pub async fn live_manifest(call: &mut Call) -> ApiResult<Response> {
    let (key, domain) = admin_domain(call).await?;
    let bucket = storage::bucket(&call.env)?;
    let none = || ApiError::NotFound(format!("no version of {domain} published file by file is live"));
    let version = sites::current_version(&bucket, &domain, &key.org_id).await?.ok_or_else(none)?;
    let bytes = storage::read(&bucket, &version_key(&domain, &version.publish_id, MANIFEST_OBJECT), None).await?.ok_or_else(none)?;
    let manifest = Manifest::from_bytes(&bytes).map_err(|e| ApiError::Internal(format!("stored manifest: {e}")))?;
    let files = manifest.files.into_iter().map(|f| (f.path, f.hash)).collect();
    json_response(200, &LiveManifest { publish_id: version.publish_id, files })
}

/// The sizes of the hashes of `wanted` that `domain`'s store holds, by listing it (a thousand keys
/// a request; a listing never reaches another site's store).
async fn held_sizes(bucket: &Bucket, domain: &str, wanted: &BTreeSet<String>) -> ApiResult<BTreeMap<String, u64>> {
    let prefix = site_files_prefix(domain);
    let mut held = BTreeMap::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut list = bucket.list().prefix(prefix.clone()).limit(1000);
        if let Some(c) = cursor.take() {
            list = list.cursor(c);
        }
        let page = list.execute().await?;
        for object in page.objects() {
            let key = object.key();
            if let Some(hash) = key.strip_prefix(&prefix).filter(|h| wanted.contains(*h)) {
                held.insert(hash.to_owned(), object.size());
            }
        }
        match (page.truncated(), page.cursor()) {
            (true, Some(next)) => cursor = Some(next),
            _ => return Ok(held),
        }
    }
}
