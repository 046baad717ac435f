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
//!    [`BatchRecord`] (pages without bodies, search records, manifest lines). A batch's bytes do not
//!    depend on the bytes of the batches before it, so a re-publish takes an unchanged batch whole
//!    from the live version ([`kept`]): its objects sit in the site's store, shared by versions.
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

use crate::agents::llms::{
    live_llms_txt, live_page_markdown_around, read_planned_with_markdown, ManifestBuilder,
};
use crate::agents::summary::page_summary;
use crate::docs::archive::{ArchiveError, ArchiveLimits, SourceTree};
use crate::docs::assistant_files::is_guide_file;
use crate::docs::outline::{PageRead, SiteOutline, SitePlan};
use crate::docs::packed::{self, FileTable, PackWriter, SourcePack, MAX_PACKED_MEDIA_BYTES};
use crate::docs::public_skills::{is_public_skill_file, well_known_files};
use crate::docs::site::{check_yaml_file, plan_site, SiteError};
use crate::docs::skill_file::is_skill_file;
use crate::docs::spec_lookup::SpecLookup;
use crate::docs::unpack::{Entry, Unpacker};
use crate::docs::{Page, Site};
use crate::search::codec::{decode, encode};
use crate::search::semantic::StaticModel;
use crate::search::shard::batched::{
    build_batch, BatchCursor, BatchRecords, MetaBuilder, ShardLayout,
};
use crate::search::IndexError;
use kept::{batch_digest, KeptBatch, KeptBatches};
use parsed::{FileDigests, PageKey, ParsedEntry, ParsedIndex, ParsedPageRef, ParsedWriter, Reused};
use sha2::{Digest, Sha256};

pub mod concat;
pub mod kept;
pub mod manifest;
pub mod parsed;
pub mod pieced;
pub mod preview;
mod small;
#[cfg(test)]
mod tests;

pub use small::{
    parse_small_site, plan_small_site, ParsedSmallSite, SmallMerge, SmallPlan, SmallSite,
    SMALL_SITE_BYTES,
};

/// Page source bytes per batch: a batch holds its files, their parsed pages, its partial index and
/// its Markdown at once (about 10 times this at peak).
pub const BATCH_SOURCE_BYTES: u64 = 2 << 20;
/// Pages per batch at most, however small.
pub const BATCH_MAX_PAGES: u32 = 500;
/// Past half its bytes (or pages), a batch also ends before a page whose path hashes to a multiple
/// of this: cuts that depend on the pages, not on the bytes before them, so an edit that moves one
/// cut leaves the later ones in place.
const CUT_EVERY: u8 = 16;

const FORMAT: u8 = 3;
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

/// What the unpack step stores, in order.
#[derive(Debug, PartialEq, Eq)]
pub enum Stored {
    /// A finished source or media pack.
    Pack(SourcePack),
    /// A large media file begins: object `name` beside the version, `size` bytes, streamed.
    ObjectStart {
        name: String,
        size: u64,
    },
    ObjectData(Vec<u8>),
    ObjectEnd,
}

impl Stored {
    /// A source pack's index and bytes; `None` for media.
    pub fn into_source_pack(self) -> Option<(u32, Vec<u8>)> {
        match self {
            Stored::Pack(p) if !p.media => Some((p.index, p.bytes)),
            _ => None,
        }
    }
}

/// Step 1: the upload in, source packs, media packs and media objects out.
pub struct SourceWriter {
    unpacker: Unpacker,
    files: FileSink,
}

/// Where the unpacker's entries go: source files and small media into packs, large media through.
struct FileSink {
    writer: PackWriter,
    failed: Option<SiteError>,
    /// The small media file being gathered.
    media: Option<(String, Vec<u8>)>,
    objects: u32,
    out: Vec<Stored>,
    digests: FileDigests,
}

impl SourceWriter {
    pub fn new(limits: &ArchiveLimits) -> Self {
        let files = FileSink {
            writer: PackWriter::new(),
            failed: None,
            media: None,
            objects: 0,
            out: Vec::new(),
            digests: FileDigests::default(),
        };
        SourceWriter {
            unpacker: Unpacker::new(limits),
            files,
        }
    }

    /// The next compressed bytes; returns what they completed. A media file's data comes out as
    /// large as `gz` inflates to: push small slices.
    pub fn push(&mut self, gz: &[u8]) -> Result<Vec<Stored>, PublishError> {
        let files = &mut self.files;
        self.unpacker.push(gz, &mut |entry| files.take(entry))?;
        self.files
            .failed
            .take()
            .map_or(Ok(std::mem::take(&mut self.files.out)), |err| {
                Err(err.into())
            })
    }

