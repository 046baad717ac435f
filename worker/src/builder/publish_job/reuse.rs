//! What a re-publish takes from the live version (`docs_edge_core::publish::parsed` and
//! `docs_edge_core::publish::kept`): its parsed-pages index and kept-batches index, read once per
//! publish; then per batch either the whole batch (when its digest and cursor match a kept batch's:
//! the new version refers to the batch's objects in the site's store, nothing is copied) or one
//! ranged read per old batch object holding page hits. Reuse only saves work: anything missing or
//! unreadable is built again, never an error.

use docs_edge_core::publish::kept::{BatchPart, KeptBatch, KeptBatches, KEPT_BATCHES_OBJECT};
use docs_edge_core::publish::parsed::{
    parsed_object, PageKey, ParsedIndex, Reused, PARSED_INDEX_OBJECT,
};
use docs_edge_core::search::shard::batched::BatchCursor;
use worker::Bucket;

use crate::shared::join::try_join_all;
use crate::shared::sites;
use crate::shared::storage::{read, site_file_key, version_key};

pub(super) struct LiveParsed {
    pub(super) publish_id: String,
    /// Whether its batches' text and Markdown are pieces in the site's store (else in its packs).
    pub(super) pieced: bool,
    index: ParsedIndex,
    batches: KeptBatches,
}

impl LiveParsed {
    /// `None` unless `domain`'s live version is `org_id`'s and kept its parsed pages.
    pub(super) async fn open(bucket: &Bucket, domain: &str, org_id: &str) -> Option<LiveParsed> {
        let version = sites::current_version(bucket, domain, org_id)
            .await
            .ok()??;
        let bytes = read(
            bucket,
            &version_key(domain, &version.publish_id, PARSED_INDEX_OBJECT),
            None,
        )
        .await
        .ok()??;
        let index = ParsedIndex::from_bytes(&bytes).ok()?;
        let batches = match read(
            bucket,
            &version_key(domain, &version.publish_id, KEPT_BATCHES_OBJECT),
            None,
        )
        .await
        {
            // An index of the old format (its batches beside its version) is not taken from.
            Ok(Some(bytes)) => KeptBatches::from_bytes(&bytes).unwrap_or_default(),
            _ => KeptBatches::default(),
        };
        Some(LiveParsed {
            publish_id: version.publish_id,
            pieced: version.pieces,
            index,
            batches,
        })
    }

    /// The live batch built from `digest` at `start`: its number there and its entry.
    pub(super) fn find(&self, digest: &[u8; 16], start: &BatchCursor) -> Option<(u32, KeptBatch)> {
        self.batches
            .find(digest, start)
            .map(|(old, kept)| (old, kept.clone()))
    }

    /// Whether the site's store still holds every object of `kept` (its pieces too, when this
    /// version keeps them there), so a version may refer to it.
    pub(super) async fn present(&self, bucket: &Bucket, domain: &str, kept: &KeptBatch) -> bool {
        let mut parts = vec![BatchPart::Record, BatchPart::Postings, BatchPart::Parsed];
        if self.pieced {
            parts.extend(
                [
                    (BatchPart::Text, kept.text.1),
                    (BatchPart::Llms, kept.llms.1),
                ]
                .into_iter()
                .filter(|(_, len)| *len > 0)
                .map(|(part, _)| part),
            );
        }
        let heads = parts
            .into_iter()
            .map(|part| bucket.head(site_file_key(domain, &kept.object(part))));
        matches!(try_join_all(heads).await, Ok(found) if found.iter().all(Option::is_some))
    }

    /// The kept pages of `keys`, and the bytes read for them.
    pub(super) async fn reused(
        &self,
        bucket: &Bucket,
        domain: &str,
        keys: &[PageKey],
    ) -> (Reused, usize) {
        let mut reused = Reused::default();
        let mut read_bytes = 0;
        for wanted in self.index.reads_for(keys) {
            let key = self.parsed_key(domain, wanted.batch);
            let range = u64::from(wanted.range.start)..u64::from(wanted.range.end);
            if let Ok(Some(bytes)) = read(bucket, &key, Some(range)).await {
                read_bytes += bytes.len();
                reused.add(wanted.split(&bytes));
            }
        }
        (reused, read_bytes)
    }

    /// Where batch `batch`'s parsed pages are: in the site's store for a batch the version's index
    /// lists, else beside the version (a site built in memory, or a version of the old format).
    fn parsed_key(&self, domain: &str, batch: u32) -> String {
        match self.batches.get(batch) {
            Some(kept) => site_file_key(domain, &kept.object(BatchPart::Parsed)),
            None => version_key(domain, &self.publish_id, &parsed_object(batch)),
        }
    }
}
