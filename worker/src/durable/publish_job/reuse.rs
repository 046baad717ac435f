//! What a re-publish takes from the live version (`docs_edge_core::publish::parsed` and
//! `docs_edge_core::publish::kept`): its parsed-pages index and kept-batches index, read once per
//! publish; then per batch either the whole batch (its record, postings and parsed pages, when its
//! digest and cursor match a kept batch's) or one ranged read per old batch object holding page
//! hits. Reuse only saves work: anything missing or unreadable is built again, never an error.

use docs_edge_core::publish::kept::{kept_postings, kept_record, KeptBatch, KeptBatches, KEPT_BATCHES_OBJECT};
use docs_edge_core::publish::parsed::{parsed_object, PageKey, ParsedIndex, Reused, PARSED_INDEX_OBJECT};
use docs_edge_core::publish::BatchRecord;
use docs_edge_core::search::shard::batched::BatchCursor;
use worker::Bucket;

use crate::join::try_join_all;
use crate::sites;
use crate::storage::{read, version_key};

pub(super) struct LiveParsed {
    pub(super) publish_id: String,
    index: ParsedIndex,
    batches: KeptBatches,
}

/// A batch of the live version taken whole: its entry, its record (renumbered for the new batch),
/// and its postings' and parsed pages' bytes.
pub(super) struct TakenBatch {
    pub(super) kept: KeptBatch,
    pub(super) record: BatchRecord,
    pub(super) postings: Vec<u8>,
    pub(super) parsed: Vec<u8>,
}

impl LiveParsed {
    /// `None` unless `domain`'s live version is `org_id`'s and kept its parsed pages.
    pub(super) async fn open(bucket: &Bucket, domain: &str, org_id: &str) -> Option<LiveParsed> {
        let version = sites::current_version(bucket, domain, org_id).await.ok()??;
        let bytes = read(bucket, &version_key(domain, &version.publish_id, PARSED_INDEX_OBJECT), None).await.ok()??;
        let index = ParsedIndex::from_bytes(&bytes).ok()?;
        let batches = match read(bucket, &version_key(domain, &version.publish_id, KEPT_BATCHES_OBJECT), None).await {
            Ok(Some(bytes)) => KeptBatches::from_bytes(&bytes).unwrap_or_default(),
            _ => KeptBatches::default(),
        };
        Some(LiveParsed { publish_id: version.publish_id, index, batches })
    }

    /// The live batch built from `digest` at `start`: its number there and its entry.
    pub(super) fn find(&self, digest: &[u8; 16], start: &BatchCursor) -> Option<(u32, KeptBatch)> {
        self.batches.find(digest, start).map(|(old, kept)| (old, kept.clone()))
    }

    /// Live batch `old` (`kept`, as [`Self::find`] gave it), read whole to stand as batch `batch`,
    /// and the bytes read.
    pub(super) async fn take(&self, bucket: &Bucket, domain: &str, (old, kept): (u32, KeptBatch), batch: u32) -> Option<(TakenBatch, usize)> {
        let keys = [kept_record(old), kept_postings(old), parsed_object(old)].map(|name| version_key(domain, &self.publish_id, &name));
        let read_all = try_join_all(keys.iter().map(|key| read(bucket, key, None))).await.ok()?;
        let [record, postings, parsed]: [Vec<u8>; 3] = read_all.into_iter().collect::<Option<Vec<_>>>()?.try_into().ok()?;
        let read_bytes = record.len() + postings.len() + parsed.len();
        let record = BatchRecord::from_bytes(&record).ok()?;
        (record.digest == kept.digest && record.start == kept.start).then_some(())?;
        Some((TakenBatch { kept, record: record.kept_as(batch), postings, parsed }, read_bytes))
    }

    /// The kept pages of `keys`, and the bytes read for them.
    pub(super) async fn reused(&self, bucket: &Bucket, domain: &str, keys: &[PageKey]) -> (Reused, usize) {
        let mut reused = Reused::default();
        let mut read_bytes = 0;
        for wanted in self.index.reads_for(keys) {
            let key = version_key(domain, &self.publish_id, &parsed_object(wanted.batch));
            let range = u64::from(wanted.range.start)..u64::from(wanted.range.end);
            if let Ok(Some(bytes)) = read(bucket, &key, Some(range)).await {
                read_bytes += bytes.len();
                reused.add(wanted.split(&bytes));
            }
        }
        (reused, read_bytes)
    }
}
