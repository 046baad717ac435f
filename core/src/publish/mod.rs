//! Publishing a docs site in bounded memory, sans IO: the worker's `PublishJob` moves bytes between
//! R2 and these functions, one step per alarm, and nothing here ever sees the whole upload, site or
//! index.
//!
//! 1. **Unpack** ([`SourceWriter`]): the upload, read from R2 a range at a time, is inflated with the
//!    upload rules ([`crate::docs::unpack`]) into source packs and a file table
//!    ([`crate::docs::packed`]); YAML files are checked as they pass.
//! 2. **Plan** ([`plan`]): docs.json and the file list give the [`SitePlan`], the page batches
//!    ([`batches`], by source bytes) and the term shard layout.
//! 3. **Batches** ([`run_batch`]): each batch reads its pages' files (and the snippets they import),
//!    parses them and writes its partial postings, text blocks, `llms-full.txt` piece and a
//!    [`BatchRecord`] (pages without bodies, search records, manifest lines).
//! 4. **Merge**: each shard group is merged from every batch's range of it
//!    ([`crate::search::shard::batched::merge_group`]).
//! 5. **Concatenate**: text blocks, term groups and `llms-full.txt` pieces become one object each
//!    (the worker's multipart uploads).
//! 6. **Finish** ([`Finisher`]): from the records, in order: the search meta, the site outline,
//!    `llms.txt` and the Markdown manifest. Then the worker switches `current.json`.
//!
//! Every step's output depends only on its inputs, so a step cut short is redone with the same bytes.
//!
//! A small site (its unpacked files under [`SMALL_SITE_BYTES`]) runs steps 2 to 6 in memory right
//! after the unpack ([`parse_small_site`], then [`SmallMerge::finish`]), writing only the final
//! objects, each as soon as it is made.

use std::collections::BTreeSet;
use std::fmt;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::agents::llms::{live_llms_txt, live_page_markdown_around, page_summary, read_planned_with_markdown, ManifestBuilder};
use crate::docs::archive::{ArchiveError, ArchiveLimits, SourceTree};
use crate::docs::outline::{PageRead, SiteOutline, SitePlan};
use crate::docs::packed::{FileTable, PackWriter, SourcePack};
use crate::docs::ignore::IGNORE_FILE;
use crate::docs::site::{check_yaml_file, plan_site, SiteError};
use crate::docs::unpack::Unpacker;
use crate::docs::{Page, Site};
use crate::search::codec::{decode, encode};
use crate::search::shard::batched::{build_batch, BatchCursor, BatchRecords, MetaBuilder, ShardLayout};
use crate::search::IndexError;

mod small;
#[cfg(test)]
mod tests;

pub use small::{parse_small_site, ParsedSmallSite, SmallMerge, SmallSite, SMALL_SITE_BYTES};

/// Page source bytes per batch: a batch holds its files, their parsed pages, its partial index and
/// its Markdown at once (about 10 times this at peak).
pub const BATCH_SOURCE_BYTES: u64 = 2 << 20;
/// Pages per batch at most, however small.
pub const BATCH_MAX_PAGES: u32 = 500;

const FORMAT: u8 = 1;
const KIND_RECORD: u8 = b'B';

/// Why a publish failed. `Archive` and `Site` are the upload's fault (the client fixes them).
#[derive(Debug)]
pub enum PublishError {
    Archive(ArchiveError),
    Site(SiteError),
    /// Stored intermediate bytes that do not load: the service's fault.
    Index(IndexError),
}

impl PublishError {
    /// Whether the upload is at fault (a 400 `invalid_archive`), not the service.
    pub fn is_invalid_upload(&self) -> bool {
        matches!(self, Self::Archive(_) | Self::Site(_))
    }
}

impl fmt::Display for PublishError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Archive(err) => err.fmt(f),
            Self::Site(err) => err.fmt(f),
            Self::Index(err) => write!(f, "stored publish data: {err}"),
        }
    }
}

impl std::error::Error for PublishError {}

impl From<ArchiveError> for PublishError {
    fn from(err: ArchiveError) -> Self {
        Self::Archive(err)
    }
}

impl From<SiteError> for PublishError {
    fn from(err: SiteError) -> Self {
        Self::Site(err)
    }
}

impl From<IndexError> for PublishError {
    fn from(err: IndexError) -> Self {
        Self::Index(err)
    }
}

