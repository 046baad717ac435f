//! The storage sweep's half for sites' content-addressed stores (`files/{domain}/{hash}`): a file
//! goes when no version the sweep keeps refers to it (`docs_edge_core::platform::store_sweep`,
//! which also argues why the marker below keeps a commit from crossing the sweep).
//!
//! `files/` lists before `sites/`, so when the sweep meets a store it finds the domain's versions
//! itself: the pointer, one delimited listing of `sites/{domain}/` (a prefix per version), and each
//! version's manifest. What the kept versions refer to is read once per domain and run (a store's
//! keys list together), and a run reads at most [`OPS_PER_RUN`] objects and listings for it.

use std::collections::BTreeSet;

use docs_edge_core::platform::retention::{Decision, Live, Retention, SITES_PREFIX};
use docs_edge_core::platform::store_sweep::{
    listed_version, marker_holds, may_delete_under, store_decision, store_domain, version_keeps,
    REFERRING_OBJECTS,
};
use docs_edge_core::publish::kept::{listed_objects, KEPT_BATCHES_OBJECT};
use docs_edge_core::publish::manifest::{Manifest, MANIFEST_OBJECT};
use worker::{Bucket, Delay};

use crate::shared::clock::now_ms;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::join::try_join_all;
use crate::shared::sites;
use crate::shared::storage::{sweep_marker_key, sweep_markers_prefix, version_key};

/// R2 operations a run spends on finding what stores' kept versions refer to: with the rest of the
/// sweep (20 listings and deletions, a pointer per domain, KV) well inside the 1,000 a Worker
/// invocation may make.
pub const OPS_PER_RUN: usize = 400;

/// Versions of a domain a run reads; a domain with more (more publishes inside the retention than
/// that) keeps its whole store until the sites sweep has thinned them. With the fixed operations of
/// a domain, its reads (two a version) fit a run's budget, so a run can always judge the first
/// store it meets.
const VERSIONS_READ: u32 = 198;

/// Operations a domain costs besides its versions' reads: the marker stored and removed, the
/// pointer, the listing.
const OPS_PER_DOMAIN: usize = 4;

const _: () =
    assert!(VERSIONS_READ as usize * REFERRING_OBJECTS.len() + OPS_PER_DOMAIN <= OPS_PER_RUN);

/// Manifests and batch indexes read at once (each is at most a few MB).
const READS_AT_ONCE: usize = 4;

/// How long a commit waits for a sweep to leave its store before answering 503.
const COMMIT_WAITS_MS: u64 = 30_000;
const COMMIT_POLL_MS: u64 = 250;

/// The run's judgement of the store it is in.
struct Judged {
    domain: String,
    /// What its kept versions refer to; `None`: not all were read (every file stays).
    kept: Option<BTreeSet<String>>,
    /// This run's marker on the store and when R2 stored it.
    marker: Option<(String, u64)>,
}

pub struct StoreSweep<'a> {
    bucket: &'a Bucket,
    run: String,
    now: u64,
    retention: Retention,
    in_flight_ms: u64,
    ops_left: usize,
    judged: Option<Judged>,
    /// Files to delete with the page, and the time of the marker they were judged under (`None`
    /// for a store whose files all stay: only lapsed markers go there, which need none).
    doomed: Vec<(String, Option<u64>)>,
    /// Markers of stores the run has left, removed once the page's deletions are done.
    left: Vec<String>,
}

impl<'a> StoreSweep<'a> {
    pub fn new(
        bucket: &'a Bucket,
        run: String,
        now: u64,
        retention: Retention,
        in_flight_ms: u64,
    ) -> Self {
        StoreSweep {
            bucket,
            run,
            now,
            retention,
            in_flight_ms,
            ops_left: OPS_PER_RUN,
            judged: None,
            doomed: Vec::new(),
            left: Vec::new(),
        }
    }

    /// Whether `key` is a store's (`files/…`), which [`Self::judge`] decides.
    pub fn owns(key: &str) -> bool {
        store_domain(key).is_some()
    }

