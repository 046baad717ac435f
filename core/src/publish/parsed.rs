//! Parsed pages kept with a version, so the next publish reuses every page whose inputs did not
//! change instead of parsing it again.
//!
//! A page's [`PageKey`] hashes everything its reading depends on: the code that reads it (this
//! crate's source, [`READER_ID`]), the domain, its place in the navigation (the planned page but
//! its copy index) and the path and bytes of every file reading it touches
//! ([`FileTable::needed_by`]). Equal keys give equal results, so a hit is taken as it is.
//!
//! Each batch writes its pages' parsed results as one object ([`parsed_object`]): the encoded
//! [`ParsedPage`]s one after another. The finish writes the version's [`ParsedIndex`]
//! ([`PARSED_INDEX_OBJECT`]): key, batch, offset and length per page, sorted by key (28 bytes a
//! page: 280 KB for 10,000 pages). A re-publish reads the live version's index once, then per batch
//! one ranged read per old object its hits sit in; a miss, a missing object or bytes that do not
//! decode are parsed as if nothing were kept.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::docs::archive::SourceTree;
use crate::docs::outline::{PageRead, PlannedPage, SitePlan};
use crate::docs::packed::FileTable;
use crate::search::codec::{decode, encode};
use crate::search::IndexError;

/// This crate's source, hashed at build time: results parsed by other code are never reused.
pub const READER_ID: &str = env!("DOCS_EDGE_CORE_SOURCE_HASH");

/// The version's index of its parsed pages.
pub const PARSED_INDEX_OBJECT: &str = "parsed/index.bin";

const FORMAT: u8 = 1;
const KIND_PAGE: u8 = b'P';
const KIND_INDEX: u8 = b'I';
const KIND_DIGESTS: u8 = b'D';

/// Batch `batch`'s parsed pages, beside the version.
pub fn parsed_object(batch: u32) -> String {
    format!("parsed/batch-{batch:05}.bin")
}

/// What a page's reading depends on, hashed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PageKey(pub [u8; 16]);

/// A page as reading left it: the page with its text, its warnings and its Markdown body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParsedPage {
    pub read: PageRead,
    pub body_markdown: String,
}

impl ParsedPage {
    pub fn to_bytes(&self) -> Vec<u8> {
        encode(&[FORMAT, KIND_PAGE], self)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<ParsedPage, IndexError> {
        decode(bytes, &[FORMAT, KIND_PAGE])
    }
}

/// Where one page's parsed result sits: in [`parsed_object`]`(batch)`, `len` bytes at `offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParsedEntry {
    pub key: PageKey,
    pub batch: u32,
    pub offset: u32,
    pub len: u32,
}

/// Every parsed page of a version, sorted by key.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ParsedIndex {
    entries: Vec<ParsedEntry>,
}

impl ParsedIndex {
    /// The index of `entries` (any order; of equal keys the first is kept).
    pub fn new(mut entries: Vec<ParsedEntry>) -> Self {
        crate::sort::sort_by_key(&mut entries, |e| e.key);
        entries.dedup_by_key(|e| e.key);
        ParsedIndex { entries }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        encode(&[FORMAT, KIND_INDEX], self)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<ParsedIndex, IndexError> {
        let index: ParsedIndex = decode(bytes, &[FORMAT, KIND_INDEX])?;
        if !index.entries.windows(2).all(|w| w[0].key < w[1].key) {
            return Err(IndexError::Inconsistent("parsed index order"));
        }
        Ok(index)
    }

    pub fn get(&self, key: &PageKey) -> Option<&ParsedEntry> {
        self.entries
            .binary_search_by_key(key, |e| e.key)
            .ok()
            .map(|i| &self.entries[i])
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The reads that fetch the entries of `keys` this index holds: per old batch object, one range
    /// from its first wanted entry to the end of its last (a batch's pages were written in order,
    /// so a re-publish's batch mostly wants one run of an old one).
    pub fn reads_for<'a>(&self, keys: impl IntoIterator<Item = &'a PageKey>) -> Vec<ParsedRead> {
        let mut by_batch: BTreeMap<u32, Vec<ParsedEntry>> = BTreeMap::new();
        for entry in keys.into_iter().filter_map(|k| self.get(k)) {
            by_batch.entry(entry.batch).or_default().push(*entry);
        }
        by_batch
            .into_iter()
            .map(|(batch, entries)| {
                let start = entries.iter().map(|e| e.offset).min().unwrap_or(0);
                let end = entries
                    .iter()
                    .map(|e| e.offset.saturating_add(e.len))
                    .max()
                    .unwrap_or(0);
                ParsedRead {
                    batch,
                    range: start..end,
                    entries,
                }
            })
            .collect()
    }
}

/// One ranged read of an old batch object and the entries it covers.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedRead {
    pub batch: u32,
    pub range: Range<u32>,
    pub entries: Vec<ParsedEntry>,
}

