//! The `PublishJob` object itself (the builder script only): its record, its steps and their R2 I/O.

use super::concat::Piece;
use super::reuse::LiveParsed;
use super::{Begin, Progress, PublishJobOp, Query, Start};
use crate::clock::{now_iso, now_ms};
use crate::config::JobSettings;
use crate::durable::json_storage::JsonStorage;
use crate::durable_client::error_reply;
use crate::error::{ApiError, ApiResult};
use crate::join::try_join_all;
use crate::memory::{wasm_memory_bytes, DurableSpan, InMemoryBuild};
use crate::multipart::PartWriter;
use crate::sites::{self, IndexFormat, SiteVersion, CURRENT_LAYOUT};
use crate::storage::{
    self, build_object, media_pack, site_file_key, source_pack_key, version_key, ASSISTANT_GUIDE,
    LLMS_FULL_TXT, LLMS_TXT, MARKDOWN_MANIFEST, SEARCH_META, SEARCH_TERMS, SEARCH_TEXT,
    SITE_OUTLINE, SKILL_MD, SOURCE_DIGESTS, SOURCE_FILE_TABLE, SOURCE_OBJECT,
};
use docs_edge_core::docs::archive::{ArchiveLimits, SourceTree};
use docs_edge_core::docs::endpoint::REMOTE_MANIFEST;
use docs_edge_core::docs::file_kind::is_source;
use docs_edge_core::docs::openapi_nav::unfetched_remote_specs;
use docs_edge_core::docs::outline::SitePlan;
use docs_edge_core::docs::packed::{
    pack_object_name, FileTable, PackRead, PackWriter, SourcePack, Stored,
};
use docs_edge_core::docs::site::check_yaml_file;
use docs_edge_core::docs::Site;
use docs_edge_core::platform::deployment::publish_fetch_allowed;
use docs_edge_core::publish::kept::{
    batch_digest, batch_part, batch_stem, BatchPart, KeptBatch, KeptBatches, KEPT_BATCHES_OBJECT,
};
use docs_edge_core::publish::manifest::{file_hash, Manifest, ManifestFile, MANIFEST_OBJECT};
use docs_edge_core::publish::parsed::{
    page_keys, page_keys_from_digests, parsed_object, FileDigests, PageKey, Reused,
    PARSED_INDEX_OBJECT,
};
use docs_edge_core::publish::pieced::{Piece as BatchPieces, Pieces, PIECES_OBJECT};
use docs_edge_core::publish::{
    self, BatchInput, BatchRecord, BatchState, Finished, Finisher, Planned, PublishError,
    SourceWriter,
};
use docs_edge_core::search::shard::batched::{merge_group, ShardLayout};
use docs_edge_core::wire::{PublishState, PublishStatus};
use futures_channel::oneshot;
use futures_util::future::try_join;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::panic::AssertUnwindSafe;
use std::rc::Rc;
use std::time::Duration;
use worker::{durable_object, Bucket, DurableObject, Env, Range, Request, Response, Result, State};

const ACTIVE_KEY: &str = "active";
/// The ids of the publishes whose records are kept, oldest first.
const HISTORY_KEY: &str = "history";
/// Attempts at one step before the publish fails.
pub const MAX_ATTEMPTS: u32 = 3;
/// A reservation whose upload never started is released after this long.
const RESERVATION_MS: u64 = 10 * 60_000;
/// An alarm this late never fired.
const STALLED_ALARM_MS: i64 = 15_000;
/// Steps that start within this long of a run's start (an alarm's, or a waiting `start` call's) run
/// in it; later ones get an alarm of their own. Each new alarm costs a scheduling round trip, so a
/// site of a thousand pages (a dozen steps) should finish in one; the CPU limit (30 s by default)
/// leaves room for a step begun at the edge. Also how long a waiting `start`'s retry alarm waits.
const ALARM_STEPS_MS: u64 = 5_000;
const PLAN_OBJECT: &str = "plan.bin";

