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
//! bytes, so the worker refers to that batch's objects and reads its text and Markdown out of the
//! live version's packs.
//!
//! A batch's record, partial postings and parsed pages are named by what they were built from
//! ([`batch_object`]: digest and cursor), so they live once in the site's store, shared by every
//! version whose index lists the batch; the storage sweep deletes one only when no kept version's
//! index lists it ([`listed_objects`], `crate::platform::store_sweep`).
//!
//! Batch boundaries are content-defined ([`super::batches`]), so an edit that moves one boundary
//! leaves the later ones where they were, and the later batches are taken.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::parsed::PageKey;
use crate::docs::outline::SitePlan;
use crate::search::codec::{decode, encode};
use crate::search::shard::batched::{BatchCursor, ShardLayout};
use crate::search::shard::SHARD_FORMAT_VERSION;
use crate::search::IndexError;

/// The version's index of its kept batches.
pub const KEPT_BATCHES_OBJECT: &str = "batches/index.bin";

/// Format 1 kept each batch's objects beside its version (and a re-publish copied them); format 2
/// listed no source packs (they sat beside their version).
const FORMAT: u8 = 3;
const FORMAT_2: u8 = 2;
const OLD_FORMAT: u8 = 1;
const KIND_KEPT: u8 = b'K';

/// A batch object's name in the site's store starts with this (never a file hash: `t` is not a
/// hex digit).
const BATCH_PREFIX: &str = "batch-";

/// The objects a batch keeps in the site's store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchPart {
    /// Its [`super::BatchRecord`].
    Record,
    /// Its partial postings.
    Postings,
    /// Its parsed pages ([`super::parsed`]).
    Parsed,
    /// Its text blocks, a piece of the text pack ([`super::pieced`]).
    Text,
    /// Its pages' Markdown, a piece of `llms-full.txt`.
    Llms,
}

/// The name in the site's store of part `part` of the batch built from `digest` at `start`:
/// `batch-{id}.{part}`, the id 32 hex digits of their hash.
pub fn batch_object(digest: &[u8; 16], start: &BatchCursor, part: BatchPart) -> String {
    batch_part(&batch_stem(digest, start), part)
}

/// Part `part` of the batch whose stem is `stem`.
pub fn batch_part(stem: &str, part: BatchPart) -> String {
    let suffix = match part {
        BatchPart::Record => "record",
        BatchPart::Postings => "postings",
        BatchPart::Parsed => "parsed",
        BatchPart::Text => "text",
        BatchPart::Llms => "llms",
    };
    format!("{stem}.{suffix}")
}

/// `batch-{id}`: what every part of one batch's names starts with, and what a version's index
/// refers to.
pub fn batch_stem(digest: &[u8; 16], start: &BatchCursor) -> String {
    let mut hasher = Sha256::new();
    hasher.update(digest);
    for n in [start.pages, start.chunks, start.blocks] {
        hasher.update(u64::from(n).to_le_bytes());
    }
    let id: String = hasher.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{BATCH_PREFIX}{id}")
}

/// The stem ([`KeptBatch::stem`]) of a store object's name if it is a batch object's.
pub fn batch_object_stem(name: &str) -> Option<&str> {
    let (stem, part) = name.split_once('.')?;
    let id = stem.strip_prefix(BATCH_PREFIX)?;
    let hex = id.len() == 32
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    (hex && matches!(part, "record" | "postings" | "parsed" | "text" | "llms")).then_some(stem)
}

/// What a version's index (`bytes` of [`KEPT_BATCHES_OBJECT`]) refers to in the site's store: its
/// batches' stems and its source packs' names; an index of format 1 refers to nothing (its batches
/// sit beside its version).
pub fn listed_objects(bytes: &[u8]) -> Result<Vec<String>, IndexError> {
    if bytes.starts_with(&[OLD_FORMAT, KIND_KEPT]) {
        return Ok(Vec::new());
    }
    let index = KeptBatches::from_bytes(bytes)?;
    Ok(index
        .batches
        .iter()
        .map(KeptBatch::stem)
        .chain(index.packs)
        .collect())
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
    /// End of each term group in its partial postings: a taken batch needs no read.
    pub group_ends: Vec<u64>,
}

impl KeptBatch {
    /// Part `part`'s name in the site's store.
    pub fn object(&self, part: BatchPart) -> String {
        batch_object(&self.digest, &self.start, part)
    }

    pub fn stem(&self) -> String {
        batch_stem(&self.digest, &self.start)
    }
}

/// Every kept batch of a version, in batch order, and the source packs of the site's store the
/// version reads (`crate::docs::packed::pack_object_name`): what the storage sweep counts for it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct KeptBatches {
    batches: Vec<KeptBatch>,
    packs: Vec<String>,
}

#[derive(Deserialize)]
struct KeptBatchesV2 {
    batches: Vec<KeptBatch>,
}

impl KeptBatches {
    pub fn new(batches: Vec<KeptBatch>) -> Self {
        KeptBatches {
            batches,
            packs: Vec::new(),
        }
    }