    /// The end of the upload: the last of what it stores, the file table and the source files'
    /// digests.
    pub fn finish(mut self) -> Result<(Vec<Stored>, FileTable, FileDigests), PublishError> {
        let files = &mut self.files;
        self.unpacker.finish(&mut |entry| files.take(entry))?;
        if let Some(err) = self.files.failed.take() {
            return Err(err.into());
        }
        let mut out = std::mem::take(&mut self.files.out);
        let (last, table) = self.files.writer.finish()?;
        out.extend(last.into_iter().map(Stored::Pack));
        Ok((out, table, self.files.digests))
    }
}

impl FileSink {
    fn take(&mut self, entry: Entry) {
        if self.failed.is_some() {
            return;
        }
        match entry {
            Entry::File(path, data) => match check_yaml_file(&path, &data) {
                Ok(()) => {
                    self.digests.add(&path, &data);
                    self.out
                        .extend(self.writer.add(path, &data).map(Stored::Pack));
                }
                Err(err) => self.failed = Some(err),
            },
            Entry::MediaStart { path, size } if size <= MAX_PACKED_MEDIA_BYTES => {
                self.media = Some((path, Vec::with_capacity(size as usize)));
            }
            Entry::MediaStart { path, size } => {
                let name = media_object(self.objects);
                self.objects += 1;
                self.writer
                    .add_stored(path, size, packed::Stored::Object(name.clone()));
                self.out.push(Stored::ObjectStart { name, size });
            }
            Entry::MediaData(data) => match &mut self.media {
                Some((_, bytes)) => bytes.extend_from_slice(&data),
                None => self.out.push(Stored::ObjectData(data)),
            },
            Entry::MediaEnd => match self.media.take() {
                Some((path, bytes)) => self
                    .out
                    .extend(self.writer.add_media(path, &bytes).map(Stored::Pack)),
                None => self.out.push(Stored::ObjectEnd),
            },
            Entry::Link { path, target } => self.writer.add_link(path, target),
        }
    }
}

/// The name, beside the version, of its `index`th large media file.
pub fn media_object(index: u32) -> String {
    format!("media/file-{index:05}.bin")
}

/// The files the plan reads: docs.json (or mint.json), every other JSON file it may `$ref`, the
/// OpenAPI specs (JSON or YAML) whose operations become pages, `.mintignore`, the skills served to
/// agents (the root `skill.md` and `crate::docs::public_skills`) and the assistant's instructions
/// and skills (`crate::docs::assistant_files`, bounded there).
pub fn config_files(table: &FileTable) -> Vec<String> {
    let is_config = |p: &str| {
        let lower = p.to_ascii_lowercase();
        lower.ends_with(".json")
            || lower.ends_with(".yaml")
            || lower.ends_with(".yml")
            || lower.ends_with(".mintignore")
            || is_skill_file(p)
            || is_public_skill_file(p)
            || is_guide_file(p)
    };
    table
        .files()
        .iter()
        .filter(|f| f.stored == packed::Stored::Source && is_config(&f.path))
        .map(|f| f.path.clone())
        .collect()
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
    let mut plan = plan_site(config_tree, &paths)?;
    plan.config_warnings
        .extend(table.warnings().iter().cloned());
    let size = |source: &str| table.get(source).map_or(0, |f| u64::from(f.len));
    let batches = batches(
        plan.pages()
            .iter()
            .map(|p| (p.source_len(size), p.path.as_str())),
    );
    let layout =
        ShardLayout::for_source_bytes(plan.pages().iter().map(|p| p.source_len(size)).sum());
    Ok(Planned {
        plan,
        batches,
        layout,
    })
}

