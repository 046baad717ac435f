//! `ExportOrg`: one Durable Object per organization that starts its export jobs, so the two rules
//! that span jobs hold exactly: one active (queued or running) job per domain, and at most
//! `EXPORT_STARTS_PER_HOUR` starts per organization per rolling hour.
//!
//! Internal protocol: `POST /start` with [`StartOrder`] answers the new job (202's body) or an error
//! made with the worker's error type (409 `job_active`, 429, or what the job refused, e.g. a 400).

use std::cell::RefCell;
use std::collections::HashMap;

use docs_edge_core::export::PageExtras;
use docs_edge_core::wire::{ExportJob as JobView, JobStatus};
use serde::{Deserialize, Serialize};
use worker::{durable_object, DurableObject, Env, Request, Response, Result, State};

use crate::config::EXPORT_JOBS_BINDING;
use crate::memory::DurableSpan;
use crate::durable::export_job::{OwnerQuery, StartJob};
use crate::durable_client::{error_reply, post};
use crate::error::{ApiError, ApiResult};
use crate::random::random_id;

const RECORD_KEY: &str = "org";
const HOUR_SECS: u64 = 3600;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StartOrder {
    pub org_id: String,
    pub domain: String,
    pub publish_id: String,
    pub version: Option<String>,
    pub paths: Option<Vec<String>>,
    pub starts_per_hour: u64,
    pub batch_pages: u32,
    pub now_unix: u64,
    pub now_iso: String,
    /// The beacon and playground, as the deployment switches them.
    #[serde(default)]
    pub extras: PageExtras,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct OrgRecord {
    /// Start times (unix seconds) within the last hour.
    starts: Vec<u64>,
    /// The latest job of each domain.
    latest: HashMap<String, String>,
}

#[durable_object]
pub struct ExportOrg {
    state: State,
    env: Env,
    /// Domains whose start is under way in this instance, with the job id being created: a second
    /// start arriving while the first awaits the job object is refused instead of racing it.
    starting: RefCell<HashMap<String, String>>,
}

impl DurableObject for ExportOrg {
    fn new(state: State, env: Env) -> Self {
        Self { state, env, starting: RefCell::new(HashMap::new()) }
    }

    async fn fetch(&self, mut req: Request) -> Result<Response> {
        let _span = DurableSpan::start("ExportOrg", req.path());
        if req.path() != "/start" {
            return error_reply(&ApiError::Internal("no such export-org operation".into()));
        }
        let order: StartOrder = req.json().await?;
        match self.start(order).await {
            Ok(job) => Response::from_json(&job).map(|r| r.with_status(202)),
            Err(err) => error_reply(&err),
        }
    }
}

impl ExportOrg {
    async fn start(&self, order: StartOrder) -> ApiResult<JobView> {
        if let Some(job_id) = self.starting.borrow().get(&order.domain) {
            return Err(ApiError::JobActive { job_id: job_id.clone() });
        }
        let storage = self.state.storage();
        let mut record: OrgRecord = storage.get(RECORD_KEY).await?.unwrap_or_default();
        record.starts.retain(|t| t + HOUR_SECS > order.now_unix);
        if record.starts.len() as u64 >= order.starts_per_hour {
            let oldest = record.starts.iter().min().copied().unwrap_or(order.now_unix);
            let retry_after_secs = (oldest + HOUR_SECS).saturating_sub(order.now_unix).max(1);
            return Err(ApiError::RateLimited {
                message: format!("at most {} export jobs may start per organization per hour", order.starts_per_hour),
                retry_after_secs,
                headers: Vec::new(),
            });
        }
        let job_id = random_id("se_", 8)?;
        // Checked again: another start may have begun while storage was read.
        if let Some(other) = self.starting.borrow().get(&order.domain) {
            return Err(ApiError::JobActive { job_id: other.clone() });
        }
        self.starting.borrow_mut().insert(order.domain.clone(), job_id.clone());
        let result = self.create(&order, &job_id, record.latest.get(&order.domain).cloned()).await;
        self.starting.borrow_mut().remove(&order.domain);
        let job = result?;
        // Read again: other domains' starts may have been recorded meanwhile.
        let mut record: OrgRecord = storage.get(RECORD_KEY).await?.unwrap_or_default();
        record.starts.retain(|t| t + HOUR_SECS > order.now_unix);
        record.starts.push(order.now_unix);
        record.latest.insert(order.domain.clone(), job_id);
        storage.put(RECORD_KEY, &record).await?;
        Ok(job)
    }

    async fn create(&self, order: &StartOrder, job_id: &str, previous: Option<String>) -> ApiResult<JobView> {
        if let Some(previous) = previous {
            let owner = OwnerQuery { org_id: order.org_id.clone() };
            let view: JobView = post(&self.env, EXPORT_JOBS_BINDING, &previous, "status", &owner).await?;
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
            paths: order.paths.clone(),
            batch_pages: order.batch_pages,
            created_at: order.now_iso.clone(),
            created_unix: order.now_unix,
            extras: order.extras.clone(),
        };
        post(&self.env, EXPORT_JOBS_BINDING, job_id, "start", &start).await
    }
}
