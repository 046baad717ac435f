//! The stored record of a publish: its step, attempts and progress, and the keys it is stored under.

use crate::shared::clock::now_iso;
use crate::shared::config::JobSettings;
use crate::shared::durable::publish_job::Progress;
use crate::shared::sites::{IndexFormat, SiteVersion, CURRENT_LAYOUT};
use docs_edge_core::docs::Site;
use docs_edge_core::publish::BatchState;
use docs_edge_core::search::shard::batched::ShardLayout;
use docs_edge_core::wire::{PublishState, PublishStatus};
use serde::{Deserialize, Serialize};
use std::cell::Cell;

/// Where a publish is. Stored as `{"step":"batch","at":3}` or `{"step":"upload"}` (serde's adjacently
/// tagged form, through [`StepRecord`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "StepRecord", into = "StepRecord")]
pub(super) enum Step {
    /// Reserved; the upload is being stored.
    Upload,
    Unpack,
    Plan,
    Batch(u32),
    Merge(u32),
    Concat,
    Finish,
    Switch,
    Cleanup,
    Done,
}

/// [`Step`]'s stored form written out as a plain struct: serde's own adjacently tagged reader
/// buffers the fields through `Content`, about 11 KB of the worker's wasm for this one enum.
#[derive(Serialize, Deserialize)]
pub(super) struct StepRecord {
    pub(super) step: StepName,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) at: Option<u32>,
}

#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum StepName {
    Upload,
    Unpack,
    Plan,
    Batch,
    Merge,
    Concat,
    Finish,
    Switch,
    Cleanup,
    Done,
}

impl From<Step> for StepRecord {
    fn from(step: Step) -> StepRecord {
        let (step, at) = match step {
            Step::Upload => (StepName::Upload, None),
            Step::Unpack => (StepName::Unpack, None),
            Step::Plan => (StepName::Plan, None),
            Step::Batch(b) => (StepName::Batch, Some(b)),
            Step::Merge(g) => (StepName::Merge, Some(g)),
            Step::Concat => (StepName::Concat, None),
            Step::Finish => (StepName::Finish, None),
            Step::Switch => (StepName::Switch, None),
            Step::Cleanup => (StepName::Cleanup, None),
            Step::Done => (StepName::Done, None),
        };
        StepRecord { step, at }
    }
}

impl TryFrom<StepRecord> for Step {
    type Error = &'static str;

    fn try_from(record: StepRecord) -> std::result::Result<Step, &'static str> {
        Ok(match (record.step, record.at) {
            (StepName::Upload, _) => Step::Upload,
            (StepName::Unpack, _) => Step::Unpack,
            (StepName::Plan, _) => Step::Plan,
            (StepName::Batch, Some(b)) => Step::Batch(b),
            (StepName::Merge, Some(g)) => Step::Merge(g),
            (StepName::Batch | StepName::Merge, None) => return Err("missing field `at`"),
            (StepName::Concat, _) => Step::Concat,
            (StepName::Finish, _) => Step::Finish,
            (StepName::Switch, _) => Step::Switch,
            (StepName::Cleanup, _) => Step::Cleanup,
            (StepName::Done, _) => Step::Done,
        })
    }
}

/// One publish, stored under `job:{publishId}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    pub publish_id: String,
    pub org_id: String,
    pub domain: String,
    pub status: PublishState,
    pub(super) step: Step,
    pub page_count: u32,
    pub created_at: String,
    pub(super) created_ms: u64,
    pub updated_at: String,
    pub error: Option<String>,
    /// Whether the upload is at fault (the publish route answers 400 `invalid_archive`).
    pub invalid_upload: bool,
    pub(super) source_bytes: u64,
    pub(super) attempts: u32,
    pub(super) batches: Vec<(u32, u32)>,
    pub(super) layout: Option<ShardLayout>,
    pub(super) batch_state: BatchState,
    /// Every batch's text-block and `llms-full.txt` bytes, and each group's term bytes.
    pub(super) text_lens: Vec<u64>,
    pub(super) llms_lens: Vec<u64>,
    pub(super) group_lens: Vec<u64>,
    /// Every term shard's length, in shard order (groups append theirs).
    pub(super) shard_lens: Vec<u64>,
    /// Whether its batches' text and Markdown are pieces in the site's store (every publish planned
    /// since the pieces): a record begun by an older build, which kept them beside its version,
    /// plans again.
    #[serde(default)]
    pub(super) pieced: bool,
    /// Per batch, the stem of its objects in the site's store (`docs_edge_core::publish::kept`).
    #[serde(default)]
    pub(super) batch_stems: Vec<String>,
    /// The finished version, once the finish step made it.
    pub(super) version: Option<SiteVersion>,
    /// What the publish runs under, as the edge script sent it with `begin`.
    #[serde(default)]
    pub(super) settings: JobSettings,
    /// A preview publish's hostname (`start` said so): its version never goes live.
    #[serde(default)]
    pub(super) preview_host: Option<String>,
}

