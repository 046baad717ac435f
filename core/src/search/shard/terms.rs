//! Term shards: the dictionary cut by a stable hash of the term. Each term sits in exactly one shard
//! with its site-wide document frequency and its whole posting list, so one shard answers for a term
//! without any other. Postings name pages and places in them (`postings::encode_paged`), so an edit
//! of one page changes only the shards of the terms whose postings on that page changed. The hash is FNV-1a, fixed here (std's hasher is randomised per process, and a
//! shard number must mean the same thing at publish and in every isolate for the life of the format).

use serde::{Deserialize, Serialize};

use super::super::codec::{decode, encode, IndexError};
use super::super::dict::{Dict, TermTable};
use super::super::postings;
use super::{KIND_TERMS, SHARD_FORMAT_VERSION};
use crate::export::delta::CUT_MARK;

/// The shard a term belongs to among `count`.
pub(crate) fn shard_of(term: &str, count: u32) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for &b in term.as_bytes() {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash % count.max(1)
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub(crate) struct ShardData {
    /// Which shard this is, checked on load against the number asked for.
    pub id: u32,
    pub table: TermTable,
}

/// One loaded term shard.
#[derive(Debug, Clone, PartialEq)]
pub struct TermShard {
    pub(crate) data: ShardData,
}

impl TermShard {
    pub fn id(&self) -> u32 {
        self.data.id
    }

    /// The shard as the terms pack holds it: its data, then [`CUT_MARK`], so a mirror's chunks of
    /// the pack end between shards and an edit costs it the shards it changed.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = self.to_unmarked_bytes();
        bytes.extend_from_slice(CUT_MARK);
        bytes
    }

    /// The shard's data alone, as a batch's partial postings hold it.
    pub(crate) fn to_unmarked_bytes(&self) -> Vec<u8> {
        encode(&[SHARD_FORMAT_VERSION, KIND_TERMS], &self.data)
    }

    /// Loads shard `id` of a site whose meta says `shard_count` shards and `chunk_count` chunks;
    /// every offset, the sort order and each term's shard are checked.
    pub fn from_bytes(
        bytes: &[u8],
        id: u32,
        shard_count: u32,
        chunk_count: usize,
    ) -> Result<TermShard, IndexError> {
        let data: ShardData = bytes
            .strip_suffix(CUT_MARK.as_slice())
            .ok_or(IndexError::Inconsistent("shard end"))
            .and_then(|data| decode(data, &[SHARD_FORMAT_VERSION, KIND_TERMS]))?;
        if data.id != id {
            return Err(IndexError::Inconsistent("shard number"));
        }
        let shard = TermShard { data };
        let dict = shard.dict();
        dict.validate(chunk_count)?;
        for i in 0..dict.term_ends.len() {
            if dict
                .term_at(i)
                .is_none_or(|t| shard_of(t, shard_count) != id)
            {
                return Err(IndexError::Inconsistent("term in the wrong shard"));
            }
        }
        Ok(shard)
    }

    pub(crate) fn dict(&self) -> Dict<'_> {
        Self::dict_of(&self.data)
    }

    pub(crate) fn dict_of(d: &ShardData) -> Dict<'_> {
        d.table.dict()
    }

    /// The term's document frequency and postings as chunk ids, page `p`'s chunks being
    /// `starts[p]..starts[p + 1]` ([`SearchMeta::page_starts`](super::SearchMeta)).
    pub(crate) fn lookup<'a>(
        &'a self,
        term: &str,
        starts: &'a [u32],
    ) -> Option<(u32, postings::Decoder<'a>)> {
        let (df, bytes) = self.dict().lookup_bytes(term)?;
        Some((df, postings::Decoder::paged(bytes, starts)))
    }

    /// About what this holds on the heap, for a byte-bounded cache.
    pub fn heap_bytes(&self) -> usize {
        let d = &self.data.table;
        std::mem::size_of::<TermShard>()
            + d.terms.len()
            + (d.term_ends.len() + d.dfs.len() + d.posting_ends.len()) * 4
            + d.postings.len()
    }
}

#[cfg(test)]
mod tests {
    use super::shard_of;

    #[test]
    fn the_hash_is_fixed() {
        // FNV-1a 32 of "a" is 0xe40c292c; a change here re-shards every published site.
        assert_eq!(shard_of("a", u32::MAX), 0xe40c_292c);
        assert_eq!(shard_of("anything", 1), 0);
        assert_eq!(shard_of("x", 0), 0);
    }
}
