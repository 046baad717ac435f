//! The `ExportJob` object itself (the builder script only): its record, its steps and their R2 I/O.
//! Its messages and client, which both scripts compile, are `crate::shared::durable::export_job`.

use self::batch_reuse::{BatchDone, ReuseFrom, Taken};
use self::site_copy::SiteCopy;
use crate::builder::export_source::ExportSource;
use crate::builder::hosted_pointer::serves_export;
use crate::builder::multipart::PartWriter;
use crate::shared::clock::{now_iso, now_ms};
use crate::shared::config::JobSettings;
use crate::shared::durable::export_job::{BundleReady, ExportJobOp, OwnerQuery, StartJob};
use crate::shared::durable::json_storage::JsonStorage;
use crate::shared::durable_client::error_reply;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::exports::content_disposition;
use crate::shared::memory::DurableSpan;
use crate::shared::storage::{self, bundle_key, part_key, products_key};
use docs_edge_core::docs::{Site, SourceTree};
use docs_edge_core::export::api::{bundle_file_name, REPUBLISH_REQUIRED};
use docs_edge_core::export::icons::{IconSet, KnownIcons};
use docs_edge_core::export::{
    after_step, batch_files, batch_tree, AfterError, AfterStep, BeforeStep, ExportOptions,
    ExportPlan, ExportVersions, MarkdownPages, PackCursor, PageExtras, StepAttempts,
};
use docs_edge_core::platform::deployment::Features;
use docs_edge_core::wire::{ExportJob as JobView, JobStatus};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::panic::AssertUnwindSafe;
use std::rc::Rc;
use std::time::Duration;
use worker::{durable_object, DurableObject, Env, HttpMetadata, Request, Response, Result, State};

const JOB_KEY: &str = "job";
/// Pieces of the search packs copied in one step (each read, compressed and written before the
/// next, so a step holds one piece): a step is some seconds of work, and the 10× site's packs are
/// two steps, not a step per few pieces (each step costs its alarm and the packs' lookup).
const SEARCH_PIECES_PER_STEP: u32 = 16;
/// An alarm this late never fired: a step takes seconds at most.
const STALLED_ALARM_MS: i64 = 15_000;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct JobRecord {
    job_id: String,
    org_id: String,
    domain: String,
    publish_id: String,
    version: Option<String>,
    /// Records from before the choice existed hold one version.
    #[serde(default)]
    versions: Option<ExportVersions>,
    paths: Option<Vec<String>>,
    /// As requested; records from before the choice existed have `None`, the default.
    #[serde(default)]
    markdown: Option<MarkdownPages>,
    status: JobStatus,
    progress: f64,
    page_count: u32,
    total_pages: u32,
    /// First page of the next batch, in plan order.
    next_page: u32,
    /// Parts written so far; part `n` holds batch `n`, the last one the finishing files and trailer.
    parts: u32,
    batch_pages: u32,
    created_at: String,
    created_unix: u64,
    updated_at: String,
    error: Option<String>,
    /// Attempts at the current step (records from before this field start with none).
    #[serde(default)]
    attempts: StepAttempts,
    bundle_size: Option<u64>,
    #[serde(default)]
    bundle_sha256: Option<String>,
    /// The deployment's switches when the job started: the pages and the manifest follow them.
    #[serde(default)]
    features: Features,
    /// Records written before the beacon and playground existed have neither.
    #[serde(default)]
    extras: PageExtras,
    /// How much of the search index's packs the parts hold, after the pages (`crate::builder::export_search`).
    #[serde(default)]
    search_copied: PackCursor,
    /// What the job runs under, as the edge script sent it with `start`.
    #[serde(default)]
    settings: JobSettings,
    /// Icon sets the pages so far show: the bundle carries their licences.
    #[serde(default)]
    icon_sets: BTreeSet<IconSet>,
    /// Origins the pages so far load embeds from on a click: the bundle's `frame-src`.
    #[serde(default)]
    frame_origins: BTreeSet<String>,
    /// Origins the pages so far load images from on a click: the bundle's `img-src`.
    #[serde(default)]
    image_origins: BTreeSet<String>,
    /// A hosted site's export: how far its files are written one object each.
    #[serde(default)]
    site: Option<SiteCopy>,
    /// A hosted site's export: the live export whose batches of pages it takes where their inputs
    /// are the same (`batch_reuse`), read at its first batch; dropped once the pages are done.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reuse_from: Option<ReuseFrom>,
    /// A hosted site's export: its batches so far, written beside its parts once the pages are done.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    batches: Vec<BatchDone>,
    /// A hosted site's export: its parts taken from the live export and not yet copied (read
    /// where the live export stored them; copied once the site is switched).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    taken: Option<Taken>,
    /// A hosted site's export: the parts reserved for the search packs' pieces, from the next one
    /// to write; written after the switch (`site_live`), the site's pack files being copied from
    /// the version's packs themselves (`site_packs`), so no compression is on the way to live.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    search_parts: Option<std::ops::Range<u32>>,
    /// Pages rendered (a hosted site's export takes the unchanged ones from the live export).
    #[serde(default)]
    pages_rendered: u32,
    /// Batches whose own files were read (to key them, to render them): each once.
    #[serde(default)]
    batches_read: u32,
}

