//! Batches kept with a version, so a re-publish takes a batch whose pages did not change whole
//! instead of building it again.
//!
//! A batch's outputs (partial postings, text blocks, `llms-full.txt` piece, record) depend only on
//! its pages' [`PageKey`]s (which hash everything their reading depends on), which of them are
//! second listings of a file, the shard layout, and the page, chunk and block numbers it starts from
//! ([`BatchCursor`]): its byte offsets are counted from its own start and rebased by the finish.
//! [`batch_digest`] hashes the first three. The finish writes [`KEPT_BATCHES_OBJECT`]: per batch
//! its digest, its cursor and where its text and Markdown sit in the version's text pack and
//! `llms-full.txt`. A re-publish's batch whose digest and cursor equal a kept batch's gives the same
//! bytes, so the worker copies that batch's record and postings ([`kept_record`],
//! [`kept_postings`]) and reads its text and Markdown out of the live version's packs.
//!
//! Batch boundaries are content-defined ([`super::batches`]), so an edit that moves one boundary
//! leaves the later ones where they were, and the later batches are taken.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::parsed::PageKey;
use crate::docs::outline::SitePlan;
use crate::search::codec::{decode, encode};
use crate::search::shard::batched::{BatchCursor, ShardLayout};
use crate::search::IndexError;

/// The version's index of its kept batches.
pub const KEPT_BATCHES_OBJECT: &str = "batches/index.bin";

const FORMAT: u8 = 1;
const KIND_KEPT: u8 = b'K';

/// Batch `batch`'s record ([`super::BatchRecord`]), beside the version.
pub fn kept_record(batch: u32) -> String {
    format!("batches/record-{batch:05}.bin")
}

/// Batch `batch`'s partial postings, beside the version.
pub fn kept_postings(batch: u32) -> String {
    format!("batches/postings-{batch:05}.bin")
}

/// One kept batch: what it was built from, and where its text and Markdown sit in the version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptBatch {
    pub digest: [u8; 16],
    pub start: BatchCursor,
    /// Where the next batch starts: a re-publish finds the run of batches it takes without
    /// reading their records.
    pub end: BatchCursor,
    /// `(offset, length)` in the text pack.
    pub text: (u64, u64),
    /// `(offset, length)` in `llms-full.txt`.
    pub llms: (u64, u64),
}

/// Every kept batch of a version, in batch order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct KeptBatches {
    batches: Vec<KeptBatch>,
}

impl KeptBatches {
    pub fn new(batches: Vec<KeptBatch>) -> Self {
        KeptBatches { batches }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        encode(&[FORMAT, KIND_KEPT], self)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<KeptBatches, IndexError> {
        decode(bytes, &[FORMAT, KIND_KEPT])
    }

    /// The kept batch (its number and entry) built from `digest` at `start`, if any.
    pub fn find(&self, digest: &[u8; 16], start: &BatchCursor) -> Option<(u32, &KeptBatch)> {
        self.batches.iter().enumerate().find(|(_, b)| b.digest == *digest && b.start == *start).map(|(i, b)| (i as u32, b))
    }

    pub fn len(&self) -> usize {
        self.batches.len()
    }

    pub fn is_empty(&self) -> bool {
        self.batches.is_empty()
    }
}

/// What batch `range` of `plan` is built from, besides its cursor: its pages' keys (`keys`), which
/// of them are second listings (they report no warnings), and the layout.
pub fn batch_digest(plan: &SitePlan, range: &std::ops::Range<u32>, keys: &[PageKey], layout: &ShardLayout) -> [u8; 16] {
    let mut hasher = Sha256::new();
    hasher.update(layout.shard_count.to_le_bytes());
    hasher.update(layout.group_shards.to_le_bytes());
    let pages = plan.pages().get(range.start as usize..range.end as usize).unwrap_or(&[]);
    hasher.update((keys.len() as u64).to_le_bytes());
    for (page, key) in pages.iter().zip(keys) {
        hasher.update(key.0);
        hasher.update([u8::from(page.copy_of.is_some())]);
    }
    let digest = hasher.finalize();
    let mut out = [0; 16];
    out.copy_from_slice(&digest[..16]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_batches_round_trip_and_are_found_by_digest_and_cursor() {
        let start = BatchCursor { pages: 3, chunks: 10, blocks: 2 };
        let kept = KeptBatches::new(vec![
            KeptBatch { digest: [1; 16], start: BatchCursor::default(), end: start, text: (0, 5), llms: (0, 7) },
            KeptBatch { digest: [2; 16], start, end: BatchCursor { pages: 5, chunks: 20, blocks: 4 }, text: (5, 5), llms: (7, 9) },
        ]);
        let back = KeptBatches::from_bytes(&kept.to_bytes()).unwrap();
        assert_eq!(back, kept);
        assert_eq!(back.find(&[2; 16], &start).map(|(i, b)| (i, b.text)), Some((1, (5, 5))));
        // The same pages starting elsewhere are another batch's bytes.
        assert!(back.find(&[2; 16], &BatchCursor { pages: 4, ..start }).is_none());
        assert!(back.find(&[3; 16], &start).is_none());
        assert!(KeptBatches::from_bytes(b"\x01Kjunk").is_err());
    }
}
