//! A hosted export's delta listing (`docs_edge_core::export::delta`), written while its files are
//! copied (`super::site_copy`): each file is hashed as it is written, and a large one (or one the
//! site's URLs do not reach) is also cut into chunks, each written as an object of the listing. A
//! copy step's entries are kept in one object of the job (`delta_step_key`), since a step's record
//! must stay small; the last step assembles them, in step order, into the index and parts, written before the
//! live pointer, so a mirror that sees a live export finds its listing. An export layered on a base
//! (`docs_edge_core::export::layers`) writes only the objects the base does not hold.

use docs_edge_core::export::delta::{
    assemble, chunked, group_chunks, group_ends, list_bytes, object_path, Chunker, FileEntry,
    INDEX_PATH,
};
use docs_edge_core::export::segments::{segment_list, segment_path, SEGMENTS_METADATA};
use docs_edge_core::http::site_headers::content_type;
use docs_edge_core::security::signing::sha256_hex;
use std::collections::{HashMap, HashSet};
use worker::{Bucket, HttpMetadata};

use crate::builder::native_sha::{self, StreamingSha256};
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::join::try_join_all;
use crate::shared::storage::{self, delta_step_key, hosted_file_key};

/// Chunks hashed at once (`crate::shared::join` polls each pending one on every wake).
const HASHED_AT_ONCE: usize = 32;

/// The entries of one copy step, and where they are written.
pub struct Listing<'a> {
    pub bucket: &'a Bucket,
    pub domain: &'a str,
    pub job_id: &'a str,
    pub entries: Vec<FileEntry>,
    /// Objects not to write: the base holds them, or this step wrote them already.
    pub skip: HashSet<String>,
    /// Segments not to write (`docs_edge_core::export::segments`), by name: the base holds
    /// them, or this step wrote them already.
    pub segments_held: HashSet<String>,
    /// Objects written.
    pub objects: u32,
    /// The paths written, when the export is layered on a base (its `changed`).
    pub written: Option<Vec<String>>,
}

/// A file being hashed (and cut) as its bytes are written (hashed by the runtime: `native_sha`).
pub struct FileDigest {
    path: String,
    size: u64,
    hasher: StreamingSha256,
    chunker: Option<Chunker>,
    chunks: Vec<(String, u64)>,
    /// A file stored for the site as segments: the open one and those written.
    segments: Option<Segments>,
}

/// A segmented file's segments so far: the chunks of the open one and their bytes, then the
/// names and sizes of those done.
#[derive(Default)]
struct Segments {
    chunks: Vec<(String, u64)>,
    bytes: Vec<u8>,
    done: Vec<(String, u64)>,
}

impl<'a> Listing<'a> {
    pub fn new(bucket: &'a Bucket, domain: &'a str, job_id: &'a str) -> Self {
        Listing {
            bucket,
            domain,
            job_id,
            entries: Vec::new(),
            skip: HashSet::new(),
            segments_held: HashSet::new(),
            objects: 0,
            written: None,
        }
    }

    pub fn start(&self, path: &str, size: u64) -> ApiResult<FileDigest> {
        Ok(FileDigest {
            path: path.to_string(),
            size: 0,
            hasher: StreamingSha256::new()?,
            chunker: chunked(path, size).then(Chunker::default),
            chunks: Vec::new(),
            segments: None,
        })
    }

    /// [`Self::start`] of a file the site stores as segments (`segments::segmented`): its
    /// object, written by [`Self::end`], lists them.
    pub fn start_segmented(&self, path: &str, size: u64) -> ApiResult<FileDigest> {
        let mut digest = self.start(path, size)?;
        digest.segments = digest.chunker.is_some().then(Segments::default);
        Ok(digest)
    }

    /// Hashes `data`, the file's next bytes, and writes the chunks it completes.
    pub async fn data(&mut self, digest: &mut FileDigest, data: &[u8]) -> ApiResult<()> {
        digest.hasher.update(data).await?;
        digest.size += data.len() as u64;
        if let Some(chunker) = digest.chunker.as_mut() {
            let done = chunker.push(data);
            self.put_chunks(digest, done).await?;
        }
        Ok(())
    }

    /// The file is whole: its entry (its chunk list written first), and a segmented file's object,
    /// the list of its segments.
    pub async fn end(&mut self, mut digest: FileDigest) -> ApiResult<()> {
        let mut list = None;
        if let Some(chunker) = digest.chunker.take() {
            let last = chunker.finish();
            self.put_chunks(&mut digest, last).await?;
            self.put_segment(&mut digest).await?;
            let mut groups = Vec::new();
            for group in group_chunks(&digest.chunks) {
                let bytes = list_bytes(&group);
                let sha = sha256_hex(&bytes);
                self.put_object(&sha, bytes).await?;
                groups.push((sha, group.iter().map(|(_, size)| size).sum()));
            }
            let bytes = list_bytes(&groups);
            let sha = sha256_hex(&bytes);
            self.put_object(&sha, bytes).await?;
            list = Some(sha);
        }
        if let Some(segments) = digest.segments.take() {
            let custom = HashMap::from([(SEGMENTS_METADATA.to_string(), digest.size.to_string())]);
            self.bucket
                .put(
                    hosted_file_key(self.domain, self.job_id, &digest.path),
                    segment_list(&segments.done),
                )
                .http_metadata(HttpMetadata {
                    content_type: Some(content_type(&digest.path).to_string()),
                    ..HttpMetadata::default()
                })
                .custom_metadata(custom)
                .execute()
                .await?;
        }
        self.entries.push(FileEntry {
            path: digest.path,
            size: digest.size,
            sha256: digest.hasher.finish().await?,
            chunks: list,
        });
        Ok(())
    }