impl JobRecord {
    fn view(&self) -> JobView {
        JobView {
            job_id: self.job_id.clone(),
            status: self.status,
            progress: self.progress,
            page_count: self.page_count,
            created_at: self.created_at.clone(),
            updated_at: self.updated_at.clone(),
            error: self.error.clone(),
            site_writes: self
                .site
                .as_ref()
                .filter(|_| self.status == JobStatus::Completed)
                // Its files and listing objects, and the live pointer.
                .map(|site| site.objects + 1),
            pages_rendered: self.site.as_ref().map(|_| self.pages_rendered),
        }
    }

    fn active(&self) -> bool {
        matches!(self.status, JobStatus::Queued | JobStatus::Running)
    }

    /// The bundle carries the search index when the deployment has search or the assistant on.
    fn ships_search_index(&self) -> bool {
        self.features.search || self.features.assistant
    }

    /// What of the job its pages are rendered under, as bytes for `batch_reuse`'s key: the options
    /// but the time, the extras and the switches.
    fn render_options(&self) -> ApiResult<Vec<u8>> {
        Ok(serde_json::to_vec(&serde_json::json!([
            self.domain,
            self.version,
            self.versions,
            self.paths,
            self.markdown,
            self.features,
            self.extras,
        ]))?)
    }

    fn options(&self) -> ExportOptions {
        ExportOptions {
            version: self.version.clone(),
            versions: self.versions.clone(),
            paths: self.paths.clone(),
            domain: self.domain.clone(),
            mtime: self.created_unix,
            features: self.features,
            markdown: self.markdown,
        }
    }
}

/// The version a job renders, without its page bodies, read once per object instance and kept
/// between alarms.
struct Loaded {
    publish_id: String,
    source: ExportSource,
    plan: ExportPlan,
    /// A hosted site's export: the key of what every batch is rendered from (`batch_reuse`).
    inputs: Option<Vec<u8>>,
}

#[durable_object(alarm)]
pub struct ExportJob {
    state: State,
    env: Env,
    /// Under panic=unwind (scripts/build-worker.mjs) wasm-bindgen asks that a Durable Object be
    /// `RefUnwindSafe`, which a `RefCell` is not. Asserted: a panic drops its borrows as it unwinds, and
    /// what it can leave behind is a cache (dropped on the next load of another version) or a flag
    /// that only makes a concurrent call wait; the stored job is the state that counts.
    loaded: AssertUnwindSafe<RefCell<Option<Rc<Loaded>>>>,
    /// What the job's batches have learnt of icon names (`crate::builder::export_icons`), kept between
    /// alarms as `loaded` is.
    icons: AssertUnwindSafe<RefCell<KnownIcons>>,
    /// Set while this instance packs the bundle, so a second `/bundle` waits instead of packing twice.
    packing: AssertUnwindSafe<RefCell<bool>>,
}

