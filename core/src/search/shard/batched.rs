//! The split index built a batch of pages at a time, so a publish never holds the whole index: the
//! same three objects [`ShardedIndex::build_with_shards`](super::ShardedIndex::build_with_shards)
//! makes from the whole [`SearchIndex`](super::super::SearchIndex), byte for byte.
//!
//! 1. Before the first batch the number of term shards is fixed from the size of the pages' source
//!    ([`ShardLayout::for_source_bytes`]): the whole build derives it from the finished dictionary,
//!    which no batch sees. Shards are cut into a few **groups** of consecutive shards.
//! 2. Each batch ([`build_batch`]) numbers its pages, chunks and text blocks from where the previous
//!    batch stopped ([`BatchCursor`]), and writes: its **partial postings** (every shard's terms of
//!    this batch, each shard a length-prefixed [`TermShard`](super::TermShard), so a group is one
//!    byte range: [`BatchOutput::group_ends`]), its **text blocks** (the last one cut at the batch's
//!    end), and its **records** (page metadata, chunk field lengths, block starts, block ends
//!    counted from the batch's own text, field length totals) for the meta. So a batch's bytes
//!    depend only on its pages and the three numbers it starts from, never on the text of the
//!    batches before it: a re-publish takes a batch whose pages and numbers did not change whole.
//! 3. Each group is merged ([`merge_group`]) from every batch's range of it, in batch order: a term's
//!    postings are the concatenation of its batches' lists (page numbers only grow), its document
//!    frequency their sum. The groups' bytes, in order, are the terms pack.
//! 4. [`MetaBuilder`] folds the records, in batch order, with the shard ends into the meta.
//!
//! The whole build cuts the text blocks where the batches ended
//! ([`ShardedIndex::build_with_cuts`](super::ShardedIndex::build_with_cuts)) to give the same bytes.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::super::codec::{decode, encode, IndexError};
use super::super::index::{average_lengths, embed_chunks, Builder, PageMeta};
use super::super::postings::{self, PagePosting};
use super::super::semantic::{ChunkVectors, StaticModel};
use super::blocks::BlockChunk;
use super::build::{shard_count, term_pack, BlockCutter, BlockOut};
use super::meta::{MetaData, SearchMeta, MAX_SHARDS};
use super::terms::{ShardData, TermShard};
use super::{KIND_TERMS, SHARD_FORMAT_VERSION};
use crate::docs::Page;

/// Dictionary bytes (terms and postings) per byte of page source, measured on the fixture (0.27 at
/// 1 copy, 0.24 at 40) and rounded up: more shards than the whole build would pick only makes
/// each smaller.
const DICT_BYTES_PER_SOURCE_BYTE: f64 = 0.3;
/// Merged term bytes per group: what one merge step holds, with its inputs.
const TARGET_GROUP_BYTES: u64 = 2 << 20;

const KIND_RECORDS: u8 = b'R';

/// How the terms are split, fixed before the first batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardLayout {
    pub shard_count: u32,
    /// Shards per group (the last group may have fewer).
    pub group_shards: u32,
}

impl ShardLayout {
    /// The layout for a site whose pages' source files total `bytes`.
    pub fn for_source_bytes(bytes: u64) -> ShardLayout {
        let dict = (bytes as f64 * DICT_BYTES_PER_SOURCE_BYTE) as u64;
        let shard_count = shard_count(usize::try_from(dict).unwrap_or(usize::MAX));
        let groups = dict
            .div_ceil(TARGET_GROUP_BYTES)
            .clamp(1, u64::from(shard_count)) as u32;
        ShardLayout {
            shard_count,
            group_shards: shard_count.div_ceil(groups),
        }
    }

    pub fn group_count(&self) -> u32 {
        self.shard_count.div_ceil(self.group_shards.max(1))
    }

    /// The shards of group `group`.
    pub fn group(&self, group: u32) -> Range<u32> {
        let start = group
            .saturating_mul(self.group_shards)
            .min(self.shard_count);
        start
            ..start
                .saturating_add(self.group_shards)
                .min(self.shard_count)
    }

    fn valid(&self) -> bool {
        (1..=MAX_SHARDS).contains(&self.shard_count) && self.group_shards >= 1
    }
}

/// Where the next batch starts: its first page, chunk and text block numbers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchCursor {
    pub pages: u32,
    pub chunks: u32,
    pub blocks: u32,
}

impl BatchCursor {
    /// Moves past a batch whose records are `records` (one built from where this cursor stands).
    pub fn advance(&mut self, records: &BatchRecords) {
        self.pages += records.pages.len() as u32;
        self.chunks += records.heading_len.len() as u32;
        self.blocks += records.block_starts.len() as u32;
    }
}

