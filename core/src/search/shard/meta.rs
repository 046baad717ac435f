//! The one object a site's queries always need: page metadata and the global statistics scoring uses
//! (field lengths per chunk, average lengths), and the map from shard and block numbers to byte ranges
//! in the packs. Small next to the index: no terms, no postings, no text.
//!
//! Stored, every position is a length ([`stored`]): a page's chunk count, not its first chunk; a
//! shard's or a block's bytes, not where it ends. So an edit of one page changes the numbers of that
//! page, its chunks and the shards and blocks it touched, and leaves the rest of the bytes as they
//! were, which is what a mirror of the pack fetches ([`crate::export::delta`]).

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::super::codec::{
    check_avg_len, decode_head, decode_rest, decode_with_tail, encode_with_tail, IndexError,
};
use super::super::dict::check_ends;
use super::super::index::{find_page, searchable_chunks, sorted_by_path, PageMeta};
use super::super::page::normalize_path;
use super::super::query::{ChunkStats, Ranked, MAX_QUERY_TERMS};
use super::super::semantic::ChunkVectors;
use super::super::tokenize::query_terms;
use super::terms::shard_of;
use super::{KIND_META, SHARD_FORMAT_VERSION};

/// At most this many term shards, whatever the site's size (1,024 shards of 32 KiB is 32 MiB of
/// postings, several times the largest site a publish can build within an isolate's memory).
pub(crate) const MAX_SHARDS: u32 = 1024;

/// What is serialised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct MetaData {
    pub pages: Vec<PageMeta>,
    /// Per chunk, in chunk order.
    pub heading_len: Vec<u32>,
    pub text_len: Vec<u32>,
    pub avg_len: [f32; 3],
    /// Term shard `i` ends at byte `shard_ends[i]` of the terms pack; there are `shard_ends.len()`.
    pub shard_ends: Vec<u64>,
    /// First chunk of each text block; block `i` holds chunks up to the next block's first.
    pub block_starts: Vec<u32>,
    /// Text block `i` ends at byte `block_ends[i]` of the text pack.
    pub block_ends: Vec<u64>,
}

/// A loaded meta object.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchMeta {
    pub(crate) data: MetaData,
    /// Page of each chunk, derived: pages own consecutive chunk ranges in page order.
    pub(crate) chunk_page: Vec<u32>,
    /// Derived: each page's first chunk, then the chunk count (what paged postings map through).
    pub(crate) page_starts: Vec<u32>,
    pub(crate) by_path: Vec<u32>,
    /// Derived: `index::searchable_chunks`.
    pub(crate) searchable_chunks: usize,
    /// The semantic stage's chunk vectors, stored after the data (a meta stored before them loads
    /// without).
    pub(crate) vectors: Option<ChunkVectors>,
    /// Where the vectors sit in the stored object, when it was read without them
    /// ([`SearchMeta::from_bytes_without_vectors`]).
    vectors_at: Option<Range<u64>>,
}

impl SearchMeta {
    pub(crate) fn new(data: MetaData) -> Result<SearchMeta, IndexError> {
        use IndexError::Inconsistent;
        let n_chunks = data.heading_len.len();
        if data.text_len.len() != n_chunks {
            return Err(Inconsistent("chunk lengths"));
        }
        let mut chunk_page = Vec::with_capacity(n_chunks);
        for (i, page) in data.pages.iter().enumerate() {
            if page.first_chunk as usize != chunk_page.len() {
                return Err(Inconsistent("page chunk range"));
            }
            let end = chunk_page.len() as u64 + u64::from(page.chunk_count);
            if end > n_chunks as u64 {
                return Err(Inconsistent("page chunk range"));
            }
            chunk_page.resize(end as usize, i as u32);
        }
        if chunk_page.len() != n_chunks {
            return Err(Inconsistent("chunks without a page"));
        }
        let page_starts: Vec<u32> = data
            .pages
            .iter()
            .map(|p| p.first_chunk)
            .chain([n_chunks as u32])
            .collect();
        check_avg_len(data.avg_len)?;
        let shards = data.shard_ends.len();
        if shards == 0 || shards > MAX_SHARDS as usize {
            return Err(Inconsistent("shard count"));
        }
        // Packs stay far below 4 GiB (a publish fits in one isolate); larger offsets are corruption.
        check_ends(&data.shard_ends, u32::MAX as usize).ok_or(Inconsistent("shard offsets"))?;
        check_ends(&data.block_ends, u32::MAX as usize).ok_or(Inconsistent("block offsets"))?;
        let starts = &data.block_starts;
        if starts.len() != data.block_ends.len()
            || starts.first().is_some_and(|&s| s != 0)
            || (n_chunks > 0 && starts.is_empty())
            || starts.windows(2).any(|w| w[0] >= w[1])
            || starts.last().is_some_and(|&s| s as usize >= n_chunks)
        {
            return Err(Inconsistent("block starts"));
        }
        let by_path = sorted_by_path(&data.pages);
        let lens = data
            .heading_len
            .iter()
            .zip(&data.text_len)
            .map(|(h, t)| h + t);
        let searchable_chunks =
            searchable_chunks(&data.pages, chunk_page.iter().copied().zip(lens));
        Ok(SearchMeta {
            data,
            chunk_page,
            page_starts,
            by_path,
            searchable_chunks,
            vectors: None,
            vectors_at: None,
        })
    }