impl DurableObject for ExportJob {
    fn new(state: State, env: Env) -> Self {
        Self {
            state,
            env,
            loaded: AssertUnwindSafe(RefCell::new(None)),
            icons: AssertUnwindSafe(RefCell::new(KnownIcons::default())),
            packing: AssertUnwindSafe(RefCell::new(false)),
        }
    }

    async fn fetch(&self, mut req: Request) -> Result<Response> {
        let _span = DurableSpan::start("ExportJob", req.path());
        let result = match ExportJobOp::receive(&mut req).await {
            Err(err) => Err(err),
            Ok(ExportJobOp::Start(start)) => self.start(start).await.map(|job| (202, job)),
            Ok(ExportJobOp::Status(owner)) => self.status(&owner).await.map(|job| (200, job)),
            Ok(ExportJobOp::Cancel(owner)) => self.cancel(&owner).await.map(|job| (200, job)),
            Ok(ExportJobOp::Bundle(owner)) => {
                return match self.bundle(&owner).await {
                    Ok(ready) => Response::from_json(&ready),
                    Err(err) => error_reply(&err),
                }
            }
        };
        match result {
            Ok((status, job)) => Response::from_json(&job).map(|r| r.with_status(status)),
            Err(err) => error_reply(&err),
        }
    }

    async fn alarm(&self) -> Result<Response> {
        let _span = DurableSpan::start("ExportJob", "alarm");
        let storage = self.state.storage();
        let Some(mut record) = storage.get_json::<JobRecord>(JOB_KEY).await? else {
            return Response::ok("no job");
        };
        if !record.active() {
            return Response::ok("idle");
        }
        if let BeforeStep::Fail(reason) = record.attempts.before_step() {
            self.fail(&mut record, reason).await.map_err(alarm_error)?;
            return Response::ok("failed");
        }
        // Stored before the step runs: if the step takes the isolate down, the attempt still counts.
        record.status = JobStatus::Running;
        record.updated_at = now_iso();
        storage.put_json(JOB_KEY, &record).await?;
        storage.sync().await?;
        if self.injected_fault(&record) {
            return Err(worker::Error::RustError(
                "injected fault: the step died with its isolate".into(),
            ));
        }
        // The first part this step writes, if any: a job that ends meanwhile never learns of them.
        let writing_part = record.parts;
        let stepped = self.step(&mut record).await;
        // The step awaited R2 (and a cancel may have landed then): decide by the job as stored now.
        // No await but storage between this read and the writes below, so no other event of this
        // object runs between them (the input gate holds events during storage operations).
        let stored_now = storage
            .get_json::<JobRecord>(JOB_KEY)
            .await?
            .map(|stored| stored.status);
        if after_step(stored_now) == AfterStep::Discard {
            crate::shared::log_line::info(
                &serde_json::json!({"event": "export_step_discarded", "jobId": record.job_id, "status": stored_now.map(status_name)}),
            );
            if let Ok(bucket) = storage::bucket(&self.env) {
                // Best effort: the retention sweep removes a part left over by a failed delete.
                // The step's parts: one, or as many as a finished finishing step counted.
                let written = part_objects(
                    &record.job_id,
                    writing_part..record.parts.max(writing_part + 1),
                );
                if let Err(err) = bucket.delete_multiple(written).await {
                    crate::shared::log_line::error(
                        &serde_json::json!({"event": "export_cleanup_failed", "jobId": record.job_id, "error": err.to_string()}),
                    );
                }
            }
            self.drop_caches();
            return Response::ok("discarded");
        }
        match stepped {
            Ok(finished) => {
                record.attempts.succeeded();
                record.updated_at = now_iso();
                storage.put_json(JOB_KEY, &record).await?;
                if !finished {
                    storage.set_alarm(Duration::from_millis(0)).await?;
                }
            }
            Err(err) => {
                let reason = readable(&err);
                crate::shared::log_line::error(
                    &serde_json::json!({"event": "export_step_failed", "jobId": record.job_id, "attempt": record.attempts.begun, "error": reason}),
                );
                match record.attempts.failed(&reason, is_permanent(&err)) {
                    AfterError::Fail(reason) => {
                        self.fail(&mut record, reason).await.map_err(alarm_error)?
                    }
                    AfterError::RetryAfterMs(backoff) => {
                        record.updated_at = now_iso();
                        storage.put_json(JOB_KEY, &record).await?;
                        storage.set_alarm(Duration::from_millis(backoff)).await?;
                    }
                }
            }
        }
        Response::ok("stepped")
    }
}

