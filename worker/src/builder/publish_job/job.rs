//! The object and its lifecycle: begin, start, status, alarms, failures, and running one step at a time.

use super::limits::{
    ACTIVE_KEY, ALARM_STEPS_MS, HISTORY_KEY, MAX_ATTEMPTS, RESERVATION_MS, STALLED_ALARM_MS,
};
use super::record::{job_key, Record, Running, Step};
use super::step_error::{alarm_error, StepError, StepResult};
use super::store::{delete_prefix, R2Traffic, Store};
use crate::builder::publish_job::reuse::LiveParsed;
use crate::shared::clock::{now_iso, now_ms};
use crate::shared::durable::json_storage::JsonStorage;
use crate::shared::durable::publish_job::{Begin, PublishJobOp, Query, Start};
use crate::shared::durable_client::error_reply;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::memory::{wasm_memory_bytes, DurableSpan};
use crate::shared::storage::{self, version_key};
use docs_edge_core::docs::outline::SitePlan;
use docs_edge_core::docs::packed::FileTable;
use docs_edge_core::publish::parsed::FileDigests;
use docs_edge_core::publish::BatchState;
use docs_edge_core::wire::PublishState;
use std::cell::{Cell, RefCell};
use std::panic::AssertUnwindSafe;
use std::rc::Rc;
use std::time::Duration;
use worker::{durable_object, DurableObject, Env, Request, Response, Result, State};

/// What one instance keeps between alarms: the plan and the file table of the publish it runs.
pub(super) struct Loaded {
    pub(super) publish_id: String,
    pub(super) plan: SitePlan,
    pub(super) table: FileTable,
    /// The unpack's digests of the source files, if it stored them.
    pub(super) digests: Option<FileDigests>,
    /// The live version's parsed pages, if it kept them.
    pub(super) live_parsed: Option<LiveParsed>,
}

#[durable_object(alarm)]
pub struct PublishJob {
    pub(super) state: State,
    pub(super) env: Env,
    /// Asserted unwind-safe as in `ExportJob`: what a panic can leave behind is a cache.
    pub(super) loaded: AssertUnwindSafe<RefCell<Option<Rc<Loaded>>>>,
    /// Whether this instance is running steps (in an alarm or a waiting `start`), so an alarm that
    /// fires meanwhile leaves them alone. Unwind-safe: the guard that sets it clears it as a panic
    /// unwinds.
    pub(super) running: AssertUnwindSafe<Cell<bool>>,
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

impl PublishJob {
    /// Runs publish `id`'s steps back to back, until it is done or failed, a step fails (retried by
    /// an alarm), or [`ALARM_STEPS_MS`] have passed (the rest in alarms). Says how it ended.
    pub(super) async fn run_steps(&self, id: &str) -> Result<&'static str> {
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
    pub(super) async fn step_loop(&self, id: &str) -> Result<(&'static str, Option<Duration>)> {
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
                    crate::shared::log_line::error(
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

    pub(super) async fn begin(&self, begin: Begin) -> ApiResult<Record> {
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
            preview_host: None,
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
    pub(super) async fn prune_history(&self, publish_id: &str, kept: usize) -> ApiResult<()> {
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

    pub(super) async fn start(&self, start: Start) -> ApiResult<Record> {
        let storage = self.state.storage();
        let mut record = self.record(&start.publish_id).await?;
        if record.step == Step::Upload && record.active() {
            record.step = Step::Unpack;
            record.source_bytes = start.source_bytes;
            record.preview_host = start.preview_host;
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

    pub(super) async fn abandon(&self, publish_id: &str) -> ApiResult<Record> {
        let mut record = self.record(publish_id).await?;
        if record.step == Step::Upload && record.active() {
            self.fail(&mut record, "the upload did not complete".into(), true)
                .await?;
        }
        Ok(record)
    }

    pub(super) async fn status(&self, query: &Query) -> ApiResult<Record> {
        let record = self.record(&query.publish_id).await?;
        if record.org_id != query.org_id {
            return Err(ApiError::NotFound("publish not found".into()));
        }
        self.rearm_if_lost(&record).await?;
        Ok(record)
    }

    /// Sets the alarm again when one is missing, or long overdue (lost with a stopped runtime).
    pub(super) async fn rearm_if_lost(&self, record: &Record) -> ApiResult<()> {
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

    pub(super) async fn record(&self, publish_id: &str) -> ApiResult<Record> {
        self.state
            .storage()
            .get_json::<Record>(&job_key(publish_id))
            .await?
            .ok_or_else(|| ApiError::NotFound("publish not found".into()))
    }

    pub(super) async fn active_record(&self) -> ApiResult<Option<Record>> {
        let storage = self.state.storage();
        let Some(id) = storage.get::<String>(ACTIVE_KEY).await? else {
            return Ok(None);
        };
        Ok(storage.get_json::<Record>(&job_key(&id)).await?)
    }

    /// Ends a publish that did not go live: the previous version stays; the new one's objects
    /// are deleted (what a failed delete leaves, the retention sweep removes).
    pub(super) async fn fail(
        &self,
        record: &mut Record,
        reason: String,
        invalid_upload: bool,
    ) -> ApiResult<()> {
        crate::shared::log_line::error(
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
            crate::shared::log_line::error(
                &serde_json::json!({"event": "publish_cleanup_failed", "publishId": record.publish_id, "error": err.public_message()}),
            );
        }
        Ok(())
    }

    /// The test-only fault of the steps that parse or merge (see [`crate::shared::config::test_only::publish_fault_domain`]).
    pub(super) fn injected_fault(&self, record: &Record) -> StepResult<()> {
        if record.settings.test.publish_fault_domain.as_deref() != Some(record.domain.as_str()) {
            return Ok(());
        }
        crate::shared::log_line::error(
            &serde_json::json!({"event": "publish_injected_fault", "publishId": record.publish_id}),
        );
        Err(StepError::Api(ApiError::Internal(
            "injected fault: the publish step failed".into(),
        )))
    }

    /// The test-only delay before each step (see [`crate::shared::config::test_only::publish_step_delay`]).
    pub(super) async fn injected_delay(&self, record: &Record) {
        let Some((domain, ms)) = &record.settings.test.publish_step_delay else {
            return;
        };
        let delay = Duration::from_millis(*ms);
        if *domain != record.domain || delay.is_zero() {
            return;
        }
        crate::shared::log_line::info(
            &serde_json::json!({"event": "publish_step_delay", "publishId": record.publish_id, "step": record.step, "ms": delay.as_millis() as u64}),
        );
        worker::Delay::from(delay).await;
    }

    /// Runs the record's step, then logs what it took (`publish_step`: duration, R2 traffic, memory).
    pub(super) async fn step(&self, record: &mut Record) -> StepResult<()> {
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
        crate::shared::log_line::info(&serde_json::json!({
            "event": "publish_step", "publishId": record.publish_id, "step": step, "ok": result.is_ok(),
            "durationMs": now_ms().saturating_sub(started), "r2Reads": t.reads.get(), "r2ReadBytes": t.read_bytes.get(),
            "r2Writes": t.writes.get(), "r2WriteBytes": t.write_bytes.get(), "reusedPages": t.reused_pages.get(), "takenBatches": t.taken_batches.get(), "sharedPacks": t.shared_packs.get(), "phasesMs": *t.phases.borrow(), "wasmMemoryBytes": wasm_memory_bytes(),
        }));
        result
    }
}