    /// Judges a store's key, reading its domain's versions first when it is the first key of that
    /// store; the file is deleted with [`Self::flush`]. `false`: the run's budget is spent, and the
    /// run stops before this key.
    pub async fn judge(&mut self, key: &str, uploaded_ms: u64) -> ApiResult<bool> {
        let Some(domain) = store_domain(key) else {
            return Ok(true);
        };
        if self.judged.as_ref().is_none_or(|j| j.domain != domain) {
            self.leave();
            if self.ops_left < OPS_PER_DOMAIN + 1 {
                return Ok(false);
            }
            match self.read_versions(domain).await? {
                Some(judged) => self.judged = Some(judged),
                None => return Ok(false),
            }
        }
        let judged = self.judged.as_ref().expect("judged above");
        if store_decision(
            key,
            uploaded_ms,
            self.now,
            judged.kept.as_ref(),
            self.in_flight_ms,
        ) == Decision::Delete
        {
            self.doomed
                .push((key.to_owned(), judged.marker.as_ref().map(|(_, at)| *at)));
        }
        Ok(true)
    }

    /// Deletes the files judged since the last flush (none under a marker too old to delete under),
    /// then removes the markers of the stores the run has left. Returns the number deleted.
    pub async fn flush(&mut self) -> ApiResult<u64> {
        let now = now_ms();
        let doomed: Vec<String> = self
            .doomed
            .drain(..)
            .filter(|(_, under)| under.is_none_or(|at| may_delete_under(at, now)))
            .map(|(key, _)| key)
            .collect();
        let deleted = doomed.len() as u64;
        if !doomed.is_empty() {
            self.bucket.delete_multiple(doomed).await?;
        }
        if !self.left.is_empty() {
            self.bucket
                .delete_multiple(std::mem::take(&mut self.left))
                .await?;
        }
        Ok(deleted)
    }

    /// Ends the run: deletes what is judged and removes every marker of this run.
    pub async fn finish(mut self) -> ApiResult<u64> {
        self.leave();
        self.flush().await
    }

    /// Removes this run's marker on any store it could not finish (after an error): best effort,
    /// a marker left lapses on its own.
    pub async fn abandon(mut self) {
        self.leave();
        self.doomed.clear();
        let _ = self.flush().await;
    }

    fn leave(&mut self) {
        if let Some((marker, _)) = self.judged.take().and_then(|j| j.marker) {
            self.left.push(marker);
        }
    }

    /// Marks `domain`'s store, then reads what its kept versions refer to. `None`: the run's budget
    /// does not cover its versions (the marker is already removed).
    async fn read_versions(&mut self, domain: &str) -> ApiResult<Option<Judged>> {
        // The marker is stored before anything is read (see core's `store_sweep`).
        let marker = sweep_marker_key(domain, &self.run);
        let stored = self
            .bucket
            .put(&marker, self.run.clone().into_bytes())
            .execute()
            .await?;
        let marked_ms = stored
            .ok_or_else(|| ApiError::Internal(format!("{marker} was not stored")))?
            .uploaded()
            .as_millis();
        let pointer = sites::live_pointer(self.bucket, domain).await?;
        let listing = self
            .bucket
            .list()
            .prefix(format!("{SITES_PREFIX}{domain}/"))
            .delimiter("/")
            .limit(VERSIONS_READ)
            .execute()
            .await?;
        self.ops_left = self.ops_left.saturating_sub(OPS_PER_DOMAIN);
        let reading = if listing.truncated() {
            Reading::Unknown
        } else {
            self.kept_files(domain, &pointer, &listing.delimited_prefixes())
                .await?
        };
        let judged = |kept, marker| Judged {
            domain: domain.to_owned(),
            kept,
            marker,
        };
        match reading {
            Reading::Kept(kept) => Ok(Some(judged(Some(kept), Some((marker, marked_ms))))),
            Reading::Unknown => {
                // Every file stays: nothing to hold commits back for.
                self.left.push(marker);
                Ok(Some(judged(None, None)))
            }
            Reading::OutOfBudget => {
                self.left.push(marker);
                Ok(None)
            }
        }
    }