impl ExportJob {
    async fn start(&self, start: StartJob) -> ApiResult<JobView> {
        let storage = self.state.storage();
        if let Some(existing) = storage.get_json::<JobRecord>(JOB_KEY).await? {
            // Job ids are random; a second start of the same id is a retried call, answered the same.
            return Ok(existing.view());
        }
        let mut record = JobRecord {
            job_id: start.job_id,
            org_id: start.org_id,
            domain: start.domain,
            publish_id: start.publish_id,
            version: start.version,
            versions: start.versions,
            paths: start.paths,
            markdown: start.markdown,
            status: JobStatus::Queued,
            progress: 0.0,
            page_count: 0,
            total_pages: 0,
            next_page: 0,
            parts: 0,
            batch_pages: start.batch_pages.max(1),
            created_at: start.created_at.clone(),
            created_unix: start.created_unix,
            updated_at: start.created_at,
            error: None,
            attempts: StepAttempts::default(),
            bundle_size: None,
            bundle_sha256: None,
            features: start.settings.features,
            extras: start.extras,
            search_copied: PackCursor::default(),
            settings: start.settings,
            icon_sets: BTreeSet::new(),
            frame_origins: BTreeSet::new(),
            image_origins: BTreeSet::new(),
            reuse_from: None,
            batches: Vec::new(),
            taken: None,
            search_parts: None,
            pages_rendered: 0,
            batches_read: 0,
            site: start.site.map(|target| SiteCopy {
                path_prefix: target.path_prefix,
                preview_host: target.preview_host,
                ..SiteCopy::default()
            }),
        };
        // Parsing here answers a bad version or unknown paths with a 400 now, not a failed job later.
        let loaded = self.load(&record).await?;
        record.total_pages = loaded.plan.page_count() as u32;
        storage.put_json(JOB_KEY, &record).await?;
        storage.set_alarm(Duration::from_millis(0)).await?;
        Ok(record.view())
    }

    async fn status(&self, owner: &OwnerQuery) -> ApiResult<JobView> {
        let mut record = self.owned(owner).await?;
        if record.active() {
            // An alarm that is missing, or long overdue, was lost with a stopped runtime: carry on
            // from the last finished batch, while attempts are left.
            let storage = self.state.storage();
            let overdue = |at: i64| at < now_ms() as i64 - STALLED_ALARM_MS;
            if storage.get_alarm().await?.is_none_or(overdue) {
                match record.attempts.exhausted_reason() {
                    None => storage.set_alarm(Duration::from_millis(0)).await?,
                    Some(reason) => self.fail(&mut record, reason).await?,
                }
            }
        }
        Ok(record.view())
    }

    /// Ends an active job: `failed` with `reason`, no alarm, its parts deleted.
    async fn fail(&self, record: &mut JobRecord, reason: String) -> ApiResult<()> {
        record.status = JobStatus::Failed;
        record.error = Some(reason);
        self.finish_early(record).await
    }

    async fn cancel(&self, owner: &OwnerQuery) -> ApiResult<JobView> {
        let mut record = self.owned(owner).await?;
        if !record.active() {
            return Err(ApiError::Conflict {
                code: "job_not_active",
                message: format!(
                    "the job is {}; only a queued or running job can be cancelled",
                    status_name(record.status)
                ),
            });
        }
        if record.site.as_ref().is_some_and(|site| site.live) {
            // The site serves the export already: its parts are the next export's unchanged
            // pages and the bundle's, and what is left (writing the bundle's last parts, copying
            // the taken ones) ends on its own.
            return Err(ApiError::Conflict {
                code: "job_site_live",
                message: "the job's export is live on its site; it completes on its own".into(),
            });
        }
        record.status = JobStatus::Cancelled;
        record.error = Some("cancelled by an admin key of the organization".into());
        self.finish_early(&mut record).await?;
        Ok(record.view())
    }