    /// The meta with the chunks' vectors, one per chunk.
    pub(crate) fn with_vectors(
        mut self,
        vectors: Option<ChunkVectors>,
    ) -> Result<SearchMeta, IndexError> {
        if let Some(v) = &vectors {
            if v.len() != self.chunk_count() || !v.is_consistent() {
                return Err(IndexError::Inconsistent("chunk vectors"));
            }
        }
        self.vectors = vectors;
        Ok(self)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        encode_with_tail(
            &[SHARD_FORMAT_VERSION, KIND_META],
            &stored(&self.data),
            self.vectors.as_ref(),
        )
    }

    /// Loads and checks every count and offset, so corrupt bytes are an error here, not a panic later.
    pub fn from_bytes(bytes: &[u8]) -> Result<SearchMeta, IndexError> {
        let (data, vectors) = decode_with_tail(bytes, &[SHARD_FORMAT_VERSION, KIND_META])?;
        SearchMeta::new(restored(data).ok_or(IndexError::Inconsistent("stored lengths"))?)?
            .with_vectors(vectors)
    }

    /// [`SearchMeta::from_bytes`] but for the chunk vectors, which only a search by meaning reads
    /// (about 70 bytes a chunk, several times the rest at 10,000 pages): an isolate holds them only
    /// when such a search comes, read from [`SearchMeta::vectors_range`] of the same object.
    pub fn from_bytes_without_vectors(bytes: &[u8]) -> Result<SearchMeta, IndexError> {
        let (data, tail) = decode_head(bytes, &[SHARD_FORMAT_VERSION, KIND_META])?;
        let mut meta =
            SearchMeta::new(restored(data).ok_or(IndexError::Inconsistent("stored lengths"))?)?;
        meta.vectors_at = (tail < bytes.len()).then_some(tail as u64..bytes.len() as u64);
        Ok(meta)
    }

    /// The byte range of the stored object that holds the chunk vectors, for a meta read without them.
    pub fn vectors_range(&self) -> Option<Range<u64>> {
        self.vectors_at.clone()
    }

    /// The chunk vectors from the bytes at [`SearchMeta::vectors_range`], checked against this meta.
    pub fn vectors_from(&self, bytes: &[u8]) -> Result<ChunkVectors, IndexError> {
        let vectors: ChunkVectors = decode_rest(bytes)?;
        if vectors.len() != self.chunk_count() || !vectors.is_consistent() {
            return Err(IndexError::Inconsistent("chunk vectors"));
        }
        Ok(vectors)
    }

    /// The site's chunks have vectors: a query embedded by the semantic stage's model fuses them.
    pub fn has_vectors(&self) -> bool {
        self.vectors.is_some() || self.vectors_at.is_some()
    }

    pub fn page_count(&self) -> usize {
        self.data.pages.len()
    }

    pub fn chunk_count(&self) -> usize {
        self.chunk_page.len()
    }

    pub fn shard_count(&self) -> u32 {
        self.data.shard_ends.len() as u32
    }

    pub fn block_count(&self) -> u32 {
        self.data.block_starts.len() as u32
    }

    /// Term shards the query's terms live in, ascending, each once.
    pub fn shards_for(&self, query_text: &str) -> Vec<u32> {
        let mut ids: Vec<u32> = query_terms(query_text, MAX_QUERY_TERMS)
            .iter()
            .map(|t| shard_of(t, self.shard_count()))
            .collect();
        crate::sort::sort(&mut ids);
        ids.dedup();
        ids
    }

    /// Byte range of term shard `id` in the terms pack.
    pub fn shard_range(&self, id: u32) -> Option<Range<u64>> {
        pack_range(&self.data.shard_ends, id)
    }

    /// Byte range of text block `id` in the text pack.
    pub fn block_range(&self, id: u32) -> Option<Range<u64>> {
        pack_range(&self.data.block_ends, id)
    }

    /// Text blocks holding the ranked chunks (as [`score`](super::score) returns them), ascending,
    /// each once.
    pub fn blocks_for(&self, ranked: &[Ranked]) -> Vec<u32> {
        let mut ids: Vec<u32> = ranked
            .iter()
            .filter_map(|r| self.block_of(r.chunk))
            .collect();
        crate::sort::sort(&mut ids);
        ids.dedup();
        ids
    }