/// Where a publish is. Stored as `{"step":"batch","at":3}` or `{"step":"upload"}` (serde's adjacently
/// tagged form, through [`StepRecord`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "StepRecord", into = "StepRecord")]
enum Step {
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
struct StepRecord {
    step: StepName,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<u32>,
}

#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
enum StepName {
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
    step: Step,
    pub page_count: u32,
    pub created_at: String,
    created_ms: u64,
    pub updated_at: String,
    pub error: Option<String>,
    /// Whether the upload is at fault (the publish route answers 400 `invalid_archive`).
    pub invalid_upload: bool,
    source_bytes: u64,
    attempts: u32,
    batches: Vec<(u32, u32)>,
    layout: Option<ShardLayout>,
    batch_state: BatchState,
    /// Every batch's text-block and `llms-full.txt` bytes, and each group's term bytes.
    text_lens: Vec<u64>,
    llms_lens: Vec<u64>,
    group_lens: Vec<u64>,
    /// Every term shard's length, in shard order (groups append theirs).
    shard_lens: Vec<u64>,
    /// Whether its batches' text and Markdown are pieces in the site's store (every publish planned
    /// since the pieces): a record begun by an older build, which kept them beside its version,
    /// plans again.
    #[serde(default)]
    pieced: bool,
    /// Per batch, the stem of its objects in the site's store (`docs_edge_core::publish::kept`).
    #[serde(default)]
    batch_stems: Vec<String>,
    /// The finished version, once the finish step made it.
    version: Option<SiteVersion>,
    /// What the publish runs under, as the edge script sent it with `begin`.
    #[serde(default)]
    settings: JobSettings,
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
        }
    }

    fn progress_reply(&self) -> Progress {
        Progress {
            status: self.view(),
            invalid_upload: self.invalid_upload,
            version: self.version.clone(),
        }
    }

    /// The version a finished publish makes of `site`; `pieces`: its text pack and `llms-full.txt`
    /// are its batches' pieces.
    fn version_of(&self, site: Site, index_bytes: u64, pieces: bool) -> SiteVersion {
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

    fn active(&self) -> bool {
        matches!(self.status, PublishState::Queued | PublishState::Running)
    }

    /// Whether an alarm has a step to run: uploaded and not failed or done (a live publish still
    /// cleans up its intermediate objects).
    fn has_work(&self) -> bool {
        self.status != PublishState::Failed && !matches!(self.step, Step::Upload | Step::Done)
    }

    /// The pages of the batches before the one running; every planned page once the batches are done.
    fn pages_parsed(&self) -> u32 {
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
    fn progress(&self) -> f64 {
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

fn job_key(publish_id: &str) -> String {
    format!("job:{publish_id}")
}

/// The group ends of batch `b`'s partial postings, kept beside the record (one key per batch, so
/// no stored value grows with the site).
fn groups_key(batch: u32) -> String {
    format!("groups:{batch}")
}

/// What one instance keeps between alarms: the plan and the file table of the publish it runs.
struct Loaded {
    publish_id: String,
    plan: SitePlan,
    table: FileTable,
    /// The unpack's digests of the source files, if it stored them.
    digests: Option<FileDigests>,
    /// The live version's parsed pages, if it kept them.
    live_parsed: Option<LiveParsed>,
}

#[durable_object(alarm)]
pub struct PublishJob {
    state: State,
    env: Env,
    /// Asserted unwind-safe as in `ExportJob`: what a panic can leave behind is a cache.
    loaded: AssertUnwindSafe<RefCell<Option<Rc<Loaded>>>>,
    /// Whether this instance is running steps (in an alarm or a waiting `start`), so an alarm that
    /// fires meanwhile leaves them alone. Unwind-safe: the guard that sets it clears it as a panic
    /// unwinds.
    running: AssertUnwindSafe<Cell<bool>>,
}

impl DurableObject for PublishJob {
    fn new(state: State, env: Env) -> Self {
        Self {
            state,
            env,
            loaded: AssertUnwindSafe(RefCell::new(None)),
            running: AssertUnwindSafe(Cell::new(false)),
        }
    }

    async fn fetch(&self, mut req: Request) -> Result<Response> {
        let _span = DurableSpan::start("PublishJob", req.path());
        let result = match PublishJobOp::receive(&mut req).await {
            Err(err) => Err(err),
            Ok(PublishJobOp::Begin(begin)) => self.begin(begin).await.map(|r| r.view()),
            Ok(PublishJobOp::Start(start)) => {
                return match self.start(start).await {
                    Ok(record) => Response::from_json(&record.progress_reply()),
                    Err(err) => error_reply(&err),
                }
            }
            Ok(PublishJobOp::Abandon(start)) => {
                self.abandon(&start.publish_id).await.map(|r| r.view())
            }
            Ok(PublishJobOp::Status(query)) => {
                return match self.status(&query).await {
                    Ok(record) => Response::from_json(&record.progress_reply()),
                    Err(err) => error_reply(&err),
                }
            }
        };
        match result {
            Ok(view) => Response::from_json(&view),
            Err(err) => error_reply(&err),
        }
    }

    async fn alarm(&self) -> Result<Response> {
        let _span = DurableSpan::start("PublishJob", "alarm");
        if self.running.get() {
            // A `start` that waits is running the steps; this alarm is its retry path, still armed.
            self.state
                .storage()
                .set_alarm(Duration::from_millis(ALARM_STEPS_MS))
                .await?;
            return Response::ok("running");
        }
        let Some(id) = self.state.storage().get::<String>(ACTIVE_KEY).await? else {
            return Response::ok("idle");
        };
        Response::ok(self.run_steps(&id).await?)
    }
}

/// Marks the steps as running in this instance until dropped (a panic included).
struct Running<'a>(&'a Cell<bool>);

impl<'a> Running<'a> {
    fn start(flag: &'a Cell<bool>) -> Self {
        flag.set(true);
        Running(flag)
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.set(false);
    }
}

/// A step's failure: the upload's (or the stored data's) fault, final; or the platform's, retried.
enum StepError {
    Publish(PublishError),
    Api(ApiError),
}

impl From<PublishError> for StepError {
    fn from(err: PublishError) -> Self {
        StepError::Publish(err)
    }
}

impl From<ApiError> for StepError {
    fn from(err: ApiError) -> Self {
        StepError::Api(err)
    }
}

impl From<worker::Error> for StepError {
    fn from(err: worker::Error) -> Self {
        StepError::Api(err.into())
    }
}

type StepResult<T> = std::result::Result<T, StepError>;

impl PublishJob {
    /// Runs publish `id`'s steps back to back, until it is done or failed, a step fails (retried by
    /// an alarm), or [`ALARM_STEPS_MS`] have passed (the rest in alarms). Says how it ended.
    async fn run_steps(&self, id: &str) -> Result<&'static str> {
        let (outcome, next) = {
            let _running = Running::start(&self.running);
            self.step_loop(id).await?
        };
        // Armed once this instance runs no steps, so the alarm never finds them running and waits.
        if let Some(delay) = next {
            self.state.storage().set_alarm(delay).await?;
        }
        Ok(outcome)
    }

    /// [`Self::run_steps`]' loop: how it ended, and when the next alarm should run the rest.
    async fn step_loop(&self, id: &str) -> Result<(&'static str, Option<Duration>)> {
        let storage = self.state.storage();
        let Some(mut record) = storage.get_json::<Record>(&job_key(id)).await? else {
            return Ok(("idle", None));
        };
        if !record.has_work() {
            return Ok(("idle", None));
        }
        // Quick steps (a small site's every step) run back to back in one call; a step that starts
        // after this call has run for a while gets an alarm of its own.
        let started = now_ms();
        loop {
            if record.attempts >= MAX_ATTEMPTS {
                let reason = format!("publish failed after {MAX_ATTEMPTS} attempts at one step; the last one never finished (memory or CPU limit, or a crash)");
                self.fail(&mut record, reason, false)
                    .await
                    .map_err(alarm_error)?;
                return Ok(("failed", None));
            }
            // Stored before the step runs: if the step takes the isolate down, the attempt still counts.
            record.attempts += 1;
            if record.status == PublishState::Queued {
                record.status = PublishState::Running;
            }
            record.updated_at = now_iso();
            storage.put_json(&job_key(id), &record).await?;
            storage.sync().await?;
            self.injected_delay(&record).await;
            let stepped = self.step(&mut record).await;
            match stepped {
                Ok(()) => {
                    record.attempts = 0;
                    record.updated_at = now_iso();
                    storage.put_json(&job_key(id), &record).await?;
                    if !record.has_work() {
                        break;
                    }
                    // Live: whoever waits is answered now; the cleanup gets an alarm of its own.
                    if record.step == Step::Cleanup
                        || now_ms().saturating_sub(started) >= ALARM_STEPS_MS
                    {
                        return Ok(("stepped", Some(Duration::from_millis(0))));
                    }
                }
                Err(StepError::Publish(err)) => {
                    let invalid = err.is_invalid_upload();
                    self.fail(&mut record, err.to_string(), invalid)
                        .await
                        .map_err(alarm_error)?;
                    break;
                }
                Err(StepError::Api(err)) => {
                    let reason = err
                        .log_detail()
                        .map_or_else(|| err.public_message(), str::to_string);
                    crate::log_line::error(
                        &serde_json::json!({"event": "publish_step_failed", "publishId": id, "attempt": record.attempts, "error": reason}),
                    );
                    if record.attempts >= MAX_ATTEMPTS {
                        self.fail(&mut record, format!("publish failed after {MAX_ATTEMPTS} attempts at one step: {reason}"), false).await.map_err(alarm_error)?;
                    } else {
                        storage.put_json(&job_key(id), &record).await?;
                        return Ok((
                            "stepped",
                            Some(Duration::from_millis(250 << record.attempts)),
                        ));
                    }
                    break;
                }
            }
        }
        Ok(("stepped", None))
    }

    async fn begin(&self, begin: Begin) -> ApiResult<Record> {
        let storage = self.state.storage();
        if let Some(active) = self.active_record().await? {
            let abandoned = active.step == Step::Upload
                && now_ms().saturating_sub(active.created_ms) > RESERVATION_MS;
            if active.active() && !abandoned {
                self.rearm_if_lost(&active).await?;
                return Err(ApiError::Conflict {
                    code: "publish_in_progress",
                    message: format!("a publish of {} is in progress ({}); publish again once it is live or failed", begin.domain, active.publish_id),
                });
            }
        }
        let now = now_iso();
        let record = Record {
            publish_id: begin.publish_id.clone(),
            org_id: begin.org_id,
            domain: begin.domain,
            status: PublishState::Queued,
            step: Step::Upload,
            page_count: 0,
            created_at: now.clone(),
            created_ms: now_ms(),
            updated_at: now,
            error: None,
            invalid_upload: false,
            source_bytes: 0,
            attempts: 0,
            batches: Vec::new(),
            layout: None,
            batch_state: BatchState::default(),
            text_lens: Vec::new(),
            llms_lens: Vec::new(),
            group_lens: Vec::new(),
            shard_lens: Vec::new(),
            pieced: false,
            batch_stems: Vec::new(),
            version: None,
            settings: begin.settings,
        };
        storage
            .put_json(&job_key(&record.publish_id), &record)
            .await?;
        storage.put(ACTIVE_KEY, &record.publish_id).await?;
        self.prune_history(&record.publish_id, record.settings.kept_publishes)
            .await?;
        Ok(record)
    }

    /// Keeps the records of the domain's last [`KEPT_PUBLISHES`] publishes (their status resources):
    /// a domain published from CI on every commit would otherwise grow its storage for good. The
    /// newest, `publish_id`, is the active one, so the active record is never dropped.
    async fn prune_history(&self, publish_id: &str, kept: usize) -> ApiResult<()> {
        let storage = self.state.storage();
        let mut history: Vec<String> = storage.get_json(HISTORY_KEY).await?.unwrap_or_default();
        history.push(publish_id.to_owned());
        let kept = kept.max(1);
        if history.len() > kept {
            let dropped: Vec<String> = history
                .drain(..history.len() - kept)
                .map(|id| job_key(&id))
                .collect();
            storage.delete_multiple(dropped).await?;
        }
        storage.put_json(HISTORY_KEY, &history).await?;
        Ok(())
    }

    async fn start(&self, start: Start) -> ApiResult<Record> {
        let storage = self.state.storage();
        let mut record = self.record(&start.publish_id).await?;
        if record.step == Step::Upload && record.active() {
            record.step = Step::Unpack;
            record.source_bytes = start.source_bytes;
            record.updated_at = now_iso();
            storage
                .put_json(&job_key(&record.publish_id), &record)
                .await?;
            if !start.wait {
                storage.set_alarm(Duration::from_millis(0)).await?;
                return Ok(record);
            }
            storage
                .set_alarm(Duration::from_millis(ALARM_STEPS_MS))
                .await?;
            self.run_steps(&record.publish_id).await?;
            return self.record(&start.publish_id).await;
        }
        Ok(record)
    }

    async fn abandon(&self, publish_id: &str) -> ApiResult<Record> {
        let mut record = self.record(publish_id).await?;
        if record.step == Step::Upload && record.active() {
            self.fail(&mut record, "the upload did not complete".into(), true)
                .await?;
        }
        Ok(record)
    }

    async fn status(&self, query: &Query) -> ApiResult<Record> {
        let record = self.record(&query.publish_id).await?;
        if record.org_id != query.org_id {
            return Err(ApiError::NotFound("publish not found".into()));
        }
        self.rearm_if_lost(&record).await?;
        Ok(record)
    }

    /// Sets the alarm again when one is missing, or long overdue (lost with a stopped runtime).
    async fn rearm_if_lost(&self, record: &Record) -> ApiResult<()> {
        if !record.has_work() {
            return Ok(());
        }
        let storage = self.state.storage();
        let overdue = |at: i64| at < now_ms() as i64 - STALLED_ALARM_MS;
        if storage.get_alarm().await?.is_none_or(overdue) {
            storage.set_alarm(Duration::from_millis(0)).await?;
        }
        Ok(())
    }

    async fn record(&self, publish_id: &str) -> ApiResult<Record> {
        self.state
            .storage()
            .get_json::<Record>(&job_key(publish_id))
            .await?
            .ok_or_else(|| ApiError::NotFound("publish not found".into()))
    }

    async fn active_record(&self) -> ApiResult<Option<Record>> {
        let storage = self.state.storage();
        let Some(id) = storage.get::<String>(ACTIVE_KEY).await? else {
            return Ok(None);
        };
        Ok(storage.get_json::<Record>(&job_key(&id)).await?)
    }

    /// Ends a publish that did not go live: the previous version stays; the new one's objects
    /// are deleted (what a failed delete leaves, the retention sweep removes).
    async fn fail(
        &self,
        record: &mut Record,
        reason: String,
        invalid_upload: bool,
    ) -> ApiResult<()> {
        crate::log_line::error(
            &serde_json::json!({"event": "publish_failed", "publishId": record.publish_id, "domain": record.domain, "error": reason}),
        );
        record.status = PublishState::Failed;
        record.error = Some(reason);
        record.invalid_upload = invalid_upload;
        record.updated_at = now_iso();
        let storage = self.state.storage();
        storage
            .put_json(&job_key(&record.publish_id), &*record)
            .await?;
        storage.delete_alarm().await?;
        *self.loaded.borrow_mut() = None;
        let bucket = storage::bucket(&self.env)?;
        if let Err(err) = delete_prefix(
            &bucket,
            &version_key(&record.domain, &record.publish_id, ""),
        )
        .await
        {
            crate::log_line::error(
                &serde_json::json!({"event": "publish_cleanup_failed", "publishId": record.publish_id, "error": err.public_message()}),
            );
        }
        Ok(())
    }

    /// The test-only fault of the steps that parse or merge (see [`crate::config::test_only::publish_fault_domain`]).
    fn injected_fault(&self, record: &Record) -> StepResult<()> {
        if record.settings.test.publish_fault_domain.as_deref() != Some(record.domain.as_str()) {
            return Ok(());
        }
        crate::log_line::error(
            &serde_json::json!({"event": "publish_injected_fault", "publishId": record.publish_id}),
        );
        Err(StepError::Api(ApiError::Internal(
            "injected fault: the publish step failed".into(),
        )))
    }

    /// The test-only delay before each step (see [`crate::config::test_only::publish_step_delay`]).
    async fn injected_delay(&self, record: &Record) {
        let Some((domain, ms)) = &record.settings.test.publish_step_delay else {
            return;
        };
        let delay = Duration::from_millis(*ms);
        if *domain != record.domain || delay.is_zero() {
            return;
        }
        crate::log_line::info(
            &serde_json::json!({"event": "publish_step_delay", "publishId": record.publish_id, "step": record.step, "ms": delay.as_millis() as u64}),
        );
        worker::Delay::from(delay).await;
    }

    /// Runs the record's step, then logs what it took (`publish_step`: duration, R2 traffic, memory).
    async fn step(&self, record: &mut Record) -> StepResult<()> {
        let bucket = storage::bucket(&self.env)?;
        let (step, started) = (record.step, now_ms());
        let store = Store {
            bucket: &bucket,
            domain: record.domain.clone(),
            publish_id: record.publish_id.clone(),
            traffic: R2Traffic::default(),
            started,
        };
        let result = self.run_step(&store, record).await;
        let t = &store.traffic;
        crate::log_line::info(&serde_json::json!({
            "event": "publish_step", "publishId": record.publish_id, "step": step, "ok": result.is_ok(),
            "durationMs": now_ms().saturating_sub(started), "r2Reads": t.reads.get(), "r2ReadBytes": t.read_bytes.get(),
            "r2Writes": t.writes.get(), "r2WriteBytes": t.write_bytes.get(), "reusedPages": t.reused_pages.get(), "takenBatches": t.taken_batches.get(), "sharedPacks": t.shared_packs.get(), "phasesMs": *t.phases.borrow(), "wasmMemoryBytes": wasm_memory_bytes(),
        }));
        result
    }

    async fn run_step(&self, store: &Store<'_>, record: &mut Record) -> StepResult<()> {
        let bucket = store.bucket;
        record.step = match record.step {
            Step::Upload | Step::Done => return Ok(()),
            // Begun by an older build (its batches' text beside its version): planned again, unless
            // its concatenations are done (then it finishes as a version stored whole).
            Step::Batch(_) | Step::Merge(_) | Step::Concat if !record.pieced => Step::Plan,
            Step::Unpack => match self.unpack(store, &record.settings, &record.org_id).await? {
                Unpacked::Staged => Step::Plan,
                Unpacked::Small(packs, table, writes, _slot) => {
                    record.version = Some(
                        self.build_small(store, record, &packs, &table, writes)
                            .await?,
                    );
                    Step::Switch
                }
            },
            Step::Plan => {
                let planned = self.plan(store).await?;
                record.page_count = planned.plan.pages().len() as u32;
                record.batches = planned.batches.iter().map(|r| (r.start, r.end)).collect();
                record.layout = Some(planned.layout);
                record.batch_state = BatchState::default();
                record.text_lens.clear();
                record.llms_lens.clear();
                record.batch_stems.clear();
                record.pieced = true;
                Step::Batch(0)
            }
            Step::Batch(b) => {
                let done = self.batch(store, record, b).await?;
                if b + done < record.batches.len() as u32 {
                    Step::Batch(b + done)
                } else {
                    Step::Merge(0)
                }
            }
            Step::Merge(g) => {
                let layout = record
                    .layout
                    .ok_or_else(|| ApiError::Internal("publish has no layout".into()))?;
                if g == 0 {
                    record.group_lens.clear();
                    record.shard_lens.clear();
                }
                self.merge(store, record, layout, g).await?;
                if g + 1 < layout.group_count() {
                    Step::Merge(g + 1)
                } else {
                    Step::Concat
                }
            }
            Step::Concat => {
                // The term groups, merged here, are concatenated; the text pack and `llms-full.txt`
                // are the batches' pieces in the site's store, which the table lists (nothing copied).
                let terms = record.group_lens.iter().enumerate().map(|(g, len)| Piece {
                    key: store.key(&build_object(&format!("terms-{g:05}.bin"))),
                    offset: 0,
                    len: *len,
                });
                let pieces = record
                    .batch_stems
                    .iter()
                    .zip(record.text_lens.iter().zip(&record.llms_lens));
                let table = Pieces::new(
                    pieces
                        .map(|(stem, (text, llms))| BatchPieces {
                            stem: stem.clone(),
                            text: *text,
                            llms: *llms,
                        })
                        .collect(),
                );
                try_join(
                    store.concat(SEARCH_TERMS, terms),
                    store.put(PIECES_OBJECT, table.to_bytes()),
                )
                .await?;
                Step::Finish
            }
            Step::Finish => {
                record.version = Some(self.finish(store, record).await?);
                Step::Switch
            }
            Step::Switch => {
                let version = record
                    .version
                    .clone()
                    .ok_or_else(|| ApiError::Internal("publish has no version".into()))?;
                sites::switch_to(bucket, &record.domain, &version).await?;
                record.status = PublishState::Live;
                crate::log_line::info(
                    &serde_json::json!({"event": "publish_live", "publishId": record.publish_id, "domain": record.domain, "pageCount": version.page_count}),
                );
                Step::Cleanup
            }
            Step::Cleanup => {
                // Best effort: the retention sweep leaves the live version alone, build/ included.
                if let Err(err) = delete_prefix(
                    bucket,
                    &version_key(&record.domain, &record.publish_id, &build_object("")),
                )
                .await
                {
                    crate::log_line::error(
                        &serde_json::json!({"event": "publish_cleanup_failed", "publishId": record.publish_id, "error": err.public_message()}),
                    );
                }
                *self.loaded.borrow_mut() = None;
                Step::Done
            }
        };
        Ok(())
    }

    /// Inflates the stored upload into source packs and the file table as it streams in; a small
    /// site's packs are also kept, to build it in this step, unless another publish in this isolate
    /// is building one ([`InMemoryBuild`]).
    async fn unpack(
        &self,
        store: &Store<'_>,
        settings: &JobSettings,
        org_id: &str,
    ) -> StepResult<Unpacked> {
        let slot = InMemoryBuild::try_take();
        crate::log_line::info(
            &serde_json::json!({"event": "publish_unpack", "publishId": store.publish_id, "inMemorySlot": slot.is_some()}),
        );
        let mut small = slot.as_ref().map(|_| BTreeMap::new());
        let mut writes = Writes::default();
        let unpacked = async {
            let (mut table, digests) = self
                .unpack_into(
                    store,
                    &settings.archive_limits(),
                    org_id,
                    &mut small,
                    &mut writes,
                )
                .await?;
            fetch_remote_specs(store, settings, &mut table, &mut small).await?;
            Ok::<_, StepError>((table, digests))
        };
        let (table, digests) = match unpacked.await {
            Ok(table) => table,
            Err(err) => {
                // Nothing may land after the failure's cleanup.
                let _ = writes.finish().await;
                return Err(err);
            }
        };
        match small {
            None => {
                // The digests stay with the version: batch keys without reading the batch's files,
                // and the next re-publish's for the files it shares.
                store
                    .put_all(vec![
                        (store.key(SOURCE_FILE_TABLE), table.to_bytes()),
                        (store.key(SOURCE_DIGESTS), digests.to_bytes()),
                    ])
                    .await?;
                Ok(Unpacked::Staged)
            }
            Some(packs) => {
                let slot = slot.ok_or_else(|| {
                    ApiError::Internal("small site without the in-memory slot".into())
                })?;
                for (index, bytes) in &packs {
                    writes.start_at(store, store.pack_key(&table, *index), bytes.clone());
                }
                writes.start(store, SOURCE_FILE_TABLE, table.to_bytes());
                yield_now().await;
                Ok(Unpacked::Small(packs, table, writes, slot))
            }
        }
    }

    async fn unpack_into(
        &self,
        store: &Store<'_>,
        limits: &ArchiveLimits,
        record_org: &str,
        small: &mut Option<BTreeMap<u32, Vec<u8>>>,
        writes: &mut Writes,
    ) -> StepResult<(FileTable, FileDigests)> {
        if let Some(manifest) = store
            .bucket
            .get(store.key(MANIFEST_OBJECT))
            .execute()
            .await?
        {
            let bytes = manifest
                .body()
                .ok_or_else(|| ApiError::Internal("the manifest has no body".into()))?
                .bytes()
                .await?;
            store.traffic.read(bytes.len());
            let manifest = Manifest::from_bytes(&bytes)
                .map_err(|e| ApiError::Internal(format!("stored manifest: {e}")))?;
            return self
                .gather(store, limits, &manifest, record_org, small, writes)
                .await;
        }
        let mut writer = SourceWriter::new(limits);
        let mut media = MediaWrites::default();
        // One read, streamed: a chunk at a time is held, and its inflating overlaps the transfer.
        let object = store
            .bucket
            .get(store.key(SOURCE_OBJECT))
            .execute()
            .await?
            .ok_or_else(|| ApiError::Internal("the upload is missing".into()))?;
        let body = object
            .body()
            .ok_or_else(|| ApiError::Internal("the upload has no body".into()))?;
        let mut stream = body.stream()?;
        let mut read = 0;
        let outcome: StepResult<(FileTable, FileDigests)> = async {
            while let Some(chunk) = stream.next().await {
                let chunk = chunk?;
                read += chunk.len();
                // Small slices: a media file passes through as large as its slice inflates to.
                for slice in chunk.chunks(UNPACK_SLICE_BYTES) {
                    let stored = writer.push(slice)?;
                    store.put_stored(stored, small, writes, &mut media).await?;
                }
            }
            store.traffic.read(read);
            let (stored, table, digests) = writer.finish()?;
            store.put_stored(stored, small, writes, &mut media).await?;
            Ok((table, digests))
        }
        .await;
        if outcome.is_err() {
            media.abort().await;
        }
        outcome
    }

    /// A manifest's source files, read from the site's store a group at a time, into source packs;
    /// its media stay where they are, referred to by hash.
    /// Source files the live version (of this organization, published file by file) already holds
    /// under the same hash are not read one by one: a live pack in the site's store whose bytes the
    /// new version mostly uses is shared (the new table points into it, nothing is read or
    /// written, [`LiveSources::shared`]); the rest are copied from the live packs, a pack at a time.
    async fn gather(
        &self,
        store: &Store<'_>,
        limits: &ArchiveLimits,
        manifest: &Manifest,
        org_id: &str,
        small: &mut Option<BTreeMap<u32, Vec<u8>>>,
        writes: &mut Writes,
    ) -> StepResult<(FileTable, FileDigests)> {
        manifest.check_limits(limits).map_err(PublishError::from)?;
        let mut writer = PackWriter::new();
        let mut digests = FileDigests::default();
        let (sources, media): (Vec<&ManifestFile>, Vec<&ManifestFile>) =
            manifest.files.iter().partition(|f| is_source(&f.path));
        for file in media {
            writer.add_stored(
                file.path.clone(),
                file.size,
                Stored::SiteFile(file.hash.clone()),
            );
        }
        // A site too large to build in memory writes its packs as they fill, so it may share live ones.
        if sources.iter().map(|f| f.size).sum::<u64>() > publish::SMALL_SITE_BYTES {
            *small = None;
        }
        let live = LiveSources::open(store, org_id).await?;
        let (mut reused, sources): (Vec<&ManifestFile>, Vec<&ManifestFile>) = sources
            .into_iter()
            .partition(|f| live.as_ref().is_some_and(|l| l.holds(&f.hash)));
        if let (Some(live), None) = (&live, &small) {
            reused = live
                .shared(store, reused, &mut writer, &mut digests)
                .await?;
        }
        store.phase("shared");
        if let Some(live) = &live {
            // Old path -> the new paths with its bytes; a few old packs' files held at a time.
            let mut wanted: BTreeMap<String, Vec<&str>> = BTreeMap::new();
            for file in &reused {
                if let Some(old) = live.by_hash.get(&file.hash) {
                    wanted.entry(old.clone()).or_default().push(&file.path);
                }
            }
            let old_paths: BTreeSet<String> = wanted.keys().cloned().collect();
            // A few live packs' reads at once (each about a megabyte), their files added in order.
            for group in live.table.reads_for(&old_paths).chunks(LIVE_READS_AT_ONCE) {
                let trees = try_join_all(
                    group
                        .iter()
                        .map(|read| live.pack_files(store, *read, &old_paths)),
                )
                .await?;
                for (old, bytes) in trees.iter().flatten() {
                    for path in wanted.get(old).into_iter().flatten() {
                        digests.add(path, bytes);
                        // Stored as each fills: one old file may stand at many new paths.
                        if let Some(pack) = writer.add((*path).to_owned(), bytes) {
                            store.put_packs(vec![pack], small, writes).await?;
                        }
                    }
                }
            }
        }
        for group in sources.chunks(GATHER_READS) {
            let reads = group.iter().map(|file| async move {
                let key = site_file_key(&store.domain, &file.hash);
                storage::read(store.bucket, &key, None)
                    .await?
                    .ok_or_else(|| {
                        ApiError::Internal(format!(
                            "{} ({}) left the site's store",
                            file.path, file.hash
                        ))
                    })
            });
            let fetched = try_join_all(reads).await?;
            let mut packs = Vec::new();
            for (file, bytes) in group.iter().zip(fetched) {
                store.traffic.read(bytes.len());
                check_yaml_file(&file.path, &bytes).map_err(PublishError::from)?;
                digests.add(&file.path, &bytes);
                packs.extend(writer.add(file.path.clone(), &bytes));
            }
            store.put_packs(packs, small, writes).await?;
        }
        let (last, table) = writer.finish().map_err(PublishError::from)?;
        store.put_packs(last, small, writes).await?;
        Ok((table, digests))
    }

    /// Every step after the unpack of a small site, in memory; only the final objects are written,
    /// each started as soon as it is made. `writes`: the packs' and the table's, still going.
    async fn build_small(
        &self,
        store: &Store<'_>,
        record: &mut Record,
        packs: &BTreeMap<u32, Vec<u8>>,
        table: &FileTable,
        mut writes: Writes,
    ) -> StepResult<SiteVersion> {
        store.phase("unpack");
        let (finished, index_bytes) = match self
            .build_small_writing(store, record, packs, table, &mut writes)
            .await
        {
            Ok(built) => built,
            Err(err) => {
                // Every write started lands before the step ends (the failed publish then deletes them all).
                let _ = writes.finish().await;
                return Err(err);
            }
        };
        // Its batches stay beside it (none for a re-publish to take); its packs are in the store.
        writes.start(
            store,
            KEPT_BATCHES_OBJECT,
            KeptBatches::new(Vec::new())
                .with_packs(table.pack_objects().to_vec())
                .to_bytes(),
        );
        let site = store.put_finished(finished, writes).await?;
        store.phase("written");
        Ok(record.version_of(site, index_bytes, false))
    }

    /// [`Self::build_small`]'s build: starts the writes of the final objects but the finish step's;
    /// returns those and the index bytes.
    async fn build_small_writing(
        &self,
        store: &Store<'_>,
        record: &mut Record,
        packs: &BTreeMap<u32, Vec<u8>>,
        table: &FileTable,
        writes: &mut Writes,
    ) -> StepResult<(Finished, u64)> {
        let small = publish::plan_small_site(packs, table, &record.domain)?;
        let live = LiveParsed::open(store.bucket, &store.domain, &record.org_id).await;
        let reused = store.reused(live.as_ref(), small.keys()).await;
        drop(live);
        store.phase("read");
        let parsed = publish::parse_small_site(small, packs, table, &record.domain, &reused)?;
        drop(reused);
        store.traffic.reused_pages.set(parsed.reused_pages);
        store.phase("parse");
        for (b, bytes) in parsed.parsed.into_iter().enumerate() {
            writes.start(store, &parsed_object(b as u32), bytes);
        }
        self.injected_fault(record)?;
        let text_bytes = parsed.text.len() as u64;
        writes.start(store, SEARCH_TEXT, parsed.text);
        writes.start(store, LLMS_FULL_TXT, parsed.llms_full);
        yield_now().await;
        let built = parsed.rest.finish(&record.domain)?;
        store.phase("merge");
        record.page_count = built.finished.site.pages.len() as u32;
        record.layout = Some(built.layout);
        let index_bytes = (built.finished.meta.len() + built.terms.len()) as u64 + text_bytes;
        writes.start(store, SEARCH_TERMS, built.terms);
        Ok((built.finished, index_bytes))
    }

    async fn plan(&self, store: &Store<'_>) -> StepResult<Planned> {
        let table = FileTable::from_bytes(&store.get(SOURCE_FILE_TABLE).await?)
            .map_err(PublishError::from)?;
        let config: BTreeSet<String> = publish::config_files(&table).into_iter().collect();
        let tree = store.files(&table, &config).await?;
        let planned = publish::plan(&tree, &table)?;
        store
            .put(&build_object(PLAN_OBJECT), planned.plan.to_bytes())
            .await?;
        *self.loaded.borrow_mut() = None;
        Ok(planned)
    }

    async fn load(&self, store: &Store<'_>, org_id: &str) -> StepResult<Rc<Loaded>> {
        if let Some(loaded) = self.loaded.borrow().as_ref() {
            if loaded.publish_id == store.publish_id.as_str() {
                return Ok(loaded.clone());
            }
        }
        let table = FileTable::from_bytes(&store.get(SOURCE_FILE_TABLE).await?)
            .map_err(PublishError::from)?;
        let plan = SitePlan::from_bytes(&store.get(&build_object(PLAN_OBJECT)).await?)
            .map_err(PublishError::from)?;
        let live_parsed = LiveParsed::open(store.bucket, &store.domain, org_id).await;
        // Absent (a publish begun by an older build): batches read their files for their keys.
        let digests = match storage::read(store.bucket, &store.key(SOURCE_DIGESTS), None).await? {
            Some(bytes) => FileDigests::from_bytes(&bytes).ok(),
            None => None,
        };
        let loaded = Rc::new(Loaded {
            publish_id: store.publish_id.clone(),
            plan,
            table,
            digests,
            live_parsed,
        });
        *self.loaded.borrow_mut() = Some(loaded.clone());
        Ok(loaded)
    }

    /// Batch `b`, built or taken whole from the live version; with it, as many of the next batches
    /// (up to [`TAKE_AT_ONCE`]) as are taken whole too. Returns how many batches it did.
    async fn batch(&self, store: &Store<'_>, record: &mut Record, b: u32) -> StepResult<u32> {
        self.injected_fault(record)?;
        let loaded = self.load(store, &record.org_id).await?;
        let layout = record
            .layout
            .ok_or_else(|| ApiError::Internal("publish has no layout".into()))?;
        let &(start, end) = record
            .batches
            .get(b as usize)
            .ok_or_else(|| ApiError::Internal(format!("no batch {b}")))?;
        let range = start..end;
        let files = publish::batch_files(&loaded.plan, &range, &loaded.table);
        let from_digests = loaded.digests.as_ref().and_then(|d| {
            page_keys_from_digests(&loaded.plan, &range, &loaded.table, d, &record.domain)
        });
        let keys = match from_digests {
            Some(keys) => keys,
            None => page_keys(
                &loaded.plan,
                &range,
                &loaded.table,
                &store.files(&loaded.table, &files).await?,
                &record.domain,
            ),
        };
        let mut state = record.batch_state.clone();
        record.text_lens.truncate(b as usize);
        record.llms_lens.truncate(b as usize);
        record.batch_stems.truncate(b as usize);
        if let Some(live) = loaded.live_parsed.as_ref() {
            // The run of batches from `b` the live version kept, each found at the cursor where the
            // one before it ends.
            let (mut run, mut cursor) = (Vec::new(), state.search);
            for i in b..(b + TAKE_AT_ONCE).min(record.batches.len() as u32) {
                let (first, end) = record.batches[i as usize];
                let range_i = first..end;
                let keys_i = match i == b {
                    true => Some(keys.clone()),
                    false => loaded.digests.as_ref().and_then(|d| {
                        page_keys_from_digests(
                            &loaded.plan,
                            &range_i,
                            &loaded.table,
                            d,
                            &record.domain,
                        )
                    }),
                };
                let Some(found) = keys_i.and_then(|k| {
                    live.find(&batch_digest(&loaded.plan, &range_i, &k, &layout), &cursor)
                }) else {
                    break;
                };
                cursor = found.1.end;
                run.push((i, found, range_i.len() as u32));
            }
            // The new version refers to the run's objects where they are (nothing is copied): only
            // the run's unbroken start whose objects the store still holds is taken.
            let present = run.iter().map(|(_, (_, kept), _)| async move {
                Ok::<_, ApiError>(live.present(store.bucket, &store.domain, kept).await)
            });
            let taken = try_join_all(present)
                .await?
                .into_iter()
                .take_while(|p| *p)
                .count();
            if taken > 0 {
                let run = &run[..taken];
                if !live.pieced {
                    // The live version keeps them whole: this publish's batches refer to pieces.
                    for (_, (_, kept), _) in run {
                        store.copy_pieces(&live.publish_id, kept).await?;
                    }
                }
                store.phase("read");
                for (i, (_, kept), pages) in run.iter().cloned() {
                    store
                        .traffic
                        .reused_pages
                        .set(store.traffic.reused_pages.get() + pages);
                    state.search = kept.end;
                    self.state
                        .storage()
                        .put(&groups_key(i), &kept.group_ends)
                        .await?;
                    record.text_lens.push(kept.text.1);
                    record.llms_lens.push(kept.llms.1);
                    record.batch_stems.push(kept.stem());
                }
                store.traffic.taken_batches.set(taken as u32);
                record.batch_state = state;
                return Ok(taken as u32);
            }
        }
        let tree = store.files(&loaded.table, &files).await?;
        let reused = store.reused(loaded.live_parsed.as_ref(), &keys).await;
        store.phase("read");
        let input = BatchInput {
            batch: b,
            range,
            tree: &tree,
            keys: &keys,
        };
        let result = publish::run_batch(
            &loaded.plan,
            input,
            &layout,
            &reused,
            &mut state,
            &record.domain,
        )?;
        drop((tree, reused));
        store.phase("build");
        store.traffic.reused_pages.set(result.reused_pages);
        let stem = batch_stem(&result.record.digest, &result.record.start);
        let (text_len, llms_len) = (result.text.len() as u64, result.llms.len() as u64);
        let record_bytes = result.record.to_bytes();
        let parts = [
            (BatchPart::Parsed, result.parsed),
            (BatchPart::Postings, result.postings),
            (BatchPart::Record, record_bytes),
            (BatchPart::Text, result.text),
            (BatchPart::Llms, result.llms),
        ];
        store
            .put_all(
                parts
                    .map(|(part, bytes)| (store.batch_key(&stem, part), bytes))
                    .into_iter()
                    .collect(),
            )
            .await?;
        self.state
            .storage()
            .put(&groups_key(b), &result.group_ends)
            .await?;
        record.text_lens.push(text_len);
        record.llms_lens.push(llms_len);
        record.batch_stems.push(stem);
        record.batch_state = state;
        Ok(1)
    }

    async fn merge(
        &self,
        store: &Store<'_>,
        record: &mut Record,
        layout: ShardLayout,
        g: u32,
    ) -> StepResult<()> {
        self.injected_fault(record)?;
        let storage = self.state.storage();
        let mut ranges = Vec::with_capacity(record.batches.len());
        for b in 0..record.batches.len() as u32 {
            let ends: Vec<u64> = storage
                .get(&groups_key(b))
                .await?
                .ok_or_else(|| ApiError::Internal(format!("batch {b} has no group ends")))?;
            let start = if g == 0 {
                0
            } else {
                ends.get(g as usize - 1).copied().unwrap_or(0)
            };
            let end = ends
                .get(g as usize)
                .copied()
                .ok_or_else(|| ApiError::Internal(format!("batch {b} has no group {g}")))?;
            let stem = record
                .batch_stems
                .get(b as usize)
                .ok_or_else(|| ApiError::Internal(format!("batch {b} has no objects")))?;
            ranges.push((
                store.batch_key(stem, BatchPart::Postings),
                start,
                end - start,
            ));
        }
        // Every batch's range is held for the merge anyway: read them at once.
        let parts = try_join_all(
            ranges
                .iter()
                .map(|(key, start, len)| store.read_range(key, *start, *len)),
        )
        .await?;
        let chunk_count = record.batch_state.search.chunks as usize;
        let merged = merge_group(&layout, g, &parts, chunk_count).map_err(PublishError::from)?;
        drop(parts);
        let len = merged.bytes.len() as u64;
        store
            .put(&build_object(&format!("terms-{g:05}.bin")), merged.bytes)
            .await?;
        let shards_before = layout.group(0).len() * g as usize;
        record.shard_lens.truncate(shards_before);
        record.shard_lens.extend(merged.shard_lens);
        record.group_lens.truncate(g as usize);
        record.group_lens.push(len);
        Ok(())
    }

    async fn finish(&self, store: &Store<'_>, record: &Record) -> StepResult<SiteVersion> {
        let loaded = self.load(store, &record.org_id).await?;
        let mut finisher = Finisher::default();
        finisher.refer_packs(loaded.table.pack_objects());
        // A few records read ahead, folded in order: the reads overlap, a few records are held.
        let mut records = futures_util::stream::iter(
            record
                .batch_stems
                .iter()
                .map(|stem| store.get_at_owned(store.batch_key(stem, BatchPart::Record))),
        )
        .buffered(RECORDS_AT_ONCE);
        let mut b = 0;
        while let Some(bytes) = records.next().await {
            finisher.add(
                BatchRecord::from_bytes(&bytes?)
                    .map_err(PublishError::from)?
                    .kept_as(b),
            );
            b += 1;
        }
        drop(records);
        let mut finished =
            finisher.finish(loaded.plan.clone(), &record.shard_lens, &record.domain)?;
        let index_bytes = finished.meta.len() as u64
            + record.group_lens.iter().sum::<u64>()
            + record.text_lens.iter().sum::<u64>();
        // Only a staged publish keeps its batches for the next to take: the index lists the batch
        // objects this version refers to in the site's store (the storage sweep counts it).
        let mut writes = Writes::default();
        writes.start(
            store,
            KEPT_BATCHES_OBJECT,
            std::mem::take(&mut finished.kept_batches),
        );
        let site = store.put_finished(finished, writes).await?;
        Ok(record.version_of(site, index_bytes, record.pieced))
    }
}

/// How the unpack left a publish: staged (the plan next), or a small site, its packs by index and
/// its file table in hand, holding the isolate's in-memory slot until it is built.
enum Unpacked {
    Staged,
    Small(BTreeMap<u32, Vec<u8>>, FileTable, Writes, InMemoryBuild),
}

/// Writes started in the background: a small site's packs go to R2 while its pages are parsed.
#[derive(Default)]
struct Writes(Vec<oneshot::Receiver<worker::Result<()>>>);

impl Writes {
    fn start(&mut self, store: &Store<'_>, name: &str, bytes: Vec<u8>) {
        self.start_at(store, store.key(name), bytes);
    }

    /// [`Writes::start`] of the object `key`, anywhere in the bucket.
    fn start_at(&mut self, store: &Store<'_>, key: String, bytes: Vec<u8>) {
        store.traffic.wrote(bytes.len());
        let (done, handle) = oneshot::channel();
        let bucket = store.bucket.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let _ = done.send(bucket.put(key, bytes).execute().await.map(drop));
        });
        self.0.push(handle);
    }

    /// Waits for every write started (all of them, so none lands later); the first failure.
    async fn finish(&mut self) -> ApiResult<()> {
        let mut outcome = Ok(());
        for handle in self.0.drain(..) {
            let written = match handle.await {
                Ok(written) => written.map_err(ApiError::from),
                Err(_) => Err(ApiError::Internal("a background write was dropped".into())),
            };
            outcome = outcome.and(written);
        }
        outcome
    }
}

