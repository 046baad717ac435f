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
//! listing (`super::delta_listing`). A part of pages taken unchanged from the live export, whose
//! files the base holds, is not read: its files' entries are the live export's. An export layered on the base of the live one
//! (`docs_edge_core::export::layers`, `super::site_base`) writes only the files whose bytes the
//! base does not hold, and names them in its `written`; past the layers' bound it starts again and
//! writes every file (it becomes the next base).

use docs_edge_core::docs::unpack::Entry;
use docs_edge_core::docs::{ArchiveLimits, Unpacker};
use docs_edge_core::export::delta::{chunked, FileEntry};
use docs_edge_core::export::layers::{changed_bytes, LayeredOn, MAX_CHANGED_BYTES};
use docs_edge_core::export::segments::segmented;
use docs_edge_core::export::BatchProducts;
use docs_edge_core::http::site_headers::content_type;
use docs_edge_core::security::signing::sha256_hex;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use worker::{Bucket, HttpMetadata};

use super::batch_reuse::Taken;
use super::delta_listing::{FileDigest, Listing};
use super::site_base::Previous;
use crate::builder::multipart::PartWriter;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::join::try_join_all;
use crate::shared::storage::{self, hosted_file_key, part_key, products_key};

/// Parts a step reads at least (then on to the first that ends between entries).
const PARTS_PER_STEP: u32 = 8;
/// Unchanged parts whose file lists are read at once (each its batch's products, of which only the
/// head, the file list, is inflated).
const LISTED_AT_ONCE: usize = 8;
/// Compressed bytes handed to the reader at a time: what one hand-over inflates stays small.
const PUSH_BYTES: usize = 64 << 10;
/// A media file of a layered export, the size of the previous export's there, is held whole (up to
/// this size) until its hash says whether the base has it; a larger or resized one is written as it
/// streams.
pub(super) const HELD_MEDIA_BYTES: u64 = 8 << 20;

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
    /// Whether the first step has chosen between layered and whole.
    #[serde(default)]
    pub chosen: bool,
    /// The live export this one is layered on; `None`: written whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layered_on: Option<LayeredOn>,
    /// A layered export's paths written so far (files and listing objects).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub written: Vec<String>,
    /// Objects written to the site's prefix so far (a start again counts its writes too).
    #[serde(default)]
    pub objects: u32,
    /// Parts of batches taken unchanged from the live export (`super::batch_reuse`): a layered
    /// export lists their files from the base without reading them ([`unchanged_entries`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unchanged_parts: Vec<u32>,
    /// Parts listed without being read so far.
    #[serde(default)]
    pub parts_unread: u32,
    /// The live pointer names the export: what is left is copying the parts it took.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub live: bool,
}

impl SiteCopy {
    /// Back to the first part, writing every file: a layered export whose changes outgrew the
    /// layers' bound.
    fn start_whole(&mut self) {
        self.layered_on = None;
        self.files = 0;
        self.written.clear();
        self.steps.clear();
        self.next_part = Some(0);
    }
}

/// A media file being read: held until it is whole, or written as it streams (as segments when it
/// is listed in chunks: `docs_edge_core::export::segments`).
enum Media<'a> {
    Held(String, Vec<u8>),
    Streamed(Box<(FileDigest, Option<PartWriter<'a>>)>),
}

/// What the bundle's own reader admits: every file, whatever its size (a text file under
/// [`HELD_MEDIA_BYTES`] is held whole while it is written; larger ones and media stream through).
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
    /// Parts taken from the live export and not yet copied: read where it stored them.
    pub taken: Option<&'a Taken>,
    /// The parts reserved for the search packs' pieces, not written yet: the packs' files are
    /// written from the version's packs instead (`super::site_packs`).
    pub search: Option<std::ops::Range<u32>>,
    /// The version exported: its domain and publish id.
    pub version: (&'a str, &'a str),
}

impl CopyJob<'_> {
    /// Where the object `key` (`part_key`, `products_key`) of part `part` is stored now.
    fn stored(&self, key: fn(&str, u32) -> String, part: u32) -> String {
        Taken::key(self.taken, key, self.job_id, part)
    }
}

