//! Splitting a built index into meta, term shards and text blocks, at publish (or once for a
//! version published before the split existed). Deterministic: the same index gives the same bytes,
//! so two isolates converting one old version at once write the same objects.

use super::super::codec::IndexError;
use super::super::postings::{self, PagePosting};

use super::super::index::{ChunkMeta, IndexData, SearchIndex};
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
        let dict = index.dict();
        Self::build_with_shards(
            index,
            shard_count(dict.terms.len() + dict.postings.len() + dict.term_ends.len() * 12),
        )
    }

    /// Splits `index` into `shards` term shards (clamped to 1..=[`MAX_SHARDS`]). A batched publish
    /// picks the number before the dictionary exists, from the source size (`super::batched`).
    pub fn build_with_shards(index: &SearchIndex, shards: u32) -> Result<ShardedIndex, IndexError> {
        Self::build_with_cuts(index, shards, &[])
    }

    /// [`Self::build_with_shards`] with a text block also ending before each chunk of `cuts`
    /// (ascending): a batched publish ends a block where each batch ends (`super::batched`).
    pub fn build_with_cuts(
        index: &SearchIndex,
        shards: u32,
        cuts: &[u32],
    ) -> Result<ShardedIndex, IndexError> {
        let d = &index.data;
        for (i, chunk) in d.chunks.iter().enumerate() {
            let page = d
                .pages
                .get(chunk.page as usize)
                .ok_or(IndexError::Inconsistent("chunk page"))?;
            if !(page.first_chunk as usize..(page.first_chunk + page.chunk_count) as usize)
                .contains(&i)
            {
                return Err(IndexError::Inconsistent("page chunk range"));
            }
        }
        let (terms, shard_ends) = term_pack(d, 0, 0, shards.clamp(1, MAX_SHARDS), true);
        let (text, block_starts, block_ends) = text_pack(index, cuts);
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
        let meta = SearchMeta::new(data)?.with_vectors(index.vectors.clone())?;
        Ok(ShardedIndex {
            meta: meta.to_bytes(),
            terms,
            text,
        })
    }
}

/// Number of shards for a dictionary of `bytes`.
pub(crate) fn shard_count(bytes: usize) -> u32 {
    (bytes.div_ceil(TARGET_SHARD_BYTES) as u32).clamp(1, MAX_SHARDS)
}

/// The term shards of `data`, whose first page and chunk are numbered `page_base` and `chunk_base`
/// (a batch's, or 0 for a whole index), its postings written by page; each shard as the pack holds
/// it when `marked`, else its data alone (a batch's partial postings).
pub(crate) fn term_pack(
    data: &IndexData,
    page_base: u32,
    chunk_base: u32,
    count: u32,
    marked: bool,
) -> (Vec<u8>, Vec<u64>) {
    let dict = data.dict();
    let n_terms = dict.term_ends.len();
    // Chunk `c` is at place `c - first` of its page.
    let place = |chunk: u32| -> Option<PagePosting> {
        let page = data
            .chunks
            .get(chunk.checked_sub(chunk_base)? as usize)?
            .page;
        let first = data
            .pages
            .get(page.checked_sub(page_base)? as usize)?
            .first_chunk;
        Some(PagePosting {
            page,
            local: chunk.checked_sub(first)?,
            tf: [0; 3],
        })
    };
    let mut list: Vec<PagePosting> = Vec::new();
    let mut shards: Vec<ShardData> = (0..count)
        .map(|id| ShardData {
            id,
            ..ShardData::default()
        })
        .collect();
    // Terms arrive sorted, so each shard's stay sorted.
    for i in 0..n_terms {
        let Some(term) = dict.term_at(i) else {
            continue;
        };
        let Some(shard) = shards.get_mut(shard_of(term, count) as usize) else {
            continue;
        };
        list.clear();
        list.extend(
            postings::Decoder::new(dict.postings_bytes(i))
                .filter_map(|p| place(p.chunk).map(|at| PagePosting { tf: p.tf, ..at })),
        );
        shard
            .table
            .push(term, dict.dfs.get(i).copied().unwrap_or(0), |out| {
                postings::encode_paged(&list, out)
            });
    }
    let mut pack = Vec::new();
    let mut ends = Vec::with_capacity(shards.len());
    for data in shards {
        let shard = TermShard { data };
        pack.extend(if marked {
            shard.to_bytes()
        } else {
            shard.to_unmarked_bytes()
        });
        ends.push(pack.len() as u64);
    }
    (pack, ends)
}

fn text_pack(index: &SearchIndex, cuts: &[u32]) -> (Vec<u8>, Vec<u32>, Vec<u64>) {
    let mut cutter = BlockCutter::default();
    let mut out = BlockOut::default();
    for (i, chunk) in index.data.chunks.iter().enumerate() {
        if cuts.binary_search(&(i as u32)).is_ok() {
            cutter.cut(i as u32, &mut out);
        }
        cutter.push(i as u32, BlockChunk::of(chunk), &mut out);
    }
    cutter.finish(&mut out);
    (out.pack, out.starts, out.ends)
}

/// Cuts consecutive chunks into text blocks of about [`TARGET_BLOCK_BYTES`], numbered from where it
/// starts, their ends counted from its first block's start.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct BlockCutter {
    block: Vec<BlockChunk>,
    first: u32,
    size: usize,
    /// Blocks finished so far, and the bytes of those this cutter made.
    blocks: u32,
    pack_len: u64,
}

/// Blocks a cutter finished: their bytes (to append to the text pack), first chunks and pack ends.
#[derive(Debug, Default)]
pub(crate) struct BlockOut {
    pub pack: Vec<u8>,
    pub starts: Vec<u32>,
    pub ends: Vec<u64>,
}

impl BlockCutter {
    /// A cutter whose first block is number `block` and begins at chunk `chunk`.
    pub(crate) fn starting_at(block: u32, chunk: u32) -> BlockCutter {
        BlockCutter {
            blocks: block,
            first: chunk,
            ..BlockCutter::default()
        }
    }

    /// Ends the block being filled (if any) before chunk `next`, whatever its size.
    pub(crate) fn cut(&mut self, next: u32, out: &mut BlockOut) {
        self.finish(out);
        self.first = next;
        self.size = 0;
    }

    /// Adds chunk number `i` (chunks come in order).
    pub(crate) fn push(&mut self, i: u32, chunk: BlockChunk, out: &mut BlockOut) {
        if self.size >= TARGET_BLOCK_BYTES {
            self.flush(out);
            self.first = i;
            self.size = 0;
        }
        self.size += chunk.heading.len() + chunk.anchor.len() + chunk.text.len();
        self.block.push(chunk);
    }

    /// Ends the last block (after the last chunk of the site).
    pub(crate) fn finish(&mut self, out: &mut BlockOut) {
        if !self.block.is_empty() {
            self.flush(out);
        }
    }

    fn flush(&mut self, out: &mut BlockOut) {
        let chunks = std::mem::take(&mut self.block);
        let bytes = TextBlock {
            data: BlockData { chunks },
            id: self.blocks,
            first_chunk: self.first,
        }
        .to_bytes();
        self.blocks += 1;
        self.pack_len += bytes.len() as u64;
        out.starts.push(self.first);
        out.ends.push(self.pack_len);
        out.pack.extend(bytes);
    }
}

impl BlockChunk {
    pub(crate) fn of(chunk: &ChunkMeta) -> BlockChunk {
        BlockChunk {
            heading: chunk.heading.clone(),
            anchor: chunk.anchor.clone(),
            level: chunk.level,
            continued: chunk.continued,
            text: chunk.text.clone(),
        }
    }
}
