//! Splitting a built index into meta, term shards and text blocks, at publish (or once for a
//! version published before the split existed). Deterministic: the same index gives the same bytes,
//! so two isolates converting one old version at once write the same objects.

use super::super::codec::IndexError;
use super::super::dict::Dict;
use super::super::index::SearchIndex;
use super::blocks::{BlockChunk, BlockData, TextBlock};
use super::meta::{MetaData, SearchMeta, MAX_SHARDS};
use super::terms::{shard_of, ShardData, TermShard};

/// Dictionary and postings bytes per term shard: a query reads one per distinct term. On the fixture
/// (2.3 MB of dictionary) 16 KiB gives 162 shards, median 13 KiB; 32 KiB doubled what a query reads.
pub(crate) const TARGET_SHARD_BYTES: usize = 16 << 10;
/// Stored text per block. A search reads up to one block per hit (ten hits, ten blocks at worst), a
/// page its own (adjacent, so one ranged read). Smaller blocks read less per hit at the same number
/// of reads: on the fixture a typical query reads about 110 KiB at 8 KiB, 210 KiB at 16 KiB.
pub(crate) const TARGET_BLOCK_BYTES: usize = 8 << 10;

/// The three objects a publish stores.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardedIndex {
    /// The [`SearchMeta`] bytes.
    pub meta: Vec<u8>,
    /// Every [`TermShard`]'s bytes, concatenated in shard order.
    pub terms: Vec<u8>,
    /// Every [`TextBlock`]'s bytes, concatenated in block order.
    pub text: Vec<u8>,
}

impl ShardedIndex {
    /// Splits `index`. Fails only for an index whose pages do not own consecutive chunk ranges in
    /// order, which [`SearchIndex::build`] never makes.
    pub fn build(index: &SearchIndex) -> Result<ShardedIndex, IndexError> {
        let d = &index.data;
        for (i, chunk) in d.chunks.iter().enumerate() {
            let page = d.pages.get(chunk.page as usize).ok_or(IndexError::Inconsistent("chunk page"))?;
            if !(page.first_chunk as usize..(page.first_chunk + page.chunk_count) as usize).contains(&i) {
                return Err(IndexError::Inconsistent("page chunk range"));
            }
        }
        let (terms, shard_ends) = term_pack(index.dict());
        let (text, block_starts, block_ends) = text_pack(index);
        let data = MetaData {
            pages: d.pages.clone(),
            heading_len: d.chunks.iter().map(|c| c.heading_len).collect(),
            text_len: d.chunks.iter().map(|c| c.text_len).collect(),
            avg_len: d.avg_len,
            shard_ends,
            block_starts,
            block_ends,
        };
        // Through the loader's checks, so a split that would not load fails here, at publish.
        let meta = SearchMeta::new(data)?;
        Ok(ShardedIndex { meta: meta.to_bytes(), terms, text })
    }
}

/// Number of shards for a dictionary of `bytes`.
fn shard_count(bytes: usize) -> u32 {
    (bytes.div_ceil(TARGET_SHARD_BYTES) as u32).clamp(1, MAX_SHARDS)
}

fn term_pack(dict: Dict<'_>) -> (Vec<u8>, Vec<u64>) {
    let n_terms = dict.term_ends.len();
    let count = shard_count(dict.terms.len() + dict.postings.len() + n_terms * 12);
    let mut shards: Vec<ShardData> = (0..count).map(|id| ShardData { id, ..ShardData::default() }).collect();
    // Terms arrive sorted, so each shard's stay sorted.
    for i in 0..n_terms {
        let Some(term) = dict.term_at(i) else { continue };
        let Some(shard) = shards.get_mut(shard_of(term, count) as usize) else { continue };
        let start = if i == 0 { 0 } else { dict.posting_ends.get(i - 1).copied().unwrap_or(0) as usize };
        let end = dict.posting_ends.get(i).copied().unwrap_or(0) as usize;
        let postings = dict.postings.get(start..end).unwrap_or(&[]);
        shard.table.push(term, dict.dfs.get(i).copied().unwrap_or(0), |out| out.extend_from_slice(postings));
    }
    let mut pack = Vec::new();
    let mut ends = Vec::with_capacity(shards.len());
    for data in shards {
        pack.extend(TermShard { data }.to_bytes());
        ends.push(pack.len() as u64);
    }
    (pack, ends)
}

fn text_pack(index: &SearchIndex) -> (Vec<u8>, Vec<u32>, Vec<u64>) {
    let chunks = &index.data.chunks;
    let mut pack = Vec::new();
    let mut starts = Vec::new();
    let mut ends = Vec::new();
    let mut block: Vec<BlockChunk> = Vec::new();
    let mut first = 0u32;
    let mut size = 0usize;
    let mut flush = |block: &mut Vec<BlockChunk>, first: u32| {
        let id = starts.len() as u32;
        starts.push(first);
        let chunks = std::mem::take(block);
        pack.extend(TextBlock { data: BlockData { id, first_chunk: first, chunks } }.to_bytes());
        ends.push(pack.len() as u64);
    };
    for (i, chunk) in chunks.iter().enumerate() {
        if size >= TARGET_BLOCK_BYTES {
            flush(&mut block, first);
            first = i as u32;
            size = 0;
        }
        size += chunk.heading.len() + chunk.anchor.len() + chunk.text.len();
        block.push(BlockChunk {
            heading: chunk.heading.clone(),
            anchor: chunk.anchor.clone(),
            level: chunk.level,
            continued: chunk.continued,
            text: chunk.text.clone(),
        });
    }
    if !block.is_empty() {
        flush(&mut block, first);
    }
    (pack, starts, ends)
}