/// Remote specs fetched at most per publish, and the bytes each may have.
const MAX_REMOTE_SPECS: usize = 16;
const MAX_REMOTE_SPEC_BYTES: usize = 10_000_000;

/// Remote OpenAPI specs the navigation names and the upload lacks (a `.tar.gz` PUT, or publish-docs
/// with `--no-fetch`): fetched once, here, under the deployment's outbound rule
/// (`publish_fetch_allowed`), at most 10 MB each, and kept with the version in a source pack of
/// their own, mapped in `.docs-edge/remote.json` as publish-docs maps what it downloads. Each is a
/// warning either way. Exports never fetch: they read what the version kept.
async fn fetch_remote_specs(
    store: &Store<'_>,
    settings: &JobSettings,
    table: &mut FileTable,
    small: &mut Option<BTreeMap<u32, Vec<u8>>>,
) -> StepResult<()> {
    let paths: BTreeSet<String> = publish::config_files(table).into_iter().collect();
    let config = match small {
        Some(packs) => table.tree_from_packs(packs, &paths),
        None => store.files(table, &paths).await?,
    };
    let urls = unfetched_remote_specs(&config);
    if urls.is_empty() {
        return Ok(());
    }
    let config_file = if config.contains_key("docs.json") {
        "docs.json"
    } else {
        "mint.json"
    };
    let mut remote: serde_json::Map<String, serde_json::Value> = config
        .get(REMOTE_MANIFEST)
        .and_then(|b| serde_json::from_slice(b).ok())
        .unwrap_or_default();
    let (mut files, mut warnings) = (Vec::new(), Vec::new());
    for url in urls.iter().take(MAX_REMOTE_SPECS) {
        match fetch_spec(url, settings).await {
            Ok(bytes) => {
                store.traffic.read(bytes.len());
                let ext = if url.to_ascii_lowercase().split(['?', '#']).next().is_some_and(|p| p.ends_with(".yaml") || p.ends_with(".yml")) { ".yaml" } else { ".json" };
                let path = format!(".docs-edge/remote/{}{ext}", file_hash(&bytes));
                check_yaml_file(&path, &bytes).map_err(PublishError::from)?;
                warnings.push(format!("{config_file}: openapi spec {url} was not in the upload; fetched at publish time and kept with this version"));
                remote.insert(url.clone(), path.clone().into());
                files.push((path, bytes));
            }
            Err(why) => warnings.push(format!("{config_file}: openapi spec {url} was not in the upload and could not be fetched ({why}); its pages are left out")),
        }
    }
    if urls.len() > MAX_REMOTE_SPECS {
        warnings.push(format!("{config_file}: {} more remote specs were not fetched (at most {MAX_REMOTE_SPECS} a publish)", urls.len() - MAX_REMOTE_SPECS));
    }
    if !files.is_empty() {
        files.push((
            REMOTE_MANIFEST.to_owned(),
            serde_json::to_vec(&remote).map_err(ApiError::from)?,
        ));
    }
    if let Some(pack) = table.add_files(files, warnings) {
        match small {
            Some(packs) => drop(packs.insert(pack.index, pack.bytes)),
            None => {
                store
                    .put_at(store.pack_key(table, pack.index), pack.bytes)
                    .await?
            }
        }
    }
    Ok(())
}