    /// The page at `path` (as [`SearchIndex::page`](super::super::SearchIndex::page) accepts it) and
    /// the text blocks holding its chunks, ascending.
    pub fn page_blocks(&self, path: &str) -> Option<(u32, Vec<u32>)> {
        let page = find_page(&self.data.pages, &self.by_path, normalize_path(path))?;
        let meta = self.data.pages.get(page as usize)?;
        let first = self.block_of(meta.first_chunk);
        let last = self.block_of((meta.first_chunk + meta.chunk_count).saturating_sub(1));
        let blocks = match (first, last) {
            (Some(a), Some(b)) if meta.chunk_count > 0 => (a..=b).collect(),
            _ => Vec::new(),
        };
        Some((page, blocks))
    }

    /// The block holding chunk `c`.
    pub(crate) fn block_of(&self, c: u32) -> Option<u32> {
        if c as usize >= self.chunk_count() {
            return None;
        }
        let after = self.data.block_starts.partition_point(|&s| s <= c);
        after.checked_sub(1).map(|b| b as u32)
    }

    /// Chunks of block `id`.
    pub(crate) fn block_chunks(&self, id: u32) -> Option<Range<u32>> {
        let start = *self.data.block_starts.get(id as usize)?;
        let end = self
            .data
            .block_starts
            .get(id as usize + 1)
            .copied()
            .unwrap_or(self.chunk_count() as u32);
        Some(start..end)
    }

    pub(crate) fn pages(&self) -> &[PageMeta] {
        &self.data.pages
    }

    pub(crate) fn chunk_stats(&self, c: usize) -> Option<ChunkStats> {
        Some(ChunkStats {
            page: *self.chunk_page.get(c)?,
            heading_len: *self.data.heading_len.get(c)?,
            text_len: *self.data.text_len.get(c)?,
        })
    }

    /// About what this holds on the heap, for a byte-bounded cache.
    pub fn heap_bytes(&self) -> usize {
        let d = &self.data;
        let strings: usize = d
            .pages
            .iter()
            .map(|p| {
                p.path.len()
                    + p.title.len()
                    + p.sidebar_title.as_ref().map_or(0, String::len)
                    + p.language.len()
                    + p.version.as_ref().map_or(0, String::len)
                    + p.tab.as_ref().map_or(0, String::len)
                    + p.groups.iter().map(|g| g.len() + 24).sum::<usize>()
            })
            .sum();
        let u32s = d.heading_len.len()
            + d.text_len.len()
            + d.block_starts.len()
            + self.chunk_page.len()
            + self.by_path.len();
        std::mem::size_of::<SearchMeta>()
            + d.pages.len() * std::mem::size_of::<PageMeta>()
            + strings
            + (u32s + self.page_starts.len()) * 4
            + (d.shard_ends.len() + d.block_ends.len()) * 8
            + self.vectors.as_ref().map_or(0, ChunkVectors::heap_bytes)
    }
}

/// `data` as stored: pages without their first chunk (their chunk counts give it), and the block
/// starts, block ends and shard ends as differences from the one before.
fn stored(data: &MetaData) -> MetaData {
    let mut out = data.clone();
    for page in &mut out.pages {
        page.first_chunk = 0;
    }
    out.block_starts = differences(&data.block_starts);
    out.block_ends = differences(&data.block_ends);
    out.shard_ends = differences(&data.shard_ends);
    out
}

/// The inverse of [`stored`]; sums that overflow are corrupt.
fn restored(mut data: MetaData) -> Option<MetaData> {
    let mut chunk = 0u32;
    for page in &mut data.pages {
        page.first_chunk = chunk;
        chunk = chunk.checked_add(page.chunk_count)?;
    }
    sums(&mut data.block_starts)?;
    sums(&mut data.block_ends)?;
    sums(&mut data.shard_ends)?;
    Some(data)
}

fn differences<T: Copy + Into<u64> + TryFrom<u64>>(ends: &[T]) -> Vec<T> {
    let mut prev = 0u64;
    ends.iter()
        .map(|&end| {
            let e: u64 = end.into();
            // Validated positions never decrease, so the difference fits where the position did.
            let d = T::try_from(e.saturating_sub(prev)).unwrap_or(end);
            prev = e;
            d
        })
        .collect()
}

fn sums<T: Copy + Into<u64> + TryFrom<u64>>(lengths: &mut [T]) -> Option<()> {
    let mut total = 0u64;
    for v in lengths {
        total = total.checked_add((*v).into())?;
        *v = T::try_from(total).ok()?;
    }
    Some(())
}

fn pack_range(ends: &[u64], id: u32) -> Option<Range<u64>> {
    let end = *ends.get(id as usize)?;
    let start = match id.checked_sub(1) {
        None => 0,
        Some(prev) => *ends.get(prev as usize)?,
    };
    Some(start..end)
}