impl ParsedRead {
    /// Each covered entry's bytes out of `bytes`, the read's range; entries that fall outside
    /// (a shorter object than the index says) are left out, so they are parsed again.
    pub fn split(&self, bytes: &[u8]) -> Vec<(PageKey, Vec<u8>)> {
        self.entries
            .iter()
            .filter_map(|e| {
                let start = e.offset.checked_sub(self.range.start)? as usize;
                let piece = bytes.get(start..start.checked_add(e.len as usize)?)?;
                Some((e.key, piece.to_vec()))
            })
            .collect()
    }
}

/// Parsed results a batch may take instead of parsing, by key, still encoded.
#[derive(Debug, Default)]
pub struct Reused {
    pages: HashMap<PageKey, Vec<u8>>,
}

impl Reused {
    pub fn add(&mut self, pieces: Vec<(PageKey, Vec<u8>)>) {
        self.pages.extend(pieces);
    }

    pub fn len(&self) -> usize {
        self.pages.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// The page kept under `key` with its encoded bytes, if it decodes (a page listed twice in
    /// one place has one key, and both listings take it).
    pub(super) fn get(&self, key: &PageKey) -> Option<(ParsedPage, &[u8])> {
        let bytes = self.pages.get(key)?;
        ParsedPage::from_bytes(bytes)
            .ok()
            .map(|page| (page, bytes.as_slice()))
    }
}

/// A page's parsed result as [`ParsedPage`] encodes it, from borrowed parts (the batch goes on
/// using them).
#[derive(Serialize)]
pub(super) struct ParsedPageRef<'a> {
    pub read: &'a PageRead,
    pub body_markdown: &'a str,
}

impl ParsedPageRef<'_> {
    pub fn to_bytes(&self) -> Vec<u8> {
        encode(&[FORMAT, KIND_PAGE], self)
    }
}

/// One batch's parsed pages as they are written: the object's bytes and where each page sits.
#[derive(Debug, Default)]
pub struct ParsedWriter {
    pub bytes: Vec<u8>,
    pub entries: Vec<ParsedEntry>,
}

impl ParsedWriter {
    pub(super) fn push(&mut self, key: PageKey, batch: u32, encoded: &[u8]) {
        let (Ok(offset), Ok(len)) = (
            u32::try_from(self.bytes.len()),
            u32::try_from(encoded.len()),
        ) else {
            return;
        };
        self.bytes.extend_from_slice(encoded);
        self.entries.push(ParsedEntry {
            key,
            batch,
            offset,
            len,
        });
    }
}

/// The upload's source files' SHA-256 digests, by path, recorded as the unpack meets them
/// ([`super::SourceWriter`]), so a batch's [`page_keys`] need no read of its files
/// ([`page_keys_from_digests`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FileDigests {
    files: BTreeMap<String, [u8; 32]>,
}

impl FileDigests {
    pub fn add(&mut self, path: &str, bytes: &[u8]) {
        self.files
            .insert(path.to_owned(), Sha256::digest(bytes).into());
    }

    /// The digest recorded for `path`.
    pub fn get(&self, path: &str) -> Option<[u8; 32]> {
        self.files.get(path).copied()
    }

