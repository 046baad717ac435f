//! The live version's parsed pages, as a re-publish reuses them (`docs_edge_core::publish::parsed`):
//! its index read once per publish, then per batch one ranged read per old batch object holding
//! hits. Reuse only saves work: anything missing or unreadable is parsed again, never an error.

use docs_edge_core::publish::parsed::{parsed_object, PageKey, ParsedIndex, Reused, PARSED_INDEX_OBJECT};
use worker::Bucket;

use crate::sites;
use crate::storage::{read, version_key};

pub(super) struct LiveParsed {
    publish_id: String,
    index: ParsedIndex,
}

impl LiveParsed {
    /// `None` unless `domain`'s live version is `org_id`'s and kept its parsed pages.
    pub(super) async fn open(bucket: &Bucket, domain: &str, org_id: &str) -> Option<LiveParsed> {
        let version = sites::current_version(bucket, domain, org_id).await.ok()??;
        let bytes = read(bucket, &version_key(domain, &version.publish_id, PARSED_INDEX_OBJECT), None).await.ok()??;
        let index = ParsedIndex::from_bytes(&bytes).ok()?;
        Some(LiveParsed { publish_id: version.publish_id, index })
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