/// Step 1: the upload in, source packs out.
pub struct SourceWriter {
    unpacker: Unpacker,
    writer: PackWriter,
    failed: Option<SiteError>,
}

impl SourceWriter {
    pub fn new(limits: &ArchiveLimits) -> Self {
        SourceWriter { unpacker: Unpacker::new(limits), writer: PackWriter::new(), failed: None }
    }

    /// The next compressed bytes; returns the packs they completed.
    pub fn push(&mut self, gz: &[u8]) -> Result<Vec<SourcePack>, PublishError> {
        let mut packs = Vec::new();
        let (writer, failed) = (&mut self.writer, &mut self.failed);
        self.unpacker.push(gz, &mut |path, data| take_file(writer, failed, &mut packs, path, data))?;
        self.failed.take().map_or(Ok(packs), |err| Err(err.into()))
    }

    /// The end of the upload: the last packs and the file table.
    pub fn finish(mut self) -> Result<(Vec<SourcePack>, FileTable), PublishError> {
        let mut packs = Vec::new();
        let (writer, failed) = (&mut self.writer, &mut self.failed);
        self.unpacker.finish(&mut |path, data| take_file(writer, failed, &mut packs, path, data))?;
        if let Some(err) = self.failed.take() {
            return Err(err.into());
        }
        let (last, table) = self.writer.finish()?;
        packs.extend(last);
        Ok((packs, table))
    }
}

fn take_file(writer: &mut PackWriter, failed: &mut Option<SiteError>, packs: &mut Vec<SourcePack>, path: String, data: Vec<u8>) {
    if failed.is_some() {
        return;
    }
    match check_yaml_file(&path, &data) {
        Ok(()) => packs.extend(writer.add(path, &data)),
        Err(err) => *failed = Some(err),
    }
}

/// The files the plan reads: docs.json, every other JSON file it may `$ref`, and `.mintignore`.
pub fn config_files(table: &FileTable) -> Vec<String> {
    let is_config = |p: &str| p.to_ascii_lowercase().ends_with(".json") || p == IGNORE_FILE;
    table.files().iter().map(|f| f.path.clone()).filter(|p| is_config(p)).collect()
}

/// What step 2 decides.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    pub plan: SitePlan,
    /// Page index ranges, in order.
    pub batches: Vec<Range<u32>>,
    pub layout: ShardLayout,
}

/// Step 2: the plan from the config files (as [`config_files`] named them) and the file table.
pub fn plan(config_tree: &SourceTree, table: &FileTable) -> Result<Planned, PublishError> {
    let paths: Vec<&str> = table.files().iter().map(|f| f.path.as_str()).collect();
    let plan = plan_site(config_tree, &paths)?;
    let size = |source: &str| table.get(source).map_or(0, |f| u64::from(f.len));
    let batches = batches(plan.pages().iter().map(|p| size(&p.source)));
    let layout = ShardLayout::for_source_bytes(plan.pages().iter().map(|p| size(&p.source)).sum());
    Ok(Planned { plan, batches, layout })
}

/// Consecutive page ranges of about [`BATCH_SOURCE_BYTES`] of source each.
pub fn batches(page_bytes: impl IntoIterator<Item = u64>) -> Vec<Range<u32>> {
    let mut out = Vec::new();
    let (mut start, mut bytes, mut i) = (0u32, 0u64, 0u32);
    for size in page_bytes {
        if i > start && (bytes + size > BATCH_SOURCE_BYTES || i - start >= BATCH_MAX_PAGES) {
            out.push(start..i);
            start = i;
            bytes = 0;
        }
        bytes += size;
        i += 1;
    }
    if i > start {
        out.push(start..i);
    }
    out
}

/// The files batch `range` reads.
pub fn batch_files(plan: &SitePlan, range: &Range<u32>, table: &FileTable) -> BTreeSet<String> {
    let pages = plan.pages().get(range.start as usize..range.end as usize).unwrap_or(&[]);
    table.needed_by(pages.iter().map(|p| p.source.as_str()))
}

/// Where the next batch starts, carried between batches.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BatchState {
    pub search: BatchCursor,
    /// Bytes of `llms-full.txt` so far.
    pub llms_len: u64,
}

/// What one batch writes.
#[derive(Debug)]
pub struct BatchResult {
    pub postings: Vec<u8>,
    pub group_ends: Vec<u64>,
    pub text: Vec<u8>,
    /// The next bytes of `llms-full.txt`.
    pub llms: Vec<u8>,
    pub record: BatchRecord,
}