    /// Records `digest` for `path`: a file another version holds, its digest taken from there.
    pub fn add_digest(&mut self, path: &str, digest: [u8; 32]) {
        self.files.insert(path.to_owned(), digest);
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        encode(&[FORMAT, KIND_DIGESTS], self)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<FileDigests, IndexError> {
        decode(bytes, &[FORMAT, KIND_DIGESTS])
    }
}

/// The key of every page of batch `range`, its files in `tree` (the batch's files).
pub fn page_keys(
    plan: &SitePlan,
    range: &Range<u32>,
    table: &FileTable,
    tree: &SourceTree,
    domain: &str,
) -> Vec<PageKey> {
    let mut file_digests: HashMap<&str, [u8; 32]> = HashMap::new();
    let digest_of = |path: &str| {
        // A file the table lists but the tree lacks reads as missing: that is an input too.
        Some(tree.get(path).map_or([0; 32], |bytes| {
            *file_digests
                .entry(tree_key(tree, path))
                .or_insert_with(|| Sha256::digest(bytes).into())
        }))
    };
    keys_with(plan, range, table, domain, digest_of).unwrap_or_default()
}

/// [`page_keys`] from the digests the unpack recorded (the same keys); `None` when `digests`
/// lacks a file the batch reads (one added after the unpack: read the files instead).
pub fn page_keys_from_digests(
    plan: &SitePlan,
    range: &Range<u32>,
    table: &FileTable,
    digests: &FileDigests,
    domain: &str,
) -> Option<Vec<PageKey>> {
    let digest_of = |path: &str| match table.get(path) {
        Some(_) => digests.files.get(path).copied(),
        None => Some([0; 32]),
    };
    keys_with(plan, range, table, domain, digest_of)
}

fn keys_with(
    plan: &SitePlan,
    range: &Range<u32>,
    table: &FileTable,
    domain: &str,
    mut digest_of: impl FnMut(&str) -> Option<[u8; 32]>,
) -> Option<Vec<PageKey>> {
    let pages = plan
        .pages()
        .get(range.start as usize..range.end as usize)
        .unwrap_or(&[]);
    let svgs = table.svg_files();
    let specs = table.spec_files();
    pages
        .iter()
        .map(|page| {
            let mut hasher = Sha256::new();
            hasher.update(READER_ID.as_bytes());
            hash_field(&mut hasher, domain.as_bytes());
            hash_field(&mut hasher, &navigation_place(page));
            for path in table.needed_with(page.source_file(), &svgs, &specs) {
                let digest = digest_of(&path)?;
                hash_field(&mut hasher, path.as_bytes());
                hasher.update(digest);
            }
            let digest = hasher.finalize();
            let mut key = [0; 16];
            key.copy_from_slice(&digest[..16]);
            Some(PageKey(key))
        })
        .collect()
}

/// `path` as the tree's own key, so the digest cache borrows from the tree rather than the table.
fn tree_key<'t>(tree: &'t SourceTree, path: &str) -> &'t str {
    tree.get_key_value(path)
        .map(|(k, _)| k.as_str())
        .unwrap_or("")
}

/// Length-prefixed, so two fields can never run together into the same bytes.
fn hash_field(hasher: &mut Sha256, bytes: &[u8]) {
    hasher.update((bytes.len() as u64).to_le_bytes());
    hasher.update(bytes);
}

/// The planned page without its copy index, which moves when pages before it are added or removed
/// and only decides who reports the file's warnings (done after reading).
fn navigation_place(page: &PlannedPage) -> Vec<u8> {
    let place = PlannedPage {
        copy_of: None,
        ..page.clone()
    };
    postcard::to_allocvec(&place).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u8, batch: u32, offset: u32, len: u32) -> ParsedEntry {
        ParsedEntry {
            key: PageKey([key; 16]),
            batch,
            offset,
            len,
        }
    }

    #[test]
    fn the_index_round_trips_sorted_and_refuses_disorder() {
        let index = ParsedIndex::new(vec![
            entry(3, 0, 10, 5),
            entry(1, 0, 0, 10),
            entry(3, 1, 0, 1),
        ]);
        assert_eq!(index.len(), 2);
        let back = ParsedIndex::from_bytes(&index.to_bytes()).unwrap();
        assert_eq!(back, index);
        assert_eq!(back.get(&PageKey([3; 16])), Some(&entry(3, 0, 10, 5)));
        assert_eq!(back.get(&PageKey([2; 16])), None);

        let unsorted = ParsedIndex {
            entries: vec![entry(3, 0, 0, 1), entry(1, 0, 1, 1)],
        };
        assert!(ParsedIndex::from_bytes(&unsorted.to_bytes()).is_err());
        assert!(ParsedIndex::from_bytes(b"\x01Ixx").is_err());
    }

    #[test]
    fn reads_cover_each_old_batch_once_and_split_back_into_pages() {
        let index = ParsedIndex::new(vec![
            entry(1, 0, 0, 4),
            entry(2, 0, 4, 3),
            entry(3, 2, 100, 2),
            entry(4, 0, 7, 1),
        ]);
        let keys = [
            PageKey([2; 16]),
            PageKey([3; 16]),
            PageKey([4; 16]),
            PageKey([9; 16]),
        ];
        let reads = index.reads_for(&keys);
        assert_eq!(
            reads
                .iter()
                .map(|r| (r.batch, r.range.clone()))
                .collect::<Vec<_>>(),
            vec![(0, 4..8), (2, 100..102)]
        );
        let pieces = reads[0].split(b"BBBC");
        assert_eq!(
            pieces,
            vec![
                (PageKey([2; 16]), b"BBB".to_vec()),
                (PageKey([4; 16]), b"C".to_vec())
            ]
        );
        // A short object: the entry past its end is left to be parsed again.
        assert_eq!(reads[0].split(b"BB"), vec![]);
    }

    #[test]
    fn reused_bytes_that_do_not_decode_are_not_taken() {
        let mut reused = Reused::default();
        reused.add(vec![(PageKey([1; 16]), b"garbage".to_vec())]);
        assert!(reused.get(&PageKey([1; 16])).is_none());
        assert!(reused.get(&PageKey([2; 16])).is_none());
    }
}