impl Record {
    pub fn view(&self) -> PublishStatus {
        PublishStatus {
            publish_id: self.publish_id.clone(),
            domain: self.domain.clone(),
            status: self.status,
            progress: self.progress(),
            page_count: self.page_count,
            pages_parsed: self.pages_parsed(),
            created_at: self.created_at.clone(),
            updated_at: self.updated_at.clone(),
            error: self.error.clone(),
            preview_url: self.preview_host.as_ref().map(|h| format!("https://{h}/")),
        }
    }

    pub(super) fn progress_reply(&self) -> Progress {
        Progress {
            status: self.view(),
            invalid_upload: self.invalid_upload,
            version: self.version.clone(),
        }
    }

    /// The version a finished publish makes of `site`; `pieces`: its text pack and `llms-full.txt`
    /// are its batches' pieces.
    pub(super) fn version_of(&self, site: Site, index_bytes: u64, pieces: bool) -> SiteVersion {
        SiteVersion {
            publish_id: self.publish_id.clone(),
            published_at: now_iso(),
            page_count: site.pages.len(),
            default_version: site.default_version().map(str::to_owned),
            languages: site.languages,
            versions: site.versions,
            warnings: site.warnings,
            source_bytes: self.source_bytes,
            index_bytes,
            org_id: Some(self.org_id.clone()),
            index_format: IndexFormat::Sharded,
            layout: CURRENT_LAYOUT,
            pieces,
        }
    }

    pub(super) fn active(&self) -> bool {
        matches!(self.status, PublishState::Queued | PublishState::Running)
    }

    /// Whether an alarm has a step to run: uploaded and not failed or done (a live publish still
    /// cleans up its intermediate objects).
    pub(super) fn has_work(&self) -> bool {
        self.status != PublishState::Failed && !matches!(self.step, Step::Upload | Step::Done)
    }

    /// The pages of the batches before the one running; every planned page once the batches are done.
    pub(super) fn pages_parsed(&self) -> u32 {
        let done = match self.step {
            Step::Upload | Step::Unpack | Step::Plan => 0,
            Step::Batch(b) => b as usize,
            _ => self.batches.len(),
        };
        self.batches
            .iter()
            .take(done)
            .map(|(start, end)| end - start)
            .sum()
    }

    /// Batches weigh most; the rest share what is left.
    pub(super) fn progress(&self) -> f64 {
        let batches = self.batches.len().max(1) as f64;
        let groups = self.layout.map_or(1, |l| l.group_count()) as f64;
        let share = match self.step {
            Step::Upload | Step::Unpack => 0.0,
            Step::Plan => 0.05,
            Step::Batch(b) => 0.1 + 0.6 * f64::from(b) / batches,
            Step::Merge(g) => 0.7 + 0.15 * f64::from(g) / groups,
            Step::Concat => 0.85,
            Step::Finish => 0.9,
            Step::Switch => 0.95,
            Step::Cleanup | Step::Done => 1.0,
        };
        if self.status == PublishState::Live {
            1.0
        } else {
            share
        }
    }
}

pub(super) fn job_key(publish_id: &str) -> String {
    format!("job:{publish_id}")
}

/// The group ends of batch `b`'s partial postings, kept beside the record (one key per batch, so
/// no stored value grows with the site).
pub(super) fn groups_key(batch: u32) -> String {
    format!("groups:{batch}")
}

/// Marks the steps as running in this instance until dropped (a panic included).
pub(super) struct Running<'a>(&'a Cell<bool>);

impl<'a> Running<'a> {
    pub(super) fn start(flag: &'a Cell<bool>) -> Self {
        flag.set(true);
        Running(flag)
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.set(false);
    }
}
