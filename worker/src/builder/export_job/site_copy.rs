//! A hosted site's export, served: once the job's parts are written, its bundle's files are written
//! one R2 object each under the export's own prefix (`crate::shared::storage::hosted_file_key`), read back
//! from the parts (no page is rendered twice), a few parts per step, one file at a time; then the
//! live pointer names the export, last, so the switch is one write and every file of the export is
//! there before any request reads it. The previous export's files stay.
//!
//! The parts are one tar stream in gzip members, and an entry may run on from one part into the
//! next (`llms-full.txt`, the search packs): a step ends only after a part that ends between
//! entries, so the next step starts a new reader at a member's first header.
//!
//! Each file is hashed (and a large one cut into chunks) as it is written, for the export's delta
//! listing (`super::delta_listing`).

use docs_edge_core::docs::unpack::Entry;
use docs_edge_core::docs::{ArchiveLimits, Unpacker};
use docs_edge_core::http::site_headers::content_type;
use serde::{Deserialize, Serialize};
use worker::{Bucket, HttpMetadata};

use super::delta_listing::{FileDigest, Listing};
use crate::builder::multipart::PartWriter;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::storage::{self, hosted_file_key, part_key};

/// Parts a step reads at least (then on to the first that ends between entries).
const PARTS_PER_STEP: u32 = 8;
/// Compressed bytes handed to the reader at a time: what one hand-over inflates stays small.
const PUSH_BYTES: usize = 64 << 10;

/// Where a hosted site's export stands in being written file by file.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteCopy {
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// A preview's hostname: its files and pointer are there, not under the domain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview_host: Option<String>,
    /// The next part to read; `None` until the job's parts are all written.
    #[serde(default)]
    pub next_part: Option<u32>,
    /// Files written so far.
    #[serde(default)]
    pub files: u32,
    /// The first part of each step done, which names its delta listing entries.
    #[serde(default)]
    pub steps: Vec<u32>,
}

/// What the bundle's own reader admits: every file, whatever its size (a text file is held whole
/// while it is written, as the export held it; media stream through).
fn limits() -> ArchiveLimits {
    ArchiveLimits {
        max_files: usize::MAX / 2,
        max_total_bytes: u64::MAX / 4,
        max_file_bytes: 256 << 20,
        max_media_file_bytes: u64::MAX / 4,
        max_site_bytes: u64::MAX / 4,
    }
}

/// The job facts a copy step needs.
pub struct CopyJob<'a> {
    pub job_id: &'a str,
    pub domain: &'a str,
    pub parts: u32,
}

/// Writes the files of the next parts; `Ok(true)` once every part is written (the pointer is not).
pub async fn copy_step(bucket: &Bucket, job: &CopyJob<'_>, copy: &mut SiteCopy) -> ApiResult<bool> {
    let first = copy.next_part.unwrap_or(0);
    let mut unpacker = Unpacker::new(&limits());
    let mut open: Option<(FileDigest, PartWriter<'_>)> = None;
    let mut listing = Listing::new(bucket, job.domain, job.job_id);
    let mut part = first;
    while part < job.parts {
        let bytes = storage::read(bucket, &part_key(job.job_id, part), None)
            .await?
            .ok_or_else(|| {
                ApiError::Internal(format!("part {part} of {} is missing", job.job_id))
            })?;
        for chunk in bytes.chunks(PUSH_BYTES) {
            let mut entries = Vec::new();
            unpacker
                .push(chunk, &mut |entry| entries.push(entry))
                .map_err(|err| {
                    ApiError::Internal(format!("part {part} of {}: {err}", job.job_id))
                })?;
            for entry in entries {
                match entry {
                    Entry::File(path, bytes) => {
                        listing.whole(&path, &bytes).await?;
                        put(bucket, job, &path, bytes).await?;
                        copy.files += 1;
                    }
                    Entry::MediaStart { path, size } => {
                        let writer =
                            PartWriter::new(bucket, hosted_file_key(job.domain, job.job_id, &path))
                                .with_metadata(metadata(&path), Default::default());
                        open = Some((listing.start(&path, size), writer));
                    }
                    Entry::MediaData(data) => {
                        if let Some((digest, writer)) = open.as_mut() {
                            listing.data(digest, &data).await?;
                            writer.write(&data).await?;
                        }
                    }
                    Entry::MediaEnd => {
                        if let Some((digest, writer)) = open.take() {
                            writer.finish().await?;
                            listing.end(digest).await?;
                            copy.files += 1;
                        }
                    }
                    // The export writes regular files only.
                    Entry::Link { .. } => {}
                }
            }
        }
        part += 1;
        if part - first >= PARTS_PER_STEP && unpacker.between_entries() {
            break;
        }
    }
    listing.save_step(first).await?;
    if !copy.steps.contains(&first) {
        copy.steps.push(first);
    }
    copy.next_part = Some(part);
    Ok(part >= job.parts)
}

async fn put(bucket: &Bucket, job: &CopyJob<'_>, path: &str, bytes: Vec<u8>) -> ApiResult<()> {
    bucket
        .put(hosted_file_key(job.domain, job.job_id, path), bytes)
        .http_metadata(metadata(path))
        .execute()
        .await?;
    Ok(())
}

fn metadata(path: &str) -> HttpMetadata {
    HttpMetadata {
        content_type: Some(content_type(path).to_string()),
        ..HttpMetadata::default()
    }
}