/// Consecutive page ranges of at most [`BATCH_SOURCE_BYTES`] of source and [`BATCH_MAX_PAGES`]
/// pages each (a larger page alone), from each page's source bytes and path; past half of either
/// bound a batch also ends before a page whose path is a cut point ([`CUT_EVERY`]).
pub fn batches<'a>(pages: impl IntoIterator<Item = (u64, &'a str)>) -> Vec<Range<u32>> {
    let is_cut = |path: &str| Sha256::digest(path.as_bytes())[0] % CUT_EVERY == 0;
    let mut out = Vec::new();
    let (mut start, mut bytes, mut i) = (0u32, 0u64, 0u32);
    for (size, path) in pages {
        let half = bytes >= BATCH_SOURCE_BYTES / 2 || i - start >= BATCH_MAX_PAGES / 2;
        if i > start
            && (bytes + size > BATCH_SOURCE_BYTES
                || i - start >= BATCH_MAX_PAGES
                || (half && is_cut(path)))
        {
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
    let pages = plan
        .pages()
        .get(range.start as usize..range.end as usize)
        .unwrap_or(&[]);
    table.needed_by(pages.iter().filter_map(|p| p.source_file()))
}

/// Where the next batch starts, carried between batches.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BatchState {
    pub search: BatchCursor,
}

/// What one batch writes.
#[derive(Debug)]
pub struct BatchResult {
    pub postings: Vec<u8>,
    pub group_ends: Vec<u64>,
    pub text: Vec<u8>,
    /// The next bytes of `llms-full.txt`.
    pub llms: Vec<u8>,
    /// The batch's parsed pages, to keep with the version ([`parsed::parsed_object`]).
    pub parsed: Vec<u8>,
    /// Pages taken from an earlier publish rather than parsed.
    pub reused_pages: u32,
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
    /// Where each page's parsed result sits in the batch's parsed object.
    pub parsed: Vec<ParsedEntry>,
    /// Bytes of the batch's `llms-full.txt` piece (the offsets above count from its start).
    pub llms_len: u64,
    /// End of each term group in the batch's partial postings.
    pub group_ends: Vec<u64>,
    /// What the batch was built from ([`kept`]).
    pub digest: [u8; 16],
    pub start: BatchCursor,
}

impl BatchRecord {
    /// The record of the same batch kept as batch `batch` of a version (its parsed pages there).
    pub fn kept_as(mut self, batch: u32) -> BatchRecord {
        self.parsed.iter_mut().for_each(|e| e.batch = batch);
        self
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        encode(&[FORMAT, KIND_RECORD], self)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<BatchRecord, IndexError> {
        decode(bytes, &[FORMAT, KIND_RECORD])
    }
}

/// One batch of step 3: pages `range` of the plan, their files in `tree`, their
/// [`parsed::page_keys`] in `keys`.
pub struct BatchInput<'a> {
    pub batch: u32,
    pub range: Range<u32>,
    pub tree: &'a SourceTree,
    pub keys: &'a [PageKey],
    /// The semantic stage's model, which gives the batch's chunks their vectors.
    pub model: Option<&'a StaticModel<'a>>,
}

/// Step 3: one batch. A page whose key `reused` holds is taken from there, not parsed.
pub fn run_batch(
    plan: &SitePlan,
    input: BatchInput<'_>,
    layout: &ShardLayout,
    reused: &Reused,
    state: &mut BatchState,
    domain: &str,
) -> Result<BatchResult, PublishError> {
    let BatchInput {
        batch,
        range,
        tree,
        keys,
        model,
    } = input;
    let digest = batch_digest(
        plan,
        &range,
        keys,
        layout,
        model.map(StaticModel::fingerprint),
    );
    let start = state.search;
    let planned_pages = plan
        .pages()
        .get(range.start as usize..range.end as usize)
        .unwrap_or(&[]);
    let mut pages = Vec::with_capacity(range.len());
    let mut reads = Vec::with_capacity(range.len());
    let mut bodies = Vec::with_capacity(range.len());
    let mut kept = ParsedWriter::default();
    let mut reused_pages = 0;
    let mut specs = SpecLookup::new(tree);
    for (planned_page, &key) in planned_pages.iter().zip(keys) {
        let (mut read, body_markdown) = match reused.get(&key) {
            Some((page, encoded)) => {
                kept.push(key, batch, encoded);
                reused_pages += 1;
                (page.read, page.body_markdown)
            }
            None => {
                // One walk of the body for its text and its Markdown for agents.
                let mut body_markdown = String::new();
                let read = read_planned_with_markdown(
                    tree,
                    planned_page,
                    domain,
                    &mut specs,
                    &mut body_markdown,
                )?;
                kept.push(
                    key,
                    batch,
                    &ParsedPageRef {
                        read: &read,
                        body_markdown: &body_markdown,
                    }
                    .to_bytes(),
                );
                (read, body_markdown)
            }
        };
        if planned_page.copy_of.is_some() {
            // The first page read from the file reported them.
            read.warnings.clear();
        } else {
            let text = tree
                .get(&planned_page.source)
                .map(|bytes| crate::docs::source_text::read(bytes));
            read.warnings
                .extend(plan.operation_warning(&read.page, text.as_deref()));
        }
        // The record keeps the page without its text, so only the metadata is copied.
        let sections = std::mem::take(&mut read.page.sections);
        pages.push(Page {
            sections,
            ..read.page.clone()
        });
        reads.push(read);
        bodies.push(body_markdown);
    }
    let summaries = pages.iter().map(page_summary).collect();
    // Offsets from the piece's start; the finish adds the pieces before it.
    let mut llms = String::new();
    let mut markdown = Vec::with_capacity(pages.len());
    for (page, body) in pages.iter().zip(bodies) {
        let md = live_page_markdown_around(page, body, domain);
        if range.start > 0 || !llms.is_empty() {
            llms.push('\n');
        }
        let offset = llms.len() as u64;
        llms.push_str(&md);
        markdown.push((page.path.clone(), offset, md.len() as u64));
    }
    let search = build_batch(&pages, &mut state.search, layout, model)?;
    let llms_len = llms.len() as u64;
    let group_ends = search.group_ends.clone();
    Ok(BatchResult {
        postings: search.postings,
        group_ends: search.group_ends,
        text: search.text,
        llms: llms.into_bytes(),
        parsed: kept.bytes,
        reused_pages,
        record: BatchRecord {
            pages: reads,
            search: search.records,
            markdown,
            summaries,
            parsed: kept.entries,
            llms_len,
            group_ends,
            digest,
            start,
        },
    })
}

/// What step 6 makes.
#[derive(Debug)]
pub struct Finished {
    pub meta: Vec<u8>,
    pub outline: Vec<u8>,
    pub llms_txt: String,
    /// The root `skill.md` (`crate::docs::skill_file`), served beside `llms.txt`.
    pub skill_md: Option<String>,
    /// The skills' discovery files by their path from the site's root (`.well-known/…`,
    /// `crate::docs::public_skills::well_known_files`), stored beside the version under that name.
    pub well_known: Vec<(String, Vec<u8>)>,
    pub manifest: String,
    /// The version's [`ParsedIndex`].
    pub parsed_index: Vec<u8>,
    /// The version's [`KeptBatches`].
    pub kept_batches: Vec<u8>,
    /// The outline's site, for the version record (page count, languages, versions, warnings).
    pub site: Site,
    /// The repository's [`crate::docs::assistant_files::AssistantGuide`], as JSON.
    pub assistant: Vec<u8>,
}

/// Step 6: folds the batch records, in order.
#[derive(Default)]
pub struct Finisher {
    meta: MetaBuilder,
    reads: Vec<PageRead>,
    summaries: Vec<String>,
    manifest: ManifestBuilder,
    parsed: Vec<ParsedEntry>,
    kept: Vec<KeptBatch>,
    /// The source packs of the site's store the version reads, for its index.
    packs: Vec<String>,
    /// Text pack and `llms-full.txt` bytes of the batches added so far.
    text_len: u64,
    llms_len: u64,
}

impl Finisher {
    /// Lists `packs` (the file table's, `FileTable::pack_objects`) in the version's index, so the
    /// storage sweep keeps them while the version is kept.
    pub fn refer_packs(&mut self, packs: &[String]) {
        self.packs = packs.to_vec();
    }

    pub fn add(&mut self, record: BatchRecord) {
        let text_len = record.search.text_len();
        let mut end = record.start;
        end.advance(&record.search);
        let (text, llms) = ((self.text_len, text_len), (self.llms_len, record.llms_len));
        self.kept.push(KeptBatch {
            digest: record.digest,
            start: record.start,
            end,
            text,
            llms,
            group_ends: record.group_ends.clone(),
        });
        self.meta.add(record.search);
        self.reads.extend(record.pages);
        self.summaries.extend(record.summaries);
        self.parsed.extend(record.parsed);
        for (path, offset, len) in &record.markdown {
            self.manifest.add(path, self.llms_len + *offset, *len);
        }
        self.text_len += text_len;
        self.llms_len += record.llms_len;
    }

    /// `shard_lens`: every term shard's length, from the merge, in shard order.
    pub fn finish(
        self,
        mut plan: SitePlan,
        shard_lens: &[u64],
        domain: &str,
    ) -> Result<Finished, PublishError> {
        let meta = self.meta.finish(shard_lens)?;
        let skill_md = plan.skill.take();
        let well_known = well_known_files(&std::mem::take(&mut plan.public_skills));
        let assistant = plan.assistant.to_json();
        let site = plan.finish(self.reads);
        let outline = SiteOutline {
            site,
            summaries: self.summaries,
        };
        Ok(Finished {
            meta,
            outline: outline.to_bytes(),
            llms_txt: live_llms_txt(&outline.site, &outline.summaries, domain),
            skill_md,
            well_known,
            manifest: self.manifest.finish().text,
            parsed_index: ParsedIndex::new(self.parsed).to_bytes(),
            kept_batches: KeptBatches::new(self.kept)
                .with_packs(self.packs)
                .to_bytes(),
            site: outline.site,
            assistant,
        })
    }
}