/// One remote spec's bytes, or why not.
async fn fetch_spec(url: &str, settings: &JobSettings) -> std::result::Result<Vec<u8>, String> {
    publish_fetch_allowed(
        settings.air_gapped,
        url,
        &settings.internal_hosts,
        settings.test.fetch_loopback_http,
    )?;
    let mut init = worker::RequestInit::new();
    // A redirect could lead to an address the rule above refuses: it is not followed (Workers
    // support only `follow` and `manual`), and a 3xx is a failure below.
    init.redirect = worker::RequestRedirect::Manual;
    let request = Request::new_with_init(url, &init).map_err(|e| e.to_string())?;
    let mut response = worker::Fetch::Request(request)
        .send()
        .await
        .map_err(|e| format!("unreachable: {e}"))?;
    match response.status_code() {
        200..=299 => {}
        status @ 300..=399 => return Err(format!("HTTP {status}: redirects are not followed")),
        status => return Err(format!("HTTP {status}")),
    }
    let mut stream = response.stream().map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| e.to_string())?;
        if bytes.len() + chunk.len() > MAX_REMOTE_SPEC_BYTES {
            return Err(format!("larger than {MAX_REMOTE_SPEC_BYTES} bytes"));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// The live version's source packs, as a re-publish reads unchanged files from them.
struct LiveSources {
    publish_id: String,
    table: FileTable,
    /// Hash -> a path the live version holds those bytes at, in a source pack.
    by_hash: BTreeMap<String, String>,
    /// The live version's file digests (absent before they were kept with it: nothing is shared).
    digests: Option<FileDigests>,
}

impl LiveSources {
    /// `None` unless the live version is this organization's and was published file by file.
    async fn open(store: &Store<'_>, org_id: &str) -> ApiResult<Option<LiveSources>> {
        let Some(version) = sites::current_version(store.bucket, &store.domain, org_id).await?
        else {
            return Ok(None);
        };
        let key = |name: &str| version_key(&store.domain, &version.publish_id, name);
        let Some(manifest) = storage::read(store.bucket, &key(MANIFEST_OBJECT), None).await? else {
            return Ok(None);
        };
        let Some(table) = storage::read(store.bucket, &key(SOURCE_FILE_TABLE), None).await? else {
            return Ok(None);
        };
        store.traffic.read(manifest.len() + table.len());
        let (Ok(manifest), Ok(table)) = (
            Manifest::from_bytes(&manifest),
            FileTable::from_bytes(&table),
        ) else {
            return Ok(None);
        };
        let digests = match storage::read(store.bucket, &key(SOURCE_DIGESTS), None).await? {
            Some(bytes) => {
                store.traffic.read(bytes.len());
                FileDigests::from_bytes(&bytes).ok()
            }
            None => None,
        };
        let by_hash = manifest
            .files
            .into_iter()
            .filter(|f| {
                table
                    .get(&f.path)
                    .is_some_and(|e| e.stored == Stored::Source)
            })
            .map(|f| (f.hash, f.path))
            .collect();
        Ok(Some(LiveSources {
            publish_id: version.publish_id,
            table,
            by_hash,
            digests,
        }))
    }

    fn holds(&self, hash: &str) -> bool {
        self.by_hash.contains_key(hash)
    }

    /// Shares with the new version (`writer`, before it packs anything) the live packs in the
    /// site's store that `files` (all held live) fill at least half of, and that the store still
    /// holds: their files are added pointing into them, with the live digests. Returns the files
    /// left to copy. Half: a shared pack's other bytes are dead weight the versions carry, so a
    /// pack mostly replaced is rewritten instead.
    async fn shared<'m>(
        &self,
        store: &Store<'_>,
        files: Vec<&'m ManifestFile>,
        writer: &mut PackWriter,
        digests: &mut FileDigests,
    ) -> ApiResult<Vec<&'m ManifestFile>> {
        let Some(live_digests) = &self.digests else {
            return Ok(files);
        };
        let entry = |file: &ManifestFile| {
            self.by_hash
                .get(&file.hash)
                .and_then(|path| self.table.get(path))
                .filter(|e| e.stored == Stored::Source)
        };
        let mut size: BTreeMap<u32, u64> = BTreeMap::new();
        for e in self
            .table
            .files()
            .iter()
            .filter(|e| e.stored == Stored::Source)
        {
            let end = u64::from(e.offset) + u64::from(e.len);
            size.entry(e.pack)
                .and_modify(|s| *s = (*s).max(end))
                .or_insert(end);
        }
        let mut used: BTreeMap<u32, BTreeMap<u32, u32>> = BTreeMap::new();
        for e in files.iter().filter_map(|f| entry(f)) {
            used.entry(e.pack).or_default().insert(e.offset, e.len);
        }
        let wanted: Vec<u32> = used
            .iter()
            .filter(|(pack, ranges)| {
                2 * ranges.values().map(|l| u64::from(*l)).sum::<u64>()
                    >= size.get(pack).copied().unwrap_or(0)
            })
            .filter(|(pack, _)| self.table.pack_object(**pack).is_some())
            .map(|(pack, _)| *pack)
            .collect();
        let mut present = Vec::new();
        for group in wanted.chunks(HEADS_AT_ONCE) {
            let heads = group.iter().map(|pack| {
                store.bucket.head(source_pack_key(
                    &store.domain,
                    &self.publish_id,
                    &self.table,
                    *pack,
                ))
            });
            present.extend(
                group
                    .iter()
                    .zip(try_join_all(heads).await?)
                    .filter(|(_, head)| head.is_some())
                    .map(|(pack, _)| *pack),
            );
        }
        let mut index = BTreeMap::new();
        for pack in present {
            let name = self.table.pack_object(pack).unwrap_or_default().to_owned();
            match writer.share(name) {
                Some(new) => drop(index.insert(pack, new)),
                None => break,
            }
        }
        let mut rest = Vec::new();
        for file in files {
            let shared = self
                .by_hash
                .get(&file.hash)
                .and_then(|old| Some((old, entry(file)?)))
                .and_then(|(old, e)| Some((index.get(&e.pack)?, e, live_digests.get(old)?)));
            match shared {
                Some((&pack, e, digest)) => {
                    writer.add_in(file.path.clone(), pack, e.offset, e.len, e.imports.clone());
                    digests.add_digest(&file.path, digest);
                }
                None => rest.push(file),
            }
        }
        store.traffic.shared_packs.set(index.len() as u32);
        Ok(rest)
    }

    /// The files of `paths` that one ranged read of a live pack holds.
    async fn pack_files(
        &self,
        store: &Store<'_>,
        read: PackRead,
        paths: &BTreeSet<String>,
    ) -> ApiResult<SourceTree> {
        let key = source_pack_key(&store.domain, &self.publish_id, &self.table, read.pack);
        let bytes = storage::read(
            store.bucket,
            &key,
            Some(u64::from(read.start)..u64::from(read.end)),
        )
        .await?
        .ok_or_else(|| ApiError::Internal(format!("{key} is missing")))?;
        store.traffic.read(bytes.len());
        Ok(self.table.tree_from(paths, &[(read, bytes)]))
    }
}