/// Writes the files of the next parts (with `previous`, those the base does not hold); `Ok(true)`
/// once every part is written (the pointer is not).
pub async fn copy_step(
    bucket: &Bucket,
    job: &CopyJob<'_>,
    copy: &mut SiteCopy,
    previous: Option<&Previous>,
) -> ApiResult<bool> {
    let first = copy.next_part.unwrap_or(0);
    // A large file (`llms-full.txt`) streams through as media do, never held whole.
    let new_unpacker = || Unpacker::streaming_from(&limits(), HELD_MEDIA_BYTES);
    let mut unpacker = new_unpacker();
    // Whether the unpacker is new, at a gzip member's start (a step starts at one): it has seen
    // no header yet, so it does not say it is between entries.
    let mut fresh = true;
    let mut open: Option<Media<'_>> = None;
    let mut listing = Listing::new(bucket, job.domain, job.job_id);
    if previous.is_some() {
        listing.written = Some(Vec::new());
    }
    let mut files = Files {
        bucket,
        job,
        previous,
        written: 0,
    };
    let mut part = first;
    // The listing entries of the unchanged parts from `part` on, read a few at once.
    let mut ahead: VecDeque<(u32, Option<Vec<FileEntry>>)> = VecDeque::new();
    while part < job.parts {
        if let Some(search) = job.search.clone().filter(|s| s.start == part) {
            copy.files += files.packs(&mut listing).await?;
            part = search.end;
            // The finishing parts start a gzip member at an entry's start.
            unpacker = new_unpacker();
            fresh = true;
            if part - first >= PARTS_PER_STEP {
                break;
            }
            continue;
        }
        if let Some(previous) = previous.filter(|_| copy.unchanged_parts.contains(&part)) {
            if fresh || unpacker.between_entries() {
                if ahead.front().is_none_or(|(next, _)| *next != part) {
                    let run: Vec<u32> = (part..job.parts)
                        .take_while(|p| copy.unchanged_parts.contains(p))
                        .take(LISTED_AT_ONCE)
                        .collect();
                    let listed = try_join_all(run.iter().map(|&p| {
                        unchanged_entries(bucket, job.stored(products_key, p), previous)
                    }))
                    .await?;
                    ahead = run.into_iter().zip(listed).collect();
                }
                if let Some((_, Some(entries))) = ahead.pop_front() {
                    copy.files += entries.len() as u32;
                    copy.parts_unread += 1;
                    listing.entries.extend(entries);
                    part += 1;
                    // The next part is a gzip member of its own: read from its start.
                    unpacker = new_unpacker();
                    fresh = true;
                    continue;
                }
            }
        }
        let bytes = storage::read(bucket, &job.stored(part_key, part), None)
            .await?
            .ok_or_else(|| {
                ApiError::Internal(format!("part {part} of {} is missing", job.job_id))
            })?;
        // A part before one listed unread is a batch's, a gzip member of whole entries: the
        // reader is finished at its end, so what its decoder still holds comes out now and the
        // next read starts afresh.
        let unread_next = (previous.is_some() && copy.unchanged_parts.contains(&(part + 1)))
            || job.search.as_ref().is_some_and(|s| s.start == part + 1);
        let chunks = bytes.len().div_ceil(PUSH_BYTES);
        for (index, chunk) in bytes.chunks(PUSH_BYTES).enumerate() {
            let mut entries = Vec::new();
            let corrupt = |err| ApiError::Internal(format!("part {part} of {}: {err}", job.job_id));
            unpacker
                .push(chunk, &mut |entry| entries.push(entry))
                .map_err(corrupt)?;
            fresh = false;
            if unread_next && index + 1 == chunks {
                std::mem::replace(&mut unpacker, new_unpacker())
                    .finish(&mut |entry| entries.push(entry))
                    .map_err(corrupt)?;
                fresh = true;
            }
            for entry in entries {
                match entry {
                    Entry::File(path, bytes) => {
                        files.whole(&mut listing, path, bytes).await?;
                        copy.files += 1;
                    }
                    Entry::MediaStart { path, size } => {
                        let prior = previous.and_then(|p| p.files.get(&path));
                        if prior.is_some_and(|f| f.size == size) && size <= HELD_MEDIA_BYTES {
                            open = Some(Media::Held(path, Vec::with_capacity(size as usize)));
                            continue;
                        }
                        open = Some(Media::Streamed(Box::new(
                            files.stream(&mut listing, &path, size).await?,
                        )));
                    }
                    Entry::MediaData(data) => match open.as_mut() {
                        Some(Media::Held(_, held)) => held.extend_from_slice(&data),
                        Some(Media::Streamed(streamed)) => {
                            let (digest, writer) = &mut **streamed;
                            listing.data(digest, &data).await?;
                            if let Some(writer) = writer {
                                writer.write(&data).await?;
                            }
                        }
                        None => {}
                    },
                    Entry::MediaEnd => match open.take() {
                        Some(Media::Held(path, bytes)) => {
                            files.whole(&mut listing, path, bytes).await?;
                            copy.files += 1;
                        }
                        Some(Media::Streamed(streamed)) => {
                            let (digest, writer) = *streamed;
                            if let Some(writer) = writer {
                                writer.finish().await?;
                            }
                            listing.end(digest).await?;
                            copy.files += 1;
                        }
                        None => {}
                    },
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
    copy.objects += listing.objects + files.written;
    let written = listing.written.take().unwrap_or_default();
    listing.save_step(first).await?;
    if copy.layered_on.is_some() {
        copy.written.extend(written);
        if changed_bytes(&copy.written) > MAX_CHANGED_BYTES {
            copy.start_whole();
            return Ok(false);
        }
    }
    if !copy.steps.contains(&first) {
        copy.steps.push(first);
    }
    copy.next_part = Some(part);
    Ok(part >= job.parts)
}

/// The listing entries of a part, a batch taken unchanged from the live export whose products are
/// stored at `products`, when the base holds every one of its files as they are (the part is then
/// not read): its file paths come from the batch's products. `None` when it does not (a page of
/// the batch changed in the live export, so the base lacks it) or the products are gone: the part
/// is read.
async fn unchanged_entries(
    bucket: &Bucket,
    products: String,
    previous: &Previous,
) -> ApiResult<Option<Vec<FileEntry>>> {
    let Some(bytes) = storage::read(bucket, &products, None).await? else {
        return Ok(None);
    };
    let files = BatchProducts::files_from_bytes(&bytes).map_err(ApiError::Internal)?;
    Ok(files
        .iter()
        .map(|path| {
            previous
                .files
                .get(path)
                .filter(|_| previous.layer.in_base(path))
                .cloned()
        })
        .collect())
}

/// A step's writes of files, with the export the job is layered on.
pub(super) struct Files<'a, 'b> {
    pub(super) bucket: &'a Bucket,
    pub(super) job: &'a CopyJob<'b>,
    previous: Option<&'a Previous>,
    /// Files written (the listing counts its own objects).
    written: u32,
}

impl<'a> Files<'a, '_> {
    /// Lists the file and writes it (a large one as segments), unless the base holds the same
    /// bytes there.
    pub(super) async fn whole(
        &mut self,
        listing: &mut Listing<'_>,
        path: String,
        bytes: Vec<u8>,
    ) -> ApiResult<()> {
        if let Some(previous) = self.previous {
            if let Some(prior) = previous.files.get(&path) {
                if !previous
                    .layer
                    .writes(&path, &sha256_hex(&bytes), Some(&prior.sha256))
                {
                    listing.entries.push(prior.clone());
                    return Ok(());
                }
            }
        }
        self.known_objects(listing, &path, bytes.len() as u64)
            .await?;
        self.wrote(listing, &path);
        if segmented(&path, bytes.len() as u64) {
            let mut digest = listing.start_segmented(&path, bytes.len() as u64)?;
            // A read's worth at a time, as a streamed file comes: the chunks cut from what is
            // pushed are copies, so a whole file pushed at once would be held twice more.
            for piece in bytes.chunks(PUSH_BYTES) {
                listing.data(&mut digest, piece).await?;
            }
            return listing.end(digest).await;
        }
        listing.whole(&path, &bytes).await?;
        self.bucket
            .put(
                hosted_file_key(self.job.domain, self.job.job_id, &path),
                bytes,
            )
            .http_metadata(metadata(&path))
            .execute()
            .await?;
        Ok(())
    }

    /// Starts a file written as its bytes stream through (never held whole), and listed as
    /// they come: a large one is written as the segments its chunks make
    /// (`docs_edge_core::export::segments`: the listing writes them, and the file's object that
    /// lists them); another is written as it is.
    pub(super) async fn stream(
        &mut self,
        listing: &mut Listing<'_>,
        path: &str,
        size: u64,
    ) -> ApiResult<(FileDigest, Option<PartWriter<'a>>)> {
        self.known_objects(listing, path, size).await?;
        self.wrote(listing, path);
        if segmented(path, size) {
            return Ok((listing.start_segmented(path, size)?, None));
        }
        let key = hosted_file_key(self.job.domain, self.job.job_id, path);
        let writer =
            PartWriter::new(self.bucket, key).with_metadata(metadata(path), Default::default());
        Ok((listing.start(path, size)?, Some(writer)))
    }

    /// Before a file cut into chunks is listed: the chunks of its previous version that the base
    /// holds are not written again.
    async fn known_objects(
        &self,
        listing: &mut Listing<'_>,
        path: &str,
        size: u64,
    ) -> ApiResult<()> {
        if let Some(previous) = self.previous.filter(|_| chunked(path, size)) {
            let (known, segments) = previous
                .base_objects(self.bucket, self.job.domain, path)
                .await?;
            listing.skip.extend(known);
            listing.segments_held.extend(segments);
        }
        Ok(())
    }

    /// Counts a file written, and names it among a layered export's changes.
    fn wrote(&mut self, listing: &mut Listing<'_>, path: &str) {
        self.written += 1;
        if let Some(written) = listing.written.as_mut() {
            written.push(path.to_string());
        }
    }
}

fn metadata(path: &str) -> HttpMetadata {
    HttpMetadata {
        content_type: Some(content_type(path).to_string()),
        ..HttpMetadata::default()
    }
}