/// A batch's share of the outline, the meta and the manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BatchRecord {
    /// The batch's pages without sections, with their reading warnings.
    pub pages: Vec<PageRead>,
    pub search: BatchRecords,
    /// `(path, offset, length)` of each page's Markdown in `llms-full.txt`.
    pub markdown: Vec<(String, u64, u64)>,
    /// Each page's line in `llms.txt` ([`page_summary`]: it reads the page's text).
    pub summaries: Vec<String>,
}

impl BatchRecord {
    pub fn to_bytes(&self) -> Vec<u8> {
        encode(&[FORMAT, KIND_RECORD], self)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<BatchRecord, IndexError> {
        decode(bytes, &[FORMAT, KIND_RECORD])
    }
}

/// Step 3: batch `range` of `plan` (`last`: the final one), its files in `tree`.
pub fn run_batch(
    plan: &SitePlan,
    range: &Range<u32>,
    last: bool,
    layout: &ShardLayout,
    tree: &SourceTree,
    state: &mut BatchState,
    domain: &str,
) -> Result<BatchResult, PublishError> {
    let mut pages = Vec::with_capacity(range.len());
    let mut reads = Vec::with_capacity(range.len());
    let mut bodies = Vec::with_capacity(range.len());
    for planned_page in plan.pages().get(range.start as usize..range.end as usize).unwrap_or(&[]) {
        // One walk of the body for its text and its Markdown for agents.
        let mut body_markdown = String::new();
        let mut read = read_planned_with_markdown(tree, planned_page, domain, &mut body_markdown)?;
        if planned_page.copy_of.is_some() {
            // The first page read from the file reported them.
            read.warnings.clear();
        }
        // The record keeps the page without its text, so only the metadata is copied.
        let sections = std::mem::take(&mut read.page.sections);
        pages.push(Page { sections, ..read.page.clone() });
        reads.push(read);
        bodies.push(body_markdown);
    }
    let summaries = pages.iter().map(page_summary).collect();
    let mut llms = String::new();
    let mut markdown = Vec::with_capacity(pages.len());
    for (page, body) in pages.iter().zip(bodies) {
        let md = live_page_markdown_around(page, body, domain);
        if state.llms_len + llms.len() as u64 > 0 {
            llms.push('\n');
        }
        let offset = state.llms_len + llms.len() as u64;
        llms.push_str(&md);
        markdown.push((page.path.clone(), offset, md.len() as u64));
    }
    state.llms_len += llms.len() as u64;
    let search = build_batch(&pages, &mut state.search, layout, last)?;
    Ok(BatchResult {
        postings: search.postings,
        group_ends: search.group_ends,
        text: search.text,
        llms: llms.into_bytes(),
        record: BatchRecord { pages: reads, search: search.records, markdown, summaries },
    })
}

/// What step 6 makes.
#[derive(Debug)]
pub struct Finished {
    pub meta: Vec<u8>,
    pub outline: Vec<u8>,
    pub llms_txt: String,
    pub manifest: String,
    /// The outline's site, for the version record (page count, languages, versions, warnings).
    pub site: Site,
}

/// Step 6: folds the batch records, in order.
pub struct Finisher {
    meta: MetaBuilder,
    reads: Vec<PageRead>,
    summaries: Vec<String>,
    manifest: ManifestBuilder,
}

impl Default for Finisher {
    fn default() -> Self {
        Finisher { meta: MetaBuilder::default(), reads: Vec::new(), summaries: Vec::new(), manifest: ManifestBuilder::default() }
    }
}

impl Finisher {
    pub fn add(&mut self, record: BatchRecord) {
        self.meta.add(record.search);
        self.reads.extend(record.pages);
        self.summaries.extend(record.summaries);
        for (path, offset, len) in &record.markdown {
            self.manifest.add(path, *offset, *len);
        }
    }

    /// `shard_lens`: every term shard's length, from the merge, in shard order.
    pub fn finish(self, plan: SitePlan, shard_lens: &[u64], domain: &str) -> Result<Finished, PublishError> {
        let meta = self.meta.finish(shard_lens)?;
        let site = plan.finish(self.reads);
        let outline = SiteOutline { site, summaries: self.summaries };
        Ok(Finished {
            meta,
            outline: outline.to_bytes(),
            llms_txt: live_llms_txt(&outline.site, &outline.summaries, domain),
            manifest: self.manifest.finish().text,
            site: outline.site,
        })
    }
}