    /// The index listing the source packs `packs` too.
    pub fn with_packs(mut self, packs: Vec<String>) -> Self {
        self.packs = packs;
        self
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        encode(&[FORMAT, KIND_KEPT], self)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<KeptBatches, IndexError> {
        if bytes.first() == Some(&FORMAT_2) {
            let old: KeptBatchesV2 = decode(bytes, &[FORMAT_2, KIND_KEPT])?;
            return Ok(KeptBatches::new(old.batches));
        }
        decode(bytes, &[FORMAT, KIND_KEPT])
    }

    /// The kept batch (its number and entry) built from `digest` at `start`, if any.
    pub fn find(&self, digest: &[u8; 16], start: &BatchCursor) -> Option<(u32, &KeptBatch)> {
        self.batches
            .iter()
            .enumerate()
            .find(|(_, b)| b.digest == *digest && b.start == *start)
            .map(|(i, b)| (i as u32, b))
    }

    /// Batch `batch` of the version.
    pub fn get(&self, batch: u32) -> Option<&KeptBatch> {
        self.batches.get(batch as usize)
    }

    pub fn len(&self) -> usize {
        self.batches.len()
    }

    pub fn is_empty(&self) -> bool {
        self.batches.is_empty()
    }
}

/// What batch `range` of `plan` is built from, besides its cursor: its pages' keys (`keys`), which
/// of them are second listings (they report no warnings), the layout, and the semantic stage's
/// model (`StaticModel::fingerprint`), which its chunk vectors come from.
pub fn batch_digest(
    plan: &SitePlan,
    range: &std::ops::Range<u32>,
    keys: &[PageKey],
    layout: &ShardLayout,
    model: Option<u64>,
) -> [u8; 16] {
    let mut hasher = Sha256::new();
    // A batch of another layout of the split index is built again, never merged with this one's.
    hasher.update([SHARD_FORMAT_VERSION]);
    if let Some(model) = model {
        hasher.update(model.to_le_bytes());
    }
    hasher.update(layout.shard_count.to_le_bytes());
    hasher.update(layout.group_shards.to_le_bytes());
    let pages = plan
        .pages()
        .get(range.start as usize..range.end as usize)
        .unwrap_or(&[]);
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
        let start = BatchCursor {
            pages: 3,
            chunks: 10,
            blocks: 2,
        };
        let kept = KeptBatches::new(vec![
            KeptBatch {
                digest: [1; 16],
                start: BatchCursor::default(),
                end: start,
                text: (0, 5),
                llms: (0, 7),
                group_ends: vec![3, 9],
            },
            KeptBatch {
                digest: [2; 16],
                start,
                end: BatchCursor {
                    pages: 5,
                    chunks: 20,
                    blocks: 4,
                },
                text: (5, 5),
                llms: (7, 9),
                group_ends: vec![4, 4],
            },
        ]);
        let back = KeptBatches::from_bytes(&kept.to_bytes()).unwrap();
        assert_eq!(back, kept);
        assert_eq!(
            back.find(&[2; 16], &start).map(|(i, b)| (i, b.text)),
            Some((1, (5, 5)))
        );
        // The same pages starting elsewhere are another batch's bytes.
        assert!(back
            .find(&[2; 16], &BatchCursor { pages: 4, ..start })
            .is_none());
        assert!(back.find(&[3; 16], &start).is_none());
        assert!(KeptBatches::from_bytes(b"\x01Kjunk").is_err());
    }

    #[test]
    fn batch_objects_are_named_by_digest_and_cursor_and_listed_by_the_index() {
        let start = BatchCursor {
            pages: 3,
            chunks: 10,
            blocks: 2,
        };
        let record = batch_object(&[2; 16], &start, BatchPart::Record);
        let stem = batch_object_stem(&record).unwrap();
        assert_eq!(
            batch_object_stem(&batch_object(&[2; 16], &start, BatchPart::Parsed)),
            Some(stem)
        );
        // Another cursor or digest is another batch.
        assert_ne!(
            batch_object(
                &[2; 16],
                &BatchCursor { pages: 4, ..start },
                BatchPart::Record
            ),
            record
        );
        assert_ne!(batch_object(&[3; 16], &start, BatchPart::Record), record);
        // File hashes, markers and look-alikes are not batch objects.
        assert_eq!(
            batch_object_stem(&batch_object(&[2; 16], &start, BatchPart::Text)),
            Some(stem)
        );
        assert_eq!(
            batch_object_stem(&batch_object(&[2; 16], &start, BatchPart::Llms)),
            Some(stem)
        );
        for name in [
            "0123456789abcdef0123456789abcdef",
            "sweep-r1",
            "batch-xyz.record",
            &format!("{stem}.txt"),
            stem,
        ] {
            assert_eq!(batch_object_stem(name), None, "{name}");
        }
        let kept = KeptBatches::new(vec![KeptBatch {
            digest: [2; 16],
            start,
            end: start,
            text: (0, 0),
            llms: (0, 0),
            group_ends: vec![],
        }]);
        assert_eq!(
            listed_objects(&kept.to_bytes()).unwrap(),
            vec![stem.to_owned()]
        );
        // The source packs the version reads are listed with its batches.
        let pack = "pack-0123456789abcdef0123456789abcdef".to_owned();
        let with_packs = kept.clone().with_packs(vec![pack.clone()]);
        assert_eq!(
            listed_objects(&with_packs.to_bytes()).unwrap(),
            vec![stem.to_owned(), pack]
        );
        // An index of format 2 (no packs) still reads: its batches, no packs.
        let v2 = encode(
            &[FORMAT_2, KIND_KEPT],
            &(vec![kept.get(0).unwrap().clone()],),
        );
        assert_eq!(KeptBatches::from_bytes(&v2).unwrap(), kept);
        assert_eq!(
            kept.get(0).map(|k| k.object(BatchPart::Record)),
            Some(record.clone())
        );
        // An index of the old format kept its batches beside its version: it lists none here.
        assert!(listed_objects(b"\x01K\x00").unwrap().is_empty());
        assert!(listed_objects(b"\x02Kjunk").is_err());
        assert!(listed_objects(b"\x03Kjunk").is_err());
    }
}