    /// Stores a job that ended before completing, stops its alarm and deletes its parts (they are
    /// only inputs to a bundle that will never be packed).
    async fn finish_early(&self, record: &mut JobRecord) -> ApiResult<()> {
        record.updated_at = now_iso();
        let storage = self.state.storage();
        storage.put_json(JOB_KEY, &*record).await?;
        storage.delete_alarm().await?;
        self.drop_caches();
        let parts = part_objects(&record.job_id, 0..record.parts);
        if !parts.is_empty() {
            if let Err(err) = storage::bucket(&self.env)?.delete_multiple(parts).await {
                // The retention sweep removes leftover parts later.
                crate::shared::log_line::error(
                    &serde_json::json!({"event": "export_cleanup_failed", "jobId": record.job_id, "error": err.to_string()}),
                );
            }
        }
        Ok(())
    }

    /// Whether the test-only fault applies to this job. (A real `abort()` here would not do: a Wasm
    /// trap after an await leaves the alarm's promise pending for ever under workerd, rather than
    /// failing it as a killed isolate does.)
    fn injected_fault(&self, record: &JobRecord) -> bool {
        let faulty =
            record.settings.test.export_fault_domain.as_deref() == Some(record.domain.as_str());
        if faulty {
            crate::shared::log_line::error(
                &serde_json::json!({"event": "export_injected_fault", "jobId": record.job_id, "attempt": record.attempts.begun}),
            );
        }
        faulty
    }

    /// The test-only delay of a batch step, and of a hosted export's step after its switch (see
    /// [`crate::shared::config::test_only::export_step_delay`]), capped at a minute.
    async fn injected_delay(&self, record: &JobRecord) {
        let Some((domain, ms)) = &record.settings.test.export_step_delay else {
            return;
        };
        if *domain != record.domain {
            return;
        }
        let ms = *ms;
        if ms > 0 {
            // Logged first, so a test knows the step is inside its delay before it cancels.
            crate::shared::log_line::info(
                &serde_json::json!({"event": "export_step_delay", "jobId": record.job_id, "ms": ms}),
            );
            worker::Delay::from(Duration::from_millis(ms)).await;
        }
    }

    async fn owned(&self, owner: &OwnerQuery) -> ApiResult<JobRecord> {
        match self.state.storage().get_json::<JobRecord>(JOB_KEY).await? {
            Some(record) if record.org_id == owner.org_id => Ok(record),
            _ => Err(ApiError::NotFound("export job not found".into())),
        }
    }

    /// Forgets what the object keeps between alarms (the stored job is the state that counts).
    fn drop_caches(&self) {
        *self.loaded.borrow_mut() = None;
        *self.icons.borrow_mut() = KnownIcons::default();
    }

    async fn load(&self, record: &JobRecord) -> ApiResult<Rc<Loaded>> {
        if let Some(loaded) = self.loaded.borrow().as_ref() {
            if loaded.publish_id == record.publish_id {
                return Ok(loaded.clone());
            }
        }
        *self.loaded.borrow_mut() = None;
        let source = ExportSource::open(
            &storage::bucket(&self.env)?,
            &record.domain,
            &record.publish_id,
        )
        .await?;
        let plan = Self::plan(
            record,
            &source.outline,
            &batch_tree(&source.table, source.shared.clone()),
        )?;
        let inputs = match record.site {
            Some(_) => Some(batch_reuse::inputs_key(
                &record.render_options()?,
                &source.outline,
                &source.table,
                &source.shared,
            )?),
            None => None,
        };
        let loaded = Rc::new(Loaded {
            publish_id: record.publish_id.clone(),
            source,
            plan,
            inputs,
        });
        *self.loaded.borrow_mut() = Some(loaded.clone());
        Ok(loaded)
    }