/// Batches taken whole from the live version in one step at most, their reads and writes at once
/// (a batch's postings and parsed pages: about 1 MB).
const TAKE_AT_ONCE: u32 = 8;

/// Batch records the finish reads ahead of the one it folds in.
const RECORDS_AT_ONCE: usize = 8;

/// Files of a manifest read from the store at once.
const GATHER_READS: usize = 32;

/// `HEAD` requests a re-publish sends at once (live packs it would share).
const HEADS_AT_ONCE: usize = 16;

/// Ranges of the live version's source packs a re-publish reads at once.
const LIVE_READS_AT_ONCE: usize = 4;

/// Compressed bytes fed to the unpacker at a time: a media file's piece is what this inflates to.
const UNPACK_SLICE_BYTES: usize = 16 << 10;

/// The large media file being streamed into its own object, if any.
#[derive(Default)]
struct MediaWrites<'a>(Option<PartWriter<'a>>);

impl<'a> MediaWrites<'a> {
    fn start(&mut self, writer: PartWriter<'a>) {
        self.0 = Some(writer);
    }

    async fn write(&mut self, bytes: &[u8]) -> ApiResult<()> {
        match &mut self.0 {
            Some(writer) => Ok(writer.write(bytes).await?),
            None => Err(ApiError::Internal("media data outside a media file".into())),
        }
    }

