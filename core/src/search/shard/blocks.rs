//! Text blocks: the stored part of consecutive chunks (heading, anchor, level, text), about 8 KiB
//! of text each (`build.rs` says why). Hits read the blocks of their chunks, pages the
//! blocks of their chunk range; chunks are in page order, so a page's blocks are adjacent.
//! A block's bytes hold its chunks alone, not its number or its first chunk's (the meta knows
//! both), so a page that gains a chunk leaves the bytes of every later block as they were.

use serde::{Deserialize, Serialize};

use super::super::codec::{decode, encode, IndexError};
use super::super::page::ChunkText;
use super::meta::SearchMeta;
use super::{KIND_TEXT, SHARD_FORMAT_VERSION};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct BlockChunk {
    pub heading: String,
    pub anchor: String,
    pub level: u8,
    pub continued: bool,
    pub text: String,
}

/// What is stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct BlockData {
    pub chunks: Vec<BlockChunk>,
}

/// One loaded text block.
#[derive(Debug, Clone, PartialEq)]
pub struct TextBlock {
    pub(crate) data: BlockData,
    /// Its number and its first chunk's, from the meta.
    pub(crate) id: u32,
    pub(crate) first_chunk: u32,
}

impl TextBlock {
    pub fn id(&self) -> u32 {
        self.id
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        encode(&[SHARD_FORMAT_VERSION, KIND_TEXT], &self.data)
    }

    /// Loads block `id` and checks it holds as many chunks as `meta` says it does.
    pub fn from_bytes(bytes: &[u8], id: u32, meta: &SearchMeta) -> Result<TextBlock, IndexError> {
        let data: BlockData = decode(bytes, &[SHARD_FORMAT_VERSION, KIND_TEXT])?;
        let expected = meta
            .block_chunks(id)
            .ok_or(IndexError::Inconsistent("block number"))?;
        if data.chunks.len() as u64 != u64::from(expected.end - expected.start) {
            return Err(IndexError::Inconsistent("block chunks"));
        }
        Ok(TextBlock {
            data,
            id,
            first_chunk: expected.start,
        })
    }

    /// Chunk `c` (a chunk number of the site) if this block holds it.
    pub(crate) fn chunk(&self, c: u32) -> Option<ChunkText<'_>> {
        let chunk = self
            .data
            .chunks
            .get(c.checked_sub(self.first_chunk)? as usize)?;
        Some(ChunkText {
            heading: &chunk.heading,
            anchor: &chunk.anchor,
            level: chunk.level,
            continued: chunk.continued,
            text: &chunk.text,
        })
    }

    /// About what this holds on the heap, for a byte-bounded cache.
    pub fn heap_bytes(&self) -> usize {
        std::mem::size_of::<TextBlock>()
            + self
                .data
                .chunks
                .iter()
                .map(|c| {
                    std::mem::size_of::<BlockChunk>()
                        + c.heading.len()
                        + c.anchor.len()
                        + c.text.len()
                })
                .sum::<usize>()
    }
}