    /// The job's plan over `site` (the outline, or the whole site when finishing); the same pages
    /// in the same order either way.
    fn plan(record: &JobRecord, site: &Site, tree: &SourceTree) -> ApiResult<ExportPlan> {
        Ok(ExportPlan::new(site, tree, &record.options())
            .map_err(|e| ApiError::Invalid(e.to_string()))?
            .with_extras(record.extras.clone()))
    }

    /// What the pages at `range` read besides the shared files: their sources and the snippets
    /// they import, from the source packs (`ExportSource::complete` makes the tree they render
    /// from).
    async fn batch_own_files(
        &self,
        bucket: &worker::Bucket,
        loaded: &Loaded,
        range: std::ops::Range<usize>,
    ) -> ApiResult<SourceTree> {
        let source = &loaded.source;
        source
            .read(
                bucket,
                &batch_files(&loaded.plan, &source.outline, &source.table, range),
            )
            .await
    }

    /// One batch of pages, or the finishing files; `Ok(true)` once the job is complete. Logs which
    /// kind of step it was and how long it ran (`bench/hosted-change.mjs --steps` times them).
    async fn step(&self, record: &mut JobRecord) -> ApiResult<bool> {
        let rendered = record.pages_rendered;
        let kind = self.step_kind(record);
        let started = now_ms();
        let stepped = self.run_step(record).await;
        let ms = now_ms().saturating_sub(started);
        let kind = match kind {
            "pages" if record.pages_rendered > rendered => "pages-rendered",
            "pages" => "pages-taken",
            "search-or-finishing" if record.status == JobStatus::Completed => "finishing",
            "search-or-finishing"
                if record.site.as_ref().is_some_and(|s| s.next_part.is_some()) =>
            {
                "finishing"
            }
            "search-or-finishing" => "search",
            other => other,
        };
        crate::shared::log_line::info(
            &serde_json::json!({"event": "export_step", "jobId": record.job_id, "kind": kind, "ms": ms}),
        );
        stepped
    }