    async fn finish(&mut self) -> ApiResult<u64> {
        match self.0.take() {
            Some(writer) => Ok(writer.finish().await?),
            None => Err(ApiError::Internal(
                "a media file ended that never began".into(),
            )),
        }
    }

    async fn abort(&mut self) {
        if let Some(writer) = self.0.take() {
            writer.abort("publish_media").await;
        }
    }
}

/// Lets the writes started so far get going before a long computation holds the isolate: a
/// timer, not a resolved promise, so the runtime's event loop turns (sending their requests and
/// as much of their bodies as the connection takes), not only the microtask queue.
async fn yield_now() {
    worker::Delay::from(Duration::ZERO).await;
}

/// R2 traffic of one step, and the milliseconds into it at which its phases ended, for its
/// `publish_step` log line.
#[derive(Default)]
struct R2Traffic {
    phases: RefCell<serde_json::Map<String, serde_json::Value>>,
    reads: Cell<u32>,
    read_bytes: Cell<u64>,
    writes: Cell<u32>,
    write_bytes: Cell<u64>,
    /// Pages taken from the live version's parsed pages rather than parsed.
    reused_pages: Cell<u32>,
    /// Batches the step took whole from the live version.
    taken_batches: Cell<u32>,
    /// Live source packs the step shared rather than copied.
    shared_packs: Cell<u32>,
}

