//! `ExportOrg`: one Durable Object per organization that starts its export jobs and admits its
//! publishes, so the rules that span requests hold exactly: one active (queued or running) job per
//! domain, at most `EXPORT_STARTS_PER_HOUR` starts and `PUBLISHES_PER_HOUR` publishes per
//! organization per rolling hour. A start takes its slot before it awaits the job object, so
//! concurrent starts on different domains cannot pass the limit together.
//!
//! Internal protocol ([`ExportOrgOp`], sent by [`crate::shared::durable::export_org::ExportOrgClient`],
//! which both scripts compile: the builder's `PublishJob` starts a hosted site's export when a publish
//! goes live): `start` with [`StartOrder`] answers the new job (202's body) or an error made with the
//! worker's error type (409 `job_active`, 429, or what the job refused, e.g. a 400); `publish` with
//! [`PublishOrder`] answers `{}` or 429.

use std::cell::RefCell;
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;

use docs_edge_core::wire::{ExportJob as JobView, JobStatus};
use serde::{Deserialize, Serialize};
use worker::{durable_object, DurableObject, Env, Request, Response, Result, State};

use crate::shared::config::JobSettings;
use crate::shared::durable::export_job::{ExportJobClient, OwnerQuery, StartJob};
use crate::shared::durable::export_org::{ExportOrgOp, PublishOrder, StartOrder};
use crate::shared::durable_client::error_reply;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::memory::DurableSpan;
use crate::shared::random::random_id;

use crate::shared::durable::json_storage::JsonStorage;

const RECORD_KEY: &str = "org";
const HOUR_SECS: u64 = 3600;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct OrgRecord {
    /// Start times (unix seconds) within the last hour.
    starts: Vec<u64>,
    /// The latest job of each domain (and of each preview hostname).
    latest: HashMap<String, String>,
    /// Publish times (unix seconds) within the last hour.
    #[serde(default)]
    publishes: Vec<u64>,
}

/// Keeps the last hour of `times` and takes a slot at `now`, or answers the 429 of `what`.
fn take_slot(times: &mut Vec<u64>, per_hour: u64, now: u64, what: &str) -> ApiResult<()> {
    times.retain(|t| t + HOUR_SECS > now);
    if times.len() as u64 >= per_hour {
        let oldest = times.iter().min().copied().unwrap_or(now);
        return Err(ApiError::RateLimited {
            message: format!("at most {per_hour} {what} per organization per hour"),
            retry_after_secs: (oldest + HOUR_SECS).saturating_sub(now).max(1),
            headers: Vec::new(),
        });
    }
    times.push(now);
    Ok(())
}

#[durable_object(fetch)]
pub struct ExportOrg {
    state: State,
    env: Env,
    /// Domains whose start is under way in this instance, with the job id being created: a second
    /// start arriving while the first awaits the job object is refused instead of racing it.
    /// `AssertUnwindSafe`: see `ExportJob::loaded`.
    starting: AssertUnwindSafe<RefCell<HashMap<String, String>>>,
}

impl DurableObject for ExportOrg {
    fn new(state: State, env: Env) -> Self {
        Self {
            state,
            env,
            starting: AssertUnwindSafe(RefCell::new(HashMap::new())),
        }
    }

    async fn fetch(&self, mut req: Request) -> Result<Response> {
        let _span = DurableSpan::start("ExportOrg", req.path());
        let op = match ExportOrgOp::receive(&mut req).await {
            Ok(op) => op,
            Err(err) => return error_reply(&err),
        };
        match op {
            ExportOrgOp::Start(order) => match self.start(order).await {
                Ok(job) => Response::from_json(&job).map(|r| r.with_status(202)),
                Err(err) => error_reply(&err),
            },
            ExportOrgOp::Publish(order) => match self.admit_publish(&order).await {
                Ok(()) => Response::from_json(&serde_json::json!({})),
                Err(err) => error_reply(&err),
            },
        }
    }
}

impl ExportOrg {
    async fn start(&self, order: StartOrder) -> ApiResult<JobView> {
        // One active export per domain, and one per preview hostname beside it: a preview's export
        // neither waits for the live site's nor holds it up.
        let slot = order
            .site
            .as_ref()
            .and_then(|site| site.preview_host.clone())
            .unwrap_or_else(|| order.domain.clone());
        if let Some(job_id) = self.starting.borrow().get(&slot) {
            return Err(ApiError::JobActive {
                job_id: job_id.clone(),
            });
        }
        let storage = self.state.storage();
        let mut record: OrgRecord = storage.get_json(RECORD_KEY).await?.unwrap_or_default();
        take_slot(
            &mut record.starts,
            order.starts_per_hour,
            order.now_unix,
            "export jobs may start",
        )?;
        let job_id = random_id("se_", 8)?;
        // The slot is stored before the job object is awaited, so a concurrent start sees it.
        storage.put_json(RECORD_KEY, &record).await?;
        self.starting
            .borrow_mut()
            .insert(slot.clone(), job_id.clone());
        let result = self
            .create(&order, &job_id, record.latest.get(&slot).cloned())
            .await;
        self.starting.borrow_mut().remove(&slot);
        // Read again: other starts and publishes may have been recorded meanwhile.
        let mut record: OrgRecord = storage.get_json(RECORD_KEY).await?.unwrap_or_default();
        match result {
            Ok(job) => {
                record.latest.insert(slot, job_id);
                storage.put_json(RECORD_KEY, &record).await?;
                Ok(job)
            }
            Err(err) => {
                // A refused start gives its slot back.
                if let Some(at) = record.starts.iter().position(|t| *t == order.now_unix) {
                    record.starts.remove(at);
                }
                storage.put_json(RECORD_KEY, &record).await?;
                Err(err)
            }
        }
    }

    async fn admit_publish(&self, order: &PublishOrder) -> ApiResult<()> {
        let storage = self.state.storage();
        let mut record: OrgRecord = storage.get_json(RECORD_KEY).await?.unwrap_or_default();
        take_slot(
            &mut record.publishes,
            order.per_hour,
            order.now_unix,
            "publishes",
        )?;
        storage.put_json(RECORD_KEY, &record).await?;
        Ok(())
    }

    async fn create(
        &self,
        order: &StartOrder,
        job_id: &str,
        previous: Option<String>,
    ) -> ApiResult<JobView> {
        if let Some(previous) = previous {
            let owner = OwnerQuery {
                org_id: order.org_id.clone(),
            };
            let view = ExportJobClient::new(&self.env, &previous)
                .status(&owner)
                .await?;
            if matches!(view.status, JobStatus::Queued | JobStatus::Running) {
                return Err(ApiError::JobActive { job_id: previous });
            }
        }
        let start = StartJob {
            job_id: job_id.to_string(),
            org_id: order.org_id.clone(),
            domain: order.domain.clone(),
            publish_id: order.publish_id.clone(),
            version: order.version.clone(),
            versions: order.versions.clone(),
            paths: order.paths.clone(),
            markdown: order.markdown,
            batch_pages: order.batch_pages,
            created_at: order.now_iso.clone(),
            created_unix: order.now_unix,
            extras: order.extras.clone(),
            site: order.site.clone(),
            settings: JobSettings::from_env(&self.env).map_err(ApiError::Internal)?,
        };
        ExportJobClient::new(&self.env, job_id).start(&start).await
    }
}