    /// What the next step of `record` does.
    fn step_kind(&self, record: &JobRecord) -> &'static str {
        if record.site.as_ref().is_some_and(|s| s.live) {
            "after-live"
        } else if record.site.as_ref().is_some_and(|s| s.next_part.is_some()) {
            "site-copy"
        } else if record.next_page < record.total_pages {
            "pages"
        } else {
            "search-or-finishing"
        }
    }

    async fn run_step(&self, record: &mut JobRecord) -> ApiResult<bool> {
        record.status = JobStatus::Running;
        let bucket = storage::bucket(&self.env)?;
        if record
            .site
            .as_ref()
            .is_some_and(|site| site.next_part.is_some())
        {
            return self.copy_site(record, &bucket).await;
        }
        let total = record.total_pages;
        if record.next_page < total {
            self.pages_step(record, &bucket).await?;
            return Ok(false);
        }
        if record.ships_search_index() {
            let packs = crate::builder::export_search::Packs::of(
                &bucket,
                &record.domain,
                &record.publish_id,
            )
            .await?;
            // A job that began copying the pieces before the switch (under the code before
            // this) carries on so: parts reserved now would hold its pieces twice.
            let begun = record.search_copied != PackCursor::default();
            if record.site.is_some() && (record.search_parts.is_some() || !begun) {
                // Reserved once (a retried finishing step finds them reserved).
                if record.search_parts.is_none() {
                    let count = packs.pieces_before(PackCursor {
                        pack: u32::MAX,
                        offset: 0,
                    });
                    record.search_parts = Some(record.parts..record.parts + count);
                    record.parts += count;
                }
            } else {
                let copied = Self::search_pieces(record, &bucket, &packs, record.parts).await?;
                record.parts += copied;
                if copied > 0 {
                    return Ok(false);
                }
            }
        }
        record.parts += self.write_finishing(record, &bucket).await?;
        if let Some(site) = record.site.as_mut() {
            // The site's files next, read back from the parts (`site_copy`).
            site.next_part = Some(0);
            return Ok(false);
        }
        record.status = JobStatus::Completed;
        record.progress = 100.0;
        Ok(true)
    }

    /// Writes the search packs' next pieces (from `record.search_copied`), a step's share, as
    /// parts `at`, `at + 1`, …; returns how many. The cursor moves once they are all written: a
    /// failed attempt leaves it where it was, and the next writes the same pieces again.
    async fn search_pieces(
        record: &mut JobRecord,
        bucket: &worker::Bucket,
        packs: &crate::builder::export_search::Packs,
        at: u32,
    ) -> ApiResult<u32> {
        let mut copied = 0;
        let mut cursor = record.search_copied;
        while copied < SEARCH_PIECES_PER_STEP {
            let piece = crate::builder::export_search::next_piece(
                bucket,
                packs,
                cursor,
                record.created_unix,
            )
            .await?;
            let Some((member, after)) = piece else {
                break;
            };
            bucket
                .put(part_key(&record.job_id, at + copied), member)
                .execute()
                .await?;
            cursor = after;
            copied += 1;
        }
        record.search_copied = cursor;
        Ok(copied)
    }

    async fn bundle(&self, owner: &OwnerQuery) -> ApiResult<BundleReady> {
        let mut record = self.owned(owner).await?;
        if record.status != JobStatus::Completed {
            return Err(ApiError::Conflict {
                code: "job_not_completed",
                message: format!(
                    "the job is {}; a bundle can be generated once it is completed",
                    status_name(record.status)
                ),
            });
        }
        // The retention sweep deletes a job's files this long after it started, unless a hosted
        // site still serves the export.
        let retention_days = record.settings.export_retention_days;
        let past_retention = crate::shared::clock::now_unix()
            >= record
                .created_unix
                .saturating_add(retention_days.saturating_mul(86_400));
        if past_retention && !serves_export(&storage::bucket(&self.env)?, &record.job_id).await? {
            return Err(ApiError::Conflict {
                code: "bundle_expired",
                message: format!("bundles are kept {retention_days} day(s) after their job started (EXPORT_RETENTION_DAYS); start a new job"),
            });
        }
        // Another call is packing in this instance: wait for it rather than pack twice.
        for _ in 0..600 {
            if !*self.packing.borrow() {
                break;
            }
            worker::Delay::from(Duration::from_millis(100)).await;
            record = self.owned(owner).await?;
        }
        if record.bundle_size.is_none() {
            *self.packing.borrow_mut() = true;
            let packed = self.pack(&record).await;
            *self.packing.borrow_mut() = false;
            let (size, sha256) = packed?;
            record.bundle_size = Some(size);
            record.bundle_sha256 = Some(sha256);
            self.state.storage().put_json(JOB_KEY, &record).await?;
        } else if record.bundle_sha256.is_none() {
            // Packed before bundles had a checksum; the parts are gone, so hash the bundle itself.
            record.bundle_sha256 = Some(self.hash_bundle(&record).await?);
            self.state.storage().put_json(JOB_KEY, &record).await?;
        }
        Ok(BundleReady {
            job_id: record.job_id.clone(),
            domain: record.domain.clone(),
            created_at: record.created_at.clone(),
            size_bytes: record.bundle_size.unwrap_or(0),
            sha256: record.bundle_sha256.clone().unwrap_or_default(),
        })
    }

    /// SHA-256 of the packed bundle, read as a stream (it may be far larger than memory allows).
    async fn hash_bundle(&self, record: &JobRecord) -> ApiResult<String> {
        use futures_util::StreamExt;
        let object = storage::bucket(&self.env)?
            .get(bundle_key(&record.job_id))
            .execute()
            .await?
            .ok_or_else(|| {
                ApiError::Internal(format!("the bundle of {} is missing", record.job_id))
            })?;
        let mut stream = object
            .body()
            .ok_or_else(|| ApiError::Internal("bundle has no body".into()))?
            .stream()?;
        let mut hasher = Sha256::new();
        while let Some(chunk) = stream.next().await {
            hasher.update(&chunk?);
        }
        Ok(docs_edge_core::security::signing::to_hex(
            &hasher.finalize(),
        ))
    }

    /// Concatenates the parts into one object with an R2 multipart upload, holding at most one part
    /// and one batch in memory. Returns the bundle's size and SHA-256 (hex).
    async fn pack(&self, record: &JobRecord) -> ApiResult<(u64, String)> {
        let bucket = storage::bucket(&self.env)?;
        let file_name = bundle_file_name(&record.domain, &record.created_at);
        let metadata = HashMap::from([
            ("domain".to_string(), record.domain.clone()),
            ("fileName".to_string(), file_name.clone()),
        ]);
        let mut writer = PartWriter::new(&bucket, bundle_key(&record.job_id)).with_metadata(
            HttpMetadata {
                content_type: Some("application/gzip".into()),
                content_disposition: Some(content_disposition(&file_name)),
                ..HttpMetadata::default()
            },
            metadata,
        );
        match self.fill(record, &bucket, &mut writer).await {
            Ok(sha256) => {
                let size = writer.finish().await?;
                // The parts are only inputs to the bundle, but for a hosted site's export: the
                // next export of the site takes its unchanged batches from them, so they stay
                // until the retention sweep. A failed cleanup costs space (until that sweep), not
                // correctness.
                if record.site.is_none() {
                    let parts = part_objects(&record.job_id, 0..record.parts);
                    if let Err(err) = bucket.delete_multiple(parts).await {
                        crate::shared::log_line::error(
                            &serde_json::json!({"event": "export_cleanup_failed", "jobId": record.job_id, "error": err.to_string()}),
                        );
                    }
                }
                Ok((size, sha256))
            }
            Err(err) => {
                writer.abort("export_bundle").await;
                Err(err)
            }
        }
    }

    /// Writes the parts, in order, into `writer`, streamed (a part may be larger than one upload
    /// part); returns their SHA-256 (hex).
    async fn fill(
        &self,
        record: &JobRecord,
        bucket: &worker::Bucket,
        writer: &mut PartWriter<'_>,
    ) -> ApiResult<String> {
        use futures_util::StreamExt;
        let mut hasher = Sha256::new();
        for index in 0..record.parts {
            let object = bucket
                .get(part_key(&record.job_id, index))
                .execute()
                .await?
                .ok_or_else(|| {
                    ApiError::Internal(format!("part {index} of {} is missing", record.job_id))
                })?;
            let mut stream = object
                .body()
                .ok_or_else(|| ApiError::Internal("part has no body".into()))?
                .stream()?;
            while let Some(chunk) = stream.next().await {
                let chunk = chunk?;
                hasher.update(&chunk);
                writer.write(&chunk).await?;
            }
        }
        Ok(docs_edge_core::security::signing::to_hex(
            &hasher.finalize(),
        ))
    }
}

/// The objects of job `job_id`'s parts at `parts`: each part, and the products of a batch's part.
fn part_objects(job_id: &str, parts: std::ops::Range<u32>) -> Vec<String> {
    parts
        .flat_map(|i| [part_key(job_id, i), products_key(job_id, i)])
        .collect()
}

fn alarm_error(err: ApiError) -> worker::Error {
    worker::Error::RustError(
        err.log_detail()
            .map_or_else(|| err.public_message(), str::to_string),
    )
}

fn status_name(status: JobStatus) -> String {
    serde_json::to_value(status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Failures that another attempt cannot fix.
fn is_permanent(err: &ApiError) -> bool {
    matches!(
        err,
        ApiError::Invalid(_)
            | ApiError::NotFound(_)
            | ApiError::Conflict {
                code: REPUBLISH_REQUIRED,
                ..
            }
    )
}

fn readable(err: &ApiError) -> String {
    match err {
        ApiError::Internal(detail) => detail.clone(),
        other => other.public_message(),
    }
}

mod batch_reuse;
mod delta_listing;
mod finishing;
mod pages;
mod site_base;
mod site_copy;
mod site_live;
mod site_packs;