/// What one batch writes.
#[derive(Debug)]
pub struct BatchOutput {
    /// Every shard's terms of this batch, shard order, each `u32` little-endian length + shard bytes.
    pub postings: Vec<u8>,
    /// End of each group in `postings` (group `g` starts where `g - 1` ends).
    pub group_ends: Vec<u64>,
    /// The batch's text blocks: the next bytes of the text pack.
    pub text: Vec<u8>,
    pub records: BatchRecords,
}

/// A batch's share of the meta.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BatchRecords {
    pages: Vec<PageMeta>,
    heading_len: Vec<u32>,
    text_len: Vec<u32>,
    block_starts: Vec<u32>,
    /// Counted from the start of the batch's text.
    block_ends: Vec<u64>,
    totals: [u64; 3],
    non_empty: [u64; 3],
    /// The batch's chunk vectors, when the publish had the semantic stage's model.
    vectors: Option<ChunkVectors>,
}

impl BatchRecords {
    /// The bytes of the batch's text blocks.
    pub fn text_len(&self) -> u64 {
        self.block_ends.last().copied().unwrap_or(0)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        encode(&[SHARD_FORMAT_VERSION, KIND_RECORDS], self)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<BatchRecords, IndexError> {
        decode(bytes, &[SHARD_FORMAT_VERSION, KIND_RECORDS])
    }
}

/// Indexes the next batch of pages.
pub fn build_batch(
    pages: &[Page],
    cursor: &mut BatchCursor,
    layout: &ShardLayout,
    model: Option<&StaticModel>,
) -> Result<BatchOutput, IndexError> {
    if !layout.valid() {
        return Err(IndexError::Inconsistent("shard layout"));
    }
    let mut builder = Builder::starting_at(cursor.pages, cursor.chunks);
    for page in pages {
        builder.add_page(page);
    }
    let (data, totals, non_empty) = builder.finish_parts();
    let (pack, shard_ends) = term_pack(
        &data,
        cursor.pages,
        cursor.chunks,
        layout.shard_count,
        false,
    );
    let mut postings = Vec::with_capacity(pack.len() + shard_ends.len() * 4);
    let mut group_ends = Vec::with_capacity(layout.group_count() as usize);
    let mut start = 0usize;
    for (shard, &end) in shard_ends.iter().enumerate() {
        let bytes = pack
            .get(start..end as usize)
            .ok_or(IndexError::Inconsistent("shard ends"))?;
        postings.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        postings.extend_from_slice(bytes);
        start = end as usize;
        let shard = shard as u32 + 1;
        if shard.is_multiple_of(layout.group_shards) || shard == layout.shard_count {
            group_ends.push(postings.len() as u64);
        }
    }
    drop(pack);

    let mut out = BlockOut::default();
    let mut cutter = BlockCutter::starting_at(cursor.blocks, cursor.chunks);
    for (i, chunk) in data.chunks.iter().enumerate() {
        cutter.push(cursor.chunks + i as u32, BlockChunk::of(chunk), &mut out);
    }
    cutter.finish(&mut out);
    let vectors = model.map(|m| embed_chunks(m, &data.pages, cursor.pages, &data.chunks));
    let records = BatchRecords {
        vectors,
        heading_len: data.chunks.iter().map(|c| c.heading_len).collect(),
        text_len: data.chunks.iter().map(|c| c.text_len).collect(),
        pages: data.pages,
        block_starts: out.starts,
        block_ends: out.ends,
        totals,
        non_empty,
    };
    cursor.advance(&records);
    Ok(BatchOutput {
        postings,
        group_ends,
        text: out.pack,
        records,
    })
}

/// One merged group: its shards' bytes, in order (the next bytes of the terms pack), and each
/// shard's length.
#[derive(Debug)]
pub struct MergedGroup {
    pub bytes: Vec<u8>,
    pub shard_lens: Vec<u64>,
}

/// Merges group `group` from every batch's range of it (`parts`, in batch order); `chunk_count` is
/// the site's, for the loader's checks of the result.
pub fn merge_group(
    layout: &ShardLayout,
    group: u32,
    parts: &[impl AsRef<[u8]>],
    chunk_count: usize,
) -> Result<MergedGroup, IndexError> {
    let shards = layout.group(group);
    let mut readers: Vec<&[u8]> = parts.iter().map(AsRef::as_ref).collect();
    let mut bytes = Vec::new();
    let mut shard_lens = Vec::with_capacity(shards.len());
    for id in shards {
        let mut pieces = Vec::with_capacity(readers.len());
        for reader in &mut readers {
            pieces.push(next_segment(reader, id)?);
        }
        let shard = merge_shard(id, &pieces);
        let encoded = shard.to_bytes();
        // Through the loader's checks, so a merge that would not load fails here, at publish.
        TermShard::from_bytes(&encoded, id, layout.shard_count, chunk_count)?;
        shard_lens.push(encoded.len() as u64);
        bytes.extend(encoded);
    }
    if readers.iter().any(|r| !r.is_empty()) {
        return Err(IndexError::TrailingBytes);
    }
    Ok(MergedGroup { bytes, shard_lens })
}

fn next_segment(reader: &mut &[u8], id: u32) -> Result<ShardData, IndexError> {
    let (len, rest) = reader
        .split_first_chunk::<4>()
        .ok_or(IndexError::Inconsistent("partial postings"))?;
    let len = u32::from_le_bytes(*len) as usize;
    let body = rest
        .get(..len)
        .ok_or(IndexError::Inconsistent("partial postings"))?;
    *reader = &rest[len..];
    let data: ShardData = decode(body, &[SHARD_FORMAT_VERSION, KIND_TERMS])?;
    if data.id != id {
        return Err(IndexError::Inconsistent("partial postings shard"));
    }
    Ok(data)
}

/// One shard from its batches' pieces: terms in order, postings concatenated in batch order.
fn merge_shard(id: u32, pieces: &[ShardData]) -> TermShard {
    let mut entries: Vec<(&str, usize, usize)> = Vec::new();
    for (b, piece) in pieces.iter().enumerate() {
        let dict = TermShard::dict_of(piece);
        for i in 0..piece.table.term_ends.len() {
            if let Some(term) = dict.term_at(i) {
                entries.push((term, b, i));
            }
        }
    }
    // Stable: one term's pieces stay in batch order. std's sort, not crate::sort: publishing sorts every
    // term's pieces, where the shared sort is about twice as slow.
    entries.sort_by(|a, b| a.0.cmp(b.0));
    let mut data = ShardData {
        id,
        ..ShardData::default()
    };
    let mut list: Vec<PagePosting> = Vec::new();
    let mut df = 0u32;
    let mut current: Option<&str> = None;
    let flush = |data: &mut ShardData, term: &str, list: &mut Vec<PagePosting>, df: u32| {
        data.table
            .push(term, df, |blob| postings::encode_paged(list, blob));
        list.clear();
    };
    for (term, b, i) in entries {
        if current.is_some_and(|c| c != term) {
            if let Some(done) = current {
                flush(&mut data, done, &mut list, df);
            }
            df = 0;
        }
        current = Some(term);
        let piece = TermShard::dict_of(&pieces[b]);
        list.extend(postings::PagedDecoder::new(piece.postings_bytes(i)));
        df += piece.dfs.get(i).copied().unwrap_or(0);
    }
    if let Some(done) = current {
        flush(&mut data, done, &mut list, df);
    }
    TermShard { data }
}

/// Folds batch records, in batch order, into the meta.
#[derive(Debug, Default)]
pub struct MetaBuilder {
    data: Option<MetaData>,
    totals: [u64; 3],
    non_empty: [u64; 3],
    /// Text pack bytes of the batches added so far.
    text_len: u64,
    /// Every batch's vectors so far; `None` once a batch had none (the meta then has none).
    vectors: Option<ChunkVectors>,
    batches: usize,
}

impl MetaBuilder {
    pub fn add(&mut self, records: BatchRecords) {
        let data = self.data.get_or_insert_with(|| MetaData {
            pages: Vec::new(),
            heading_len: Vec::new(),
            text_len: Vec::new(),
            avg_len: [0.0; 3],
            shard_ends: Vec::new(),
            block_starts: Vec::new(),
            block_ends: Vec::new(),
        });
        self.vectors = match (self.batches, self.vectors.take(), records.vectors) {
            (0, _, first) => first,
            (_, Some(mut all), Some(next)) => all.append(next).then_some(all),
            _ => None,
        };
        self.batches += 1;
        data.pages.extend(records.pages);
        data.heading_len.extend(records.heading_len);
        data.text_len.extend(records.text_len);
        data.block_starts.extend(records.block_starts);
        let base = self.text_len;
        data.block_ends
            .extend(records.block_ends.iter().map(|end| base + end));
        self.text_len += records.block_ends.last().copied().unwrap_or(0);
        for f in 0..3 {
            self.totals[f] += records.totals[f];
            self.non_empty[f] += records.non_empty[f];
        }
    }

    /// The meta bytes, given every shard's length in the terms pack, in shard order.
    pub fn finish(self, shard_lens: &[u64]) -> Result<Vec<u8>, IndexError> {
        let mut data = self.data.ok_or(IndexError::Empty)?;
        data.avg_len = average_lengths(self.totals, self.non_empty);
        let mut end = 0u64;
        data.shard_ends = shard_lens
            .iter()
            .map(|len| {
                end += len;
                end
            })
            .collect();
        Ok(SearchMeta::new(data)?
            .with_vectors(self.vectors)?
            .to_bytes())
    }
}
