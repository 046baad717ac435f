//! `ExportJob`: one Durable Object per static export job, in the builder script (`crate::builder::export_job`; this
//! module holds what both scripts compile: its messages and its client). It holds the job's state and renders the
//! site in alarm-driven batches, each written to R2 as one gzip member of tar entries, so no alarm
//! holds more than a batch of pages in memory or runs long. After the pages, a deployment with search
//! or the assistant on copies the version's search index packs a piece per step
//! (`crate::builder::export_search`). The job renders the version that was live when it was requested (its
//! `publishId`), so a publish during the job changes nothing in it.
//!
//! A batch reads the version's outline and file table (kept per isolate) and only its own pages'
//! files from the source packs (`crate::builder::export_source::ExportSource`), so its work does not grow with the site. The
//! finishing step (offline search index over every page's text, `llms-full.txt`, the assets every
//! page references) reads the pages the same way, a batch at a time ([`docs_edge_core::export::FinishingMembers`]),
//! keeping a term's best postings and the documents deflated, and storing `llms-full.txt` in parts as
//! it is compressed.
//!
//! Resuming: a batch's part is written before the state that counts it, and batch boundaries and file
//! bytes depend only on the job, so an alarm cut short redoes its batch into the same part with the
//! same bytes. Polling the status re-arms a lost alarm while attempts are left: each attempt is
//! counted and stored before its step runs ([`StepAttempts`]), so a step that takes the isolate
//! down still counts, and the job fails after the bound instead of running forever.
//!
//! Internal protocol ([`ExportJobOp`], sent by [`ExportJobClient`]): `start` with [`StartJob`];
//! `status`, `bundle` and `cancel` with [`OwnerQuery`]; another organization's job reads as not found.

use docs_edge_core::export::{ExportVersions, MarkdownPages, PageExtras};
use docs_edge_core::wire::ExportJob as JobView;
use serde::{Deserialize, Serialize};
use worker::Env;

use crate::shared::config::{JobSettings, EXPORT_JOBS_BINDING};
use crate::shared::durable_client::{durable_operations, send};
use crate::shared::error::ApiResult;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StartJob {
    pub job_id: String,
    pub org_id: String,
    pub domain: String,
    /// The published version to render, read when the job was requested.
    pub publish_id: String,
    pub version: Option<String>,
    /// `"versions"` of the request: more versions than `version`.
    #[serde(default)]
    pub versions: Option<ExportVersions>,
    pub paths: Option<Vec<String>>,
    #[serde(default)]
    pub markdown: Option<MarkdownPages>,
    pub batch_pages: u32,
    pub created_at: String,
    pub created_unix: u64,
    #[serde(default)]
    pub extras: PageExtras,
    #[serde(default)]
    pub settings: JobSettings,
    /// Set when the export is a hosted site's: once complete, its files are written one object each
    /// and the site switched to it.
    #[serde(default)]
    pub site: Option<SiteTarget>,
}

/// Where a hosted site's export is served: under the domain, at this path; or, for a preview, at
/// its own hostname (`docs_edge_core::publish::preview`), with `noindex`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteTarget {
    #[serde(default)]
    pub path_prefix: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview_host: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerQuery {
    pub org_id: String,
}

durable_operations! {
    binding: EXPORT_JOBS_BINDING;
    /// What an `ExportJob` object does.
    pub enum ExportJobOp / ExportJobCall {
        Start(StartJob) => "start",
        Status(OwnerQuery) => "status",
        Cancel(OwnerQuery) => "cancel",
        Bundle(OwnerQuery) => "bundle",
    }
}

/// The `ExportJob` object of one job, seen from its callers. Another organization's job, or none,
/// is a relayed 404.
pub struct ExportJobClient<'a> {
    env: &'a Env,
    job_id: &'a str,
}

impl<'a> ExportJobClient<'a> {
    pub fn new(env: &'a Env, job_id: &'a str) -> Self {
        ExportJobClient { env, job_id }
    }

    /// Creates the job (the object refuses a second start).
    pub async fn start(&self, start: &StartJob) -> ApiResult<JobView> {
        send(self.env, self.job_id, &ExportJobCall::Start(start)).await
    }

    pub async fn status(&self, owner: &OwnerQuery) -> ApiResult<JobView> {
        send(self.env, self.job_id, &ExportJobCall::Status(owner)).await
    }

    pub async fn cancel(&self, owner: &OwnerQuery) -> ApiResult<JobView> {
        send(self.env, self.job_id, &ExportJobCall::Cancel(owner)).await
    }

    /// The finished bundle's facts, once it is in R2.
    pub async fn bundle(&self, owner: &OwnerQuery) -> ApiResult<BundleReady> {
        send(self.env, self.job_id, &ExportJobCall::Bundle(owner)).await
    }
}

/// What `bundle` answers once the archive is in R2; the worker turns it into a link.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BundleReady {
    pub job_id: String,
    pub domain: String,
    pub created_at: String,
    pub size_bytes: u64,
    /// SHA-256 of the archive, lowercase hex.
    pub sha256: String,
}