    /// What the versions listed (`sites/{domain}/{publishId}/` prefixes) that the sweep keeps refer
    /// to: each one's manifest and batch index.
    async fn kept_files(
        &mut self,
        domain: &str,
        pointer: &Option<(String, u64)>,
        prefixes: &[String],
    ) -> ApiResult<Reading> {
        let versions: Vec<&str> = prefixes
            .iter()
            .filter_map(|p| listed_version(p, domain))
            .collect();
        let reads: Vec<(&str, &str)> = versions
            .iter()
            .flat_map(|id| REFERRING_OBJECTS.map(|name| (*id, name)))
            .collect();
        if reads.len() > self.ops_left {
            return Ok(Reading::OutOfBudget);
        }
        self.ops_left -= reads.len();
        let live = pointer.as_ref().map(|(publish_id, since_ms)| Live {
            publish_id,
            since_ms: *since_ms,
        });
        let mut kept = BTreeSet::new();
        for group in reads.chunks(READS_AT_ONCE) {
            let reads = group.iter().map(|(id, name)| {
                kept_references(
                    self.bucket,
                    domain,
                    id,
                    name,
                    self.now,
                    live,
                    self.retention,
                )
            });
            for read in try_join_all(reads).await? {
                match read {
                    Some(hashes) => kept.extend(hashes),
                    None => return Ok(Reading::Unknown),
                }
            }
        }
        Ok(Reading::Kept(kept))
    }
}

/// What a run learnt of a domain's kept versions.
enum Reading {
    /// The file hashes and batch stems they refer to.
    Kept(BTreeSet<String>),
    /// Not all could be read (too many versions, a manifest unreadable): every file stays.
    Unknown,
    /// The run's budget does not cover them: the run stops before the store.
    OutOfBudget,
}

/// What version `publish_id`'s object `name` (its manifest: file hashes; its batch index: batch
/// stems) refers to if the sweep keeps it; none when the version has no such object (published as
/// a `.tar.gz`, or small enough to be built in memory). `None` when it cannot be read.
async fn kept_references(
    bucket: &Bucket,
    domain: &str,
    publish_id: &str,
    name: &str,
    now: u64,
    live: Option<Live<'_>>,
    retention: Retention,
) -> ApiResult<Option<Vec<String>>> {
    let Some(object) = bucket
        .get(version_key(domain, publish_id, name))
        .execute()
        .await?
    else {
        return Ok(Some(Vec::new()));
    };
    if !version_keeps(
        domain,
        publish_id,
        name,
        object.uploaded().as_millis(),
        now,
        live,
        retention,
    ) {
        return Ok(Some(Vec::new()));
    }
    let body = object
        .body()
        .ok_or_else(|| ApiError::Internal(format!("{domain}/{publish_id}/{name} has no body")))?;
    let bytes = body.bytes().await?;
    let read = match name {
        KEPT_BATCHES_OBJECT => listed_objects(&bytes).map_err(|e| e.to_string()),
        MANIFEST_OBJECT => Manifest::from_bytes(&bytes)
            .map(|m| m.files.into_iter().map(|f| f.hash).collect())
            .map_err(|e| e.to_string()),
        _ => Err(format!("{name} refers to nothing in the store")),
    };
    match read {
        Ok(referred) => Ok(Some(referred)),
        Err(error) => {
            crate::shared::log_line::error(
                &serde_json::json!({"event": "store_sweep_unreadable_manifest", "domain": domain, "publishId": publish_id, "object": name, "error": error}),
            );
            Ok(None)
        }
    }
}

/// For a commit whose manifest is stored: returns once no sweep holds `domain`'s store, so a check
/// of the store made after it sees every file a sweep deleted (core's `store_sweep` says why).
/// 503 `store_sweeping` if one still holds it after [`COMMIT_WAITS_MS`].
pub async fn wait_for_sweep(bucket: &Bucket, domain: &str) -> ApiResult<()> {
    let deadline = now_ms() + COMMIT_WAITS_MS;
    loop {
        let markers = bucket
            .list()
            .prefix(sweep_markers_prefix(domain))
            .execute()
            .await?;
        let now = now_ms();
        if !markers
            .objects()
            .iter()
            .any(|m| marker_holds(m.uploaded().as_millis(), now))
        {
            return Ok(());
        }
        if now >= deadline {
            return Err(ApiError::StoreSweeping {
                domain: domain.to_owned(),
            });
        }
        Delay::from(std::time::Duration::from_millis(COMMIT_POLL_MS)).await;
    }
}