impl R2Traffic {
    fn read(&self, bytes: usize) {
        self.reads.set(self.reads.get() + 1);
        self.read_bytes.set(self.read_bytes.get() + bytes as u64);
    }

    fn wrote(&self, bytes: usize) {
        self.writes.set(self.writes.get() + 1);
        self.write_bytes.set(self.write_bytes.get() + bytes as u64);
    }
}

/// The objects of one version in R2.
struct Store<'a> {
    bucket: &'a Bucket,
    domain: String,
    publish_id: String,
    traffic: R2Traffic,
    /// When the step began (ms since the epoch).
    started: u64,
}

impl<'a> Store<'a> {
    fn key(&self, name: &str) -> String {
        version_key(&self.domain, &self.publish_id, name)
    }

    /// Marks the end of the step's phase `name`.
    fn phase(&self, name: &str) {
        self.traffic
            .phases
            .borrow_mut()
            .insert(name.into(), now_ms().saturating_sub(self.started).into());
    }

    /// Source pack `pack` of this version, whose file table is `table`.
    fn pack_key(&self, table: &FileTable, pack: u32) -> String {
        source_pack_key(&self.domain, &self.publish_id, table, pack)
    }

    /// Part `part` of batch `stem`, in the site's store.
    fn batch_key(&self, stem: &str, part: BatchPart) -> String {
        site_file_key(&self.domain, &batch_part(stem, part))
    }