    /// A file held whole: [`Self::start`], [`Self::data`] and [`Self::end`] at once.
    pub async fn whole(&mut self, path: &str, bytes: &[u8]) -> ApiResult<()> {
        if !chunked(path, bytes.len() as u64) {
            self.entries.push(FileEntry {
                path: path.to_string(),
                size: bytes.len() as u64,
                sha256: native_sha::sha256_hex(bytes).await?,
                chunks: None,
            });
            return Ok(());
        }
        let mut digest = self.start(path, bytes.len() as u64)?;
        self.data(&mut digest, bytes).await?;
        self.end(digest).await
    }

    /// Writes this step's entries, as the step that starts at part `first`.
    pub async fn save_step(self, first: u32) -> ApiResult<()> {
        self.bucket
            .put(
                delta_step_key(self.job_id, first),
                self.entries
                    .iter()
                    .map(FileEntry::line)
                    .collect::<String>()
                    .into_bytes(),
            )
            .execute()
            .await?;
        Ok(())
    }

    async fn put_chunks(&mut self, digest: &mut FileDigest, chunks: Vec<Vec<u8>>) -> ApiResult<()> {
        // Hashed some at once: a wait on the runtime for a few chunks, not one a chunk (a 60 MB
        // file is some 3,800 chunks).
        let mut shas = Vec::with_capacity(chunks.len());
        for group in chunks.chunks(HASHED_AT_ONCE) {
            shas.extend(try_join_all(group.iter().map(|c| native_sha::sha256_hex(c))).await?);
        }
        for (chunk, sha) in chunks.into_iter().zip(shas) {
            digest.chunks.push((sha.clone(), chunk.len() as u64));
            let mut ends = false;
            if let Some(segments) = digest.segments.as_mut() {
                segments.bytes.extend_from_slice(&chunk);
                segments.chunks.push((sha.clone(), chunk.len() as u64));
                ends = group_ends(&sha, segments.chunks.len());
            }
            self.put_object(&sha, chunk).await?;
            if ends {
                self.put_segment(digest).await?;
            }
        }
        Ok(())
    }

    /// Writes a segmented file's open segment, named by its chunks' list (unless the base holds
    /// it): its chunks are a group of the file's chunk list, so its name is that group's hash.
    async fn put_segment(&mut self, digest: &mut FileDigest) -> ApiResult<()> {
        let Some(segments) = digest.segments.as_mut().filter(|s| !s.chunks.is_empty()) else {
            return Ok(());
        };
        let name = sha256_hex(&list_bytes(&std::mem::take(&mut segments.chunks)));
        let bytes = std::mem::take(&mut segments.bytes);
        segments.done.push((name.clone(), bytes.len() as u64));
        if self.segments_held.insert(name.clone()) {
            self.put(&segment_path(&name), bytes, "application/octet-stream")
                .await?;
        }
        Ok(())
    }

    async fn put_object(&mut self, sha: &str, bytes: Vec<u8>) -> ApiResult<()> {
        if !self.skip.insert(sha.to_string()) {
            return Ok(());
        }
        self.put(&object_path(sha), bytes, "application/octet-stream")
            .await
    }

    async fn put(&mut self, path: &str, bytes: Vec<u8>, content_type: &str) -> ApiResult<()> {
        self.objects += 1;
        if let Some(written) = self.written.as_mut() {
            written.push(path.to_string());
        }
        let metadata = HttpMetadata {
            content_type: Some(content_type.into()),
            ..HttpMetadata::default()
        };
        self.bucket
            .put(hosted_file_key(self.domain, self.job_id, path), bytes)
            .http_metadata(metadata)
            .execute()
            .await?;
        Ok(())
    }
}

/// Assembles the steps' entries (`steps`: each step's first part) into the listing's parts and its
/// index, the index last (a part the base holds is not written again: `listing.skip`); returns the
/// paths of the files listed.
pub async fn write_listing(
    listing: &mut Listing<'_>,
    publish_id: &str,
    steps: &[u32],
) -> ApiResult<HashSet<String>> {
    let mut lines = String::new();
    for &first in steps {
        let bytes = storage::read(listing.bucket, &delta_step_key(listing.job_id, first), None)
            .await?
            .ok_or_else(|| ApiError::Internal(format!("delta step {first} is missing")))?;
        lines.push_str(&String::from_utf8_lossy(&bytes));
    }
    let (index, parts) = assemble(listing.job_id, publish_id, &lines);
    for (sha, bytes) in parts {
        listing.put_object(&sha, bytes).await?;
    }
    listing
        .put(INDEX_PATH, index, "text/plain; charset=utf-8")
        .await?;
    Ok(lines
        .lines()
        .filter_map(|line| line.splitn(4, ' ').nth(3))
        .map(str::to_string)
        .collect())
}
