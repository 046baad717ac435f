//! A hosted site's next export renders only the batches of pages whose inputs changed: each batch
//! is keyed by the SHA-256 of everything its pages are rendered from ([`inputs_key`] of the
//! version, then the batch's own files, [`batch_key`]), and a batch with the same pages and key as
//! one of the live export's takes that export's part (its gzip member: the pages' HTML and
//! Markdown) and its products (what the finishing step takes from its pages) as they are instead
//! of rendering it again: named where they are until the site is switched, then copied (the
//! bundle and the next export read them as this export's own).
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
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use worker::Bucket;

use crate::shared::error::{ApiError, ApiResult};
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
    frame_files(shared, &mut |bytes| hasher.update(bytes));
    Ok(hasher.finalize().to_vec())
}

/// The key of the batch of pages `start..end` under the version's `inputs`, given the files of its
/// own (`own`: what its pages read besides the shared files, whose bytes `inputs` covers, as the
/// table's paths cover every other file its tree names), so taking a batch reads and hashes
/// little.
///
/// Hashed by the runtime (`native_sha`): the batches' own files are most of the bytes an export
/// that takes its batches hashes (some 65 MB at 10,000 pages).
pub async fn batch_key(inputs: &[u8], start: u32, end: u32, own: &SourceTree) -> ApiResult<String> {
    let size: usize = own
        .iter()
        .map(|(path, bytes)| 16 + path.len() + bytes.len())
        .sum();
    let mut keyed = Vec::with_capacity(inputs.len() + 8 + size);
    keyed.extend_from_slice(inputs);
    keyed.extend_from_slice(&start.to_le_bytes());
    keyed.extend_from_slice(&end.to_le_bytes());
    frame_files(own, &mut |bytes| keyed.extend_from_slice(bytes));
    crate::builder::native_sha::sha256_hex(&keyed).await
}

/// Each file's path and bytes, each prefixed with its length, handed to `feed` in order: what a
/// key hashes of a set of files.
fn frame_files(files: &SourceTree, feed: &mut impl FnMut(&[u8])) {
    for (path, bytes) in files {
        feed(&(path.len() as u64).to_le_bytes());
        feed(path.as_bytes());
        feed(&(bytes.len() as u64).to_le_bytes());
        feed(bytes);
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

/// Takes the batch with `key` from `from` without copying a byte: its index in `from` and its done
/// batch, or `None` when `from` has no such batch, or its part is gone (an export whose retention
/// ran out, or one still copying the batches it took itself). The part and its products stay
/// where `from` stored them, named by [`Taken`] (the finishing and copy steps read them there),
/// until [`copy_taken`] copies them after the switch: the bundle and the next export need them,
/// the site does not.
pub async fn take(
    bucket: &Bucket,
    from: &ReuseFrom,
    key: &str,
) -> ApiResult<Option<(u32, BatchDone)>> {
    let Some((index, done)) = from.batches.iter().enumerate().find(|(_, b)| b.key == key) else {
        return Ok(None);
    };
    let index = index as u32;
    // A batch's products are written before its part (`copy_taken`, and as it is rendered): a part
    // that is there has them.
    if bucket.head(part_key(&from.job_id, index)).await?.is_none() {
        return Ok(None);
    }
    Ok(Some((index, done.clone())))
}

/// The parts of a hosted site's export taken from the live export and not yet copied: each part
/// and the index of the live export's part that holds it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Taken {
    pub job_id: String,
    pub parts: Vec<(u32, u32)>,
}

impl Taken {
    /// Part `part` is part `index` of job `job_id` (a step redone after a failure decides its own
    /// parts again).
    pub fn add(&mut self, job_id: &str, part: u32, index: u32) {
        job_id.clone_into(&mut self.job_id);
        self.parts.retain(|(p, _)| *p < part);
        self.parts.push((part, index));
    }

    /// Where the object `key` (`part_key` or `products_key`) of part `part` of job `job_id` is
    /// stored now: the live export's, while the part is taken and not yet copied.
    pub fn key(
        taken: Option<&Taken>,
        key: fn(&str, u32) -> String,
        job_id: &str,
        part: u32,
    ) -> String {
        match taken.and_then(|t| {
            t.parts
                .iter()
                .find(|(p, _)| *p == part)
                .map(|(_, i)| (t, *i))
        }) {
            Some((taken, index)) => key(&taken.job_id, index),
            None => key(job_id, part),
        }
    }
}

/// Copies up to `at_most` of `taken`'s parts into job `job_id` ([`COPIED_AT_ONCE`] side by side),
/// each with its products (written first), and drops them from `taken`; whether any are left.
pub async fn copy_taken(
    bucket: &Bucket,
    taken: &mut Taken,
    job_id: &str,
    at_most: usize,
) -> ApiResult<bool> {
    let mut copied = 0;
    while copied < at_most && !taken.parts.is_empty() {
        let run: Vec<(u32, u32)> = taken.parts.iter().take(COPIED_AT_ONCE).copied().collect();
        let from = taken.job_id.as_str();
        try_join_all(run.iter().map(|&(part, index)| async move {
            let keys: [fn(&str, u32) -> String; 2] = [products_key, part_key];
            for key in keys {
                let body = storage::read(bucket, &key(from, index), None)
                    .await?
                    .ok_or_else(|| {
                        ApiError::Internal(format!("part {index} of {from}, taken, is gone"))
                    })?;
                bucket.put(key(job_id, part), body).execute().await?;
            }
            Ok::<_, ApiError>(())
        }))
        .await?;
        taken.parts.drain(..run.len());
        copied += run.len();
    }
    Ok(!taken.parts.is_empty())
}

/// Taken parts copied side by side: what they hold at once is this many parts and products.
const COPIED_AT_ONCE: usize = 8;