    async fn put(&self, name: &str, bytes: Vec<u8>) -> ApiResult<()> {
        self.put_at(self.key(name), bytes).await
    }

    async fn put_at(&self, key: String, bytes: Vec<u8>) -> ApiResult<()> {
        self.traffic.wrote(bytes.len());
        self.bucket.put(key, bytes).execute().await?;
        Ok(())
    }

    /// Writes the objects (by key) at once.
    async fn put_all(&self, objects: Vec<(String, Vec<u8>)>) -> ApiResult<()> {
        try_join_all(
            objects
                .into_iter()
                .map(|(key, bytes)| self.put_at(key, bytes)),
        )
        .await?;
        Ok(())
    }

    /// Stores what the unpack made: media packs and large media at once (a media object streamed a
    /// piece at a time), source packs through [`Store::put_packs`].
    async fn put_stored(
        &self,
        stored: Vec<publish::Stored>,
        small: &mut Option<BTreeMap<u32, Vec<u8>>>,
        writes: &mut Writes,
        media: &mut MediaWrites<'a>,
    ) -> ApiResult<()> {
        let mut packs = Vec::new();
        for item in stored {
            match item {
                publish::Stored::Pack(pack) if pack.media => {
                    self.put(&media_pack(pack.index), pack.bytes).await?
                }
                publish::Stored::Pack(pack) => packs.push(pack),
                publish::Stored::ObjectStart { name, .. } => {
                    media.start(PartWriter::new(self.bucket, self.key(&name)))
                }
                publish::Stored::ObjectData(bytes) => media.write(&bytes).await?,
                publish::Stored::ObjectEnd => self.traffic.wrote(media.finish().await? as usize),
            }
        }
        if !packs.is_empty() {
            self.put_packs(packs, small, writes).await?;
        }
        Ok(())
    }

    /// Writes source packs, or keeps them in `small` while their total stays within
    /// [`publish::SMALL_SITE_BYTES`] (the unpack writes those once the upload is read: R2 would
    /// serve that read and these writes at once). Past the bound `small` becomes `None` for good,
    /// its packs written then, and every later one at once.
    async fn put_packs(
        &self,
        packs: Vec<SourcePack>,
        small: &mut Option<BTreeMap<u32, Vec<u8>>>,
        writes: &mut Writes,
    ) -> ApiResult<()> {
        if let Some(held) = small {
            let bytes: u64 = held
                .values()
                .chain(packs.iter().map(|p| &p.bytes))
                .map(|b| b.len() as u64)
                .sum();
            if bytes <= publish::SMALL_SITE_BYTES {
                held.extend(packs.into_iter().map(|p| (p.index, p.bytes)));
                return Ok(());
            }
            for bytes in std::mem::take(held).into_values() {
                writes.start_at(
                    self,
                    site_file_key(&self.domain, &pack_object_name(&bytes)),
                    bytes,
                );
            }
            *small = None;
        }
        writes.finish().await?;
        try_join_all(packs.into_iter().map(|p| async move {
            self.put_at(site_file_key(&self.domain, &p.name), p.bytes)
                .await
        }))
        .await?;
        Ok(())
    }

    /// The finish step's objects: the search meta, the outline and `llms.txt` at once, with
    /// `writes` (any other writes still going), then the Markdown manifest (its presence says the
    /// agent documents are there). Returns the site.
    /// The parsed pages `live` kept for `keys`, counted as this step's reads.
    async fn reused(&self, live: Option<&LiveParsed>, keys: &[PageKey]) -> Reused {
        let Some(live) = live else {
            return Reused::default();
        };
        let (reused, bytes) = live.reused(self.bucket, &self.domain, keys).await;
        if bytes > 0 {
            self.traffic.read(bytes);
        }
        reused
    }

    async fn put_finished(&self, finished: Finished, mut writes: Writes) -> ApiResult<Site> {
        writes.start(self, SEARCH_META, finished.meta);
        writes.start(self, PARSED_INDEX_OBJECT, finished.parsed_index);
        writes.start(self, SITE_OUTLINE, finished.outline);
        writes.start(self, LLMS_TXT, finished.llms_txt.into_bytes());
        writes.start(self, ASSISTANT_GUIDE, finished.assistant);
        if let Some(skill) = finished.skill_md {
            writes.start(self, SKILL_MD, skill.into_bytes());
        }
        for (path, bytes) in finished.well_known {
            writes.start(self, &path, bytes);
        }
        writes.finish().await?;
        self.put(MARKDOWN_MANIFEST, finished.manifest.into_bytes())
            .await?;
        Ok(finished.site)
    }

    async fn get(&self, name: &str) -> ApiResult<Vec<u8>> {
        self.get_at(&self.key(name)).await
    }

    async fn get_at_owned(&self, key: String) -> ApiResult<Vec<u8>> {
        self.get_at(&key).await
    }

    async fn get_at(&self, key: &str) -> ApiResult<Vec<u8>> {
        let object = self
            .bucket
            .get(key)
            .execute()
            .await?
            .ok_or_else(|| ApiError::Internal(format!("{key} is missing")))?;
        let bytes = object
            .body()
            .ok_or_else(|| ApiError::Internal(format!("{key} has no body")))?
            .bytes()
            .await?;
        self.traffic.read(bytes.len());
        Ok(bytes)
    }

    /// `length` bytes at `offset` of the object `key`.
    async fn read_range(&self, key: &str, offset: u64, length: u64) -> ApiResult<Vec<u8>> {
        if length == 0 {
            return Ok(Vec::new());
        }
        let object = self
            .bucket
            .get(key)
            .range(Range::OffsetWithLength { offset, length })
            .execute()
            .await?
            .ok_or_else(|| ApiError::Internal(format!("{key} is missing")))?;
        let bytes = object
            .body()
            .ok_or_else(|| ApiError::Internal(format!("{key} has no body")))?
            .bytes()
            .await?;
        self.traffic.read(bytes.len());
        Ok(bytes)
    }

    /// The files `paths` of the upload, by ranged reads of their packs, each read's files taken out
    /// before the next (a batch whose pages are spread over many packs holds one pack at a time).
    async fn files(&self, table: &FileTable, paths: &BTreeSet<String>) -> ApiResult<SourceTree> {
        let mut tree = SourceTree::new();
        for read in table.reads_for(paths) {
            let bytes = self
                .read_range(
                    &self.pack_key(table, read.pack),
                    u64::from(read.start),
                    u64::from(read.end - read.start),
                )
                .await?;
            tree.extend(table.tree_from(paths, &[(read, bytes)]));
        }
        Ok(tree)
    }

    /// Copies batch `kept`'s text and Markdown out of the packs of version `publish_id`, which keeps
    /// them whole, into its pieces in the site's store (what a version taking it refers to). Once
    /// per batch: the versions after it refer to the pieces.
    async fn copy_pieces(&self, publish_id: &str, kept: &KeptBatch) -> ApiResult<()> {
        let copies = [
            (SEARCH_TEXT, kept.text, BatchPart::Text),
            (LLMS_FULL_TXT, kept.llms, BatchPart::Llms),
        ]
        .map(|(whole, (offset, len), part)| async move {
            if len == 0 {
                return Ok(());
            }
            let bytes = self
                .read_range(&version_key(&self.domain, publish_id, whole), offset, len)
                .await?;
            self.put_at(site_file_key(&self.domain, &kept.object(part)), bytes)
                .await
        });
        try_join_all(copies).await?;
        Ok(())
    }

    /// Writes `name` as the concatenation of `pieces` ([`super::concat`]).
    async fn concat(&self, name: &str, pieces: impl Iterator<Item = Piece>) -> ApiResult<()> {
        let pieces = Piece::joined(pieces);
        let size = super::concat::concat(self.bucket, &self.key(name), &pieces).await?;
        for piece in &pieces {
            self.traffic.read(piece.len as usize);
        }
        self.traffic.wrote(size as usize);
        Ok(())
    }
}

/// Deletes every object under `prefix`, a listing page at a time.
async fn delete_prefix(bucket: &Bucket, prefix: &str) -> ApiResult<()> {
    loop {
        let listed = bucket
            .list()
            .prefix(prefix.to_owned())
            .limit(1000)
            .execute()
            .await?;
        let keys: Vec<String> = listed.objects().iter().map(|o| o.key()).collect();
        if keys.is_empty() {
            return Ok(());
        }
        bucket.delete_multiple(keys).await?;
        if !listed.truncated() {
            return Ok(());
        }
    }
}

fn alarm_error(err: ApiError) -> worker::Error {
    worker::Error::RustError(
        err.log_detail()
            .map_or_else(|| err.public_message(), str::to_string),
    )
}
