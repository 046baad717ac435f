//! A hosted site's next export renders only the batches of pages whose inputs changed: each batch
//! is keyed by the SHA-256 of everything its pages are rendered from ([`inputs_key`] of the
//! version, then the batch's own files, [`batch_key`]), and a batch with the same pages and key as
//! one of the live export's takes that export's part (its gzip member: the pages' HTML and
//! Markdown) and its products (what the finishing step takes from its pages) as they are, two
//! reads and two writes, instead of rendering it again.
//!
//! The version's key covers the code (core's source hash, the hash of what the worker renders with
//! beyond core: its own source and the locked dependencies, `worker/build.rs`, and its version), the job's
//! options, the outline (every page's title, place and frontmatter fields: the navigation every
//! page shows), the file table's paths and the bytes of the shared files every batch reads
//! (`docs.json`, OpenAPI documents, inline SVG), hashed once; a batch's key adds the bytes of the
//! files its own pages read (their sources, the snippets they import), so taking a batch reads and
//! hashes those alone. A page's text is not in the outline, so an edit of one page changes one
//! batch's key. Each export writes its batches' keys beside its parts (`batches.json`) for the
//! next one; a batch taken carries its pages' icon sets and embed origins with it.

use std::collections::BTreeSet;

use docs_edge_core::docs::{FileTable, Site, SourceTree};
use docs_edge_core::export::icons::IconSet;
use docs_edge_core::publish::parsed::READER_ID;
use docs_edge_core::security::signing::to_hex;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use worker::Bucket;

use crate::shared::error::ApiResult;
use crate::shared::join::try_join_all;
use crate::shared::storage::{self, batches_key, part_key, products_key};

/// One batch of pages rendered: its pages, its key, and what its pages add to the bundle's
/// licences and policy.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BatchDone {
    pub start: u32,
    pub end: u32,
    pub key: String,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub icon_sets: BTreeSet<IconSet>,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub frame_origins: BTreeSet<String>,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub image_origins: BTreeSet<String>,
}

/// The export whose batches a job may take, and their keys (part `i` holds batch `i`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReuseFrom {
    pub job_id: String,
    pub batches: Vec<BatchDone>,
}

impl ReuseFrom {
    /// Whether the export has a batch with `key`.
    pub fn has(&self, key: &str) -> bool {
        self.batches.iter().any(|b| b.key == key)
    }
}

/// The key of what every batch of a version is rendered from, before its own files: the code (core's
/// and the worker's), the job's `options` (as JSON, without its time), the outline, the file
/// table's paths and the shared files (`docs.json`, OpenAPI documents: what every batch reads).
pub fn inputs_key(
    options: &[u8],
    outline: &Site,
    table: &FileTable,
    shared: &SourceTree,
) -> ApiResult<Vec<u8>> {
    let mut hasher = Sha256::new();
    for part in [
        READER_ID.as_bytes(),
        env!("DOCS_EDGE_WORKER_SOURCE_HASH").as_bytes(),
        env!("CARGO_PKG_VERSION").as_bytes(),
        options,
        &serde_json::to_vec(outline)?,
    ] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    for file in table.files() {
        hasher.update((file.path.len() as u64).to_le_bytes());
        hasher.update(file.path.as_bytes());
    }
    hash_files(&mut hasher, shared);
    Ok(hasher.finalize().to_vec())
}

/// The key of the batch of pages `start..end` under the version's `inputs`, given the files of its
/// own (`own`: what its pages read besides the shared files, whose bytes `inputs` covers, as the
/// table's paths cover every other file its tree names), so taking a batch reads and hashes
/// little.
pub fn batch_key(inputs: &[u8], start: u32, end: u32, own: &SourceTree) -> String {
    let mut hasher = Sha256::new();
    hasher.update(inputs);
    hasher.update(start.to_le_bytes());
    hasher.update(end.to_le_bytes());
    hash_files(&mut hasher, own);
    to_hex(&hasher.finalize())
}

/// Each file's path and bytes, each prefixed with its length.
fn hash_files(hasher: &mut Sha256, files: &SourceTree) {
    for (path, bytes) in files {
        hasher.update((path.len() as u64).to_le_bytes());
        hasher.update(path.as_bytes());
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    }
}

/// The batches of export `job_id`, as it wrote them; `None` when it wrote none (not a hosted
/// site's export, or gone).
pub async fn read_batches(bucket: &Bucket, job_id: &str) -> ApiResult<Option<ReuseFrom>> {
    Ok(storage::read(bucket, &batches_key(job_id), None)
        .await?
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .map(|batches| ReuseFrom {
            job_id: job_id.to_string(),
            batches,
        }))
}

/// Writes the job's batches for the next export.
pub async fn write_batches(bucket: &Bucket, job_id: &str, batches: &[BatchDone]) -> ApiResult<()> {
    bucket
        .put(batches_key(job_id), serde_json::to_vec(batches)?)
        .execute()
        .await?;
    Ok(())
}

/// Takes the batch `start..end` with `key` from `from` as part `part` of job `job_id`, with its
/// products (`docs_edge_core::export::BatchProducts`, beside the part): its done batch, or `None`
/// when `from` has no such batch, or its part or products are gone (an export from before products
/// were stored, or one whose retention ran out).
pub async fn take(
    bucket: &Bucket,
    from: &ReuseFrom,
    job_id: &str,
    part: u32,
    key: &str,
) -> ApiResult<Option<BatchDone>> {
    let Some((index, done)) = from.batches.iter().enumerate().find(|(_, b)| b.key == key) else {
        return Ok(None);
    };
    let index = index as u32;
    let keys: [fn(&str, u32) -> String; 2] = [part_key, products_key];
    let read =
        keys.map(|key| async move { storage::read(bucket, &key(&from.job_id, index), None).await });
    let mut read = try_join_all(read).await?.into_iter();
    let (Some(Some(bytes)), Some(Some(products))) = (read.next(), read.next()) else {
        return Ok(None);
    };
    let write = keys
        .into_iter()
        .zip([bytes, products])
        .map(|(key, body)| async move { bucket.put(key(job_id, part), body).execute().await });
    try_join_all(write).await?;
    Ok(Some(done.clone()))
}
