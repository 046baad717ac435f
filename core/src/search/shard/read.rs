//! Queries and pages over the split index, given the objects the caller fetched: the scorer is the
//! whole index's ([`rank`]), reading terms from the supplied shards; hits and page text are made by
//! the same functions as the whole index's. A missing object is an error, never a quietly different
//! answer.

use super::super::codec::IndexError;
use super::super::index::PageMeta;
use super::super::page::{assemble, ChunkText, PageDoc};
use super::super::postings;
use super::super::query::{make_hit, rank, ChunkStats, Corpus, Hit, Query, Ranked};
use super::blocks::TextBlock;
use super::meta::SearchMeta;
use super::terms::{shard_of, TermShard};
use crate::search::semantic::ChunkVectors;

/// The meta, the query's term shards and the chunk vectors, seen as the scorer's corpus.
struct Sharded<'a> {
    meta: &'a SearchMeta,
    shards: &'a [&'a TermShard],
    vectors: Option<&'a ChunkVectors>,
}

impl Corpus for Sharded<'_> {
    fn pages(&self) -> &[PageMeta] {
        self.meta.pages()
    }
    fn chunk_count(&self) -> usize {
        self.meta.chunk_count()
    }
    fn searchable_chunk_count(&self) -> usize {
        self.meta.searchable_chunks
    }
    fn chunk(&self, c: usize) -> Option<ChunkStats> {
        self.meta.chunk_stats(c)
    }
    fn avg_len(&self) -> [f32; 3] {
        self.meta.data.avg_len
    }
    fn term(&self, term: &str) -> Option<(u32, postings::Decoder<'_>)> {
        let id = shard_of(term, self.meta.shard_count());
        self.shards
            .iter()
            .find(|s| s.id() == id)?
            .lookup(term, &self.meta.page_starts)
    }
    fn similarity(&self, c: usize, query: &[f32]) -> Option<f32> {
        self.vectors.map(|v| v.similarity(c, query))
    }
}

/// Ranked chunks, best first, exactly as [`SearchIndex::search`] ranks them.
/// `shards` must hold every shard [`SearchMeta::shards_for`] names for `q.text` (more do no harm).
///
/// [`SearchIndex::search`]: super::super::SearchIndex::search
pub fn score(
    meta: &SearchMeta,
    shards: &[&TermShard],
    q: &Query,
) -> Result<Vec<Ranked>, IndexError> {
    score_with_vectors(meta, shards, meta.vectors.as_ref(), q)
}

/// [`score`] with chunk vectors read apart from the meta ([`SearchMeta::vectors_from`]).
pub fn score_with_vectors(
    meta: &SearchMeta,
    shards: &[&TermShard],
    vectors: Option<&ChunkVectors>,
    q: &Query,
) -> Result<Vec<Ranked>, IndexError> {
    if q.limit > 0
        && !meta
            .shards_for(q.text)
            .iter()
            .all(|id| shards.iter().any(|s| s.id() == *id))
    {
        return Err(IndexError::Inconsistent(
            "a term shard of the query is missing",
        ));
    }
    Ok(rank(
        &Sharded {
            meta,
            shards,
            vectors,
        },
        q,
    ))
}

/// The hits of ranked chunks; `blocks` must hold every block [`SearchMeta::blocks_for`] names.
pub fn hits(
    meta: &SearchMeta,
    blocks: &[&TextBlock],
    ranked: &[Ranked],
) -> Result<Vec<Hit>, IndexError> {
    ranked
        .iter()
        .map(|&r| {
            let chunk = chunk_text(meta, blocks, r.chunk)?;
            let page = meta
                .chunk_stats(r.chunk as usize)
                .and_then(|st| meta.pages().get(st.page as usize))
                .ok_or(IndexError::Inconsistent("chunk page"))?;
            Ok(make_hit(page, chunk, r))
        })
        .collect()
}

/// Page `page` (from [`SearchMeta::page_blocks`]) from its blocks.
pub fn page_from_blocks(
    meta: &SearchMeta,
    page: u32,
    blocks: &[&TextBlock],
) -> Result<PageDoc, IndexError> {
    let p = meta
        .pages()
        .get(page as usize)
        .ok_or(IndexError::Inconsistent("page number"))?;
    let chunks = (p.first_chunk..p.first_chunk.saturating_add(p.chunk_count))
        .map(|c| chunk_text(meta, blocks, c))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(assemble(p, &chunks))
}

fn chunk_text<'b>(
    meta: &SearchMeta,
    blocks: &[&'b TextBlock],
    c: u32,
) -> Result<ChunkText<'b>, IndexError> {
    let id = meta
        .block_of(c)
        .ok_or(IndexError::Inconsistent("chunk number"))?;
    blocks
        .iter()
        .find(|b| b.id() == id)
        .and_then(|b| b.chunk(c))
        .ok_or(IndexError::Inconsistent(
            "a text block of the answer is missing",
        ))
}
