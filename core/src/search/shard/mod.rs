//! The index split so a query reads only what it needs. An isolate that loads a whole index per site
//! holds every site's postings and text for as long as it lives (62.5 MB for a 10,000-page site);
//! split, it keeps a small `meta` per site and caches the few term shards and text blocks queries
//! touch, under a byte bound of its own choosing.
//!
//! Three kinds of object, all made at publish from the built [`SearchIndex`](super::SearchIndex) by
//! [`ShardedIndex::build`]:
//! - `meta` ([`SearchMeta`]): everything global: page metadata, per-chunk field lengths, average field
//!   lengths, and where each term shard and text block sits in its pack;
//! - term shards ([`TermShard`]): the dictionary split by a stable hash of the term, each term with its
//!   site-wide document frequency and its whole posting list (by page and place in the page), so IDF
//!   needs no other shard;
//! - text blocks ([`TextBlock`]): the stored chunks (heading, anchor, text) of consecutive chunk ranges.
//!
//! Shards are concatenated into one `terms` pack and blocks into one `text` pack; `meta` holds their
//! byte ranges, so storage writes three objects per publish and a reader fetches ranges (adjacent
//! ones together). Querying is sans IO: [`SearchMeta::shards_for`] names the shards a query needs,
//! [`score`] ranks with the same scorer as the whole index, [`SearchMeta::blocks_for`] names the
//! blocks holding the ranked chunks and [`hits`] makes the hits; pages go through
//! [`SearchMeta::page_blocks`] and [`page_from_blocks`].

pub mod batched;
mod blocks;
mod build;
mod meta;
mod read;
mod terms;

pub use blocks::TextBlock;
pub use build::ShardedIndex;
pub use meta::SearchMeta;
pub use read::{hits, page_from_blocks, score, score_with_vectors};
pub use terms::TermShard;

/// Bump on any change to the layout of the three objects. Each object starts with this byte, then
/// its kind, so bytes of one kind never load as another. 2: postings by page and place, the meta's
/// positions stored as lengths, blocks without their numbers (an edit of one page rewrites little
/// of the packs).
pub const SHARD_FORMAT_VERSION: u8 = 2;
const KIND_META: u8 = b'M';
const KIND_TERMS: u8 = b'T';
const KIND_TEXT: u8 = b'X';

#[cfg(test)]
mod delta_figures;
#[cfg(test)]
mod tests;
