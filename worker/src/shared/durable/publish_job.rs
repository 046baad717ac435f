//! `PublishJob`: one Durable Object per domain, in the builder script (`crate::builder::publish_job`; this module holds
//! what both scripts compile: its messages, its client and the [`Progress`] it answers). It
//! serialises the domain's publishes (one at a time: a second is refused with 409
//! `publish_in_progress` while one runs) and runs each as
//! alarm-driven steps of `docs_edge_core::publish`, so no step holds more than a batch of pages:
//! unpack the stored upload into source packs, plan, parse and index batches, merge the term
//! groups, concatenate the packs, finish the meta, outline and agent documents, switch
//! `current.json` (not for a preview, `Start::preview_host`: its version is only built, and its site
//! exported at its own hostname), delete the intermediate objects. A small site (its unpacked files within
//! `publish::SMALL_SITE_BYTES`) is built in memory in its unpack step instead, which writes only the
//! final objects, each started as soon as it is made (its packs while its pages are parsed). When
//! the publishing request waits (`Start::wait`), the first steps run in its `start` call, so a small
//! site is live when that call answers; alarms run the rest, and retry. Each step logs a
//! `publish_step` line: its duration, its phases, R2 reads and writes (count and bytes) and wasm
//! memory.
//!
//! Resuming: every step writes its objects before the state that counts it, and its bytes depend
//! only on the job, so an alarm cut short (or an isolate killed) redoes its step. Each step's
//! attempts are stored before it runs: after [`MAX_ATTEMPTS`] the publish fails. A status poll
//! re-arms a lost alarm. Nothing is live until the switch, so a failed or abandoned publish leaves
//! the previous version serving (its objects go with the retention sweep, or the cleanup here).
//!
//! Internal protocol ([`PublishJobOp`], sent by [`PublishJobClient`]): `begin` reserves the domain
//! for an upload, `start` starts it once stored, `abandon` releases a reservation whose upload failed,
//! `status` reads one publish.

use docs_edge_core::wire::PublishStatus;
use serde::{Deserialize, Serialize};
use worker::Env;

use crate::shared::config::{JobSettings, PUBLISH_JOBS_BINDING};
use crate::shared::durable_client::{durable_operations, send};
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::sites::SiteVersion;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Begin {
    pub publish_id: String,
    pub org_id: String,
    pub domain: String,
    #[serde(default)]
    pub settings: JobSettings,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Start {
    pub publish_id: String,
    pub source_bytes: u64,
    /// The caller waits for the publish: its first steps run in the `start` call itself (no alarm
    /// to schedule, no status to poll), an alarm only retrying them if that call is lost.
    #[serde(default)]
    pub wait: bool,
    /// A preview publish's hostname (its label checked when its upload or manifest was staged):
    /// built, never switched live.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview_host: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Query {
    pub publish_id: String,
    pub org_id: String,
}

durable_operations! {
    binding: PUBLISH_JOBS_BINDING;
    /// What a `PublishJob` object does.
    pub enum PublishJobOp / PublishJobCall {
        Begin(Begin) => "begin",
        Start(Start) => "start",
        Abandon(Start) => "abandon",
        Status(Query) => "status",
    }
}

/// The `PublishJob` object of one domain, seen from its callers.
pub struct PublishJobClient<'a> {
    env: &'a Env,
    domain: &'a str,
}

impl<'a> PublishJobClient<'a> {
    pub fn new(env: &'a Env, domain: &'a str) -> Self {
        PublishJobClient { env, domain }
    }

    /// Reserves the domain for an upload (409 `publish_in_progress` while another runs); the publish
    /// will run under this script's settings ([`JobSettings`]).
    pub async fn begin(&self, publish_id: &str, org_id: &str) -> ApiResult<PublishStatus> {
        let settings = JobSettings::from_env(self.env).map_err(ApiError::Internal)?;
        self.begin_with(publish_id, org_id, settings).await
    }

    /// [`Self::begin`] under `settings` another script read (the builder has no variables).
    pub async fn begin_with(
        &self,
        publish_id: &str,
        org_id: &str,
        settings: JobSettings,
    ) -> ApiResult<PublishStatus> {
        let begin = Begin {
            publish_id: publish_id.to_owned(),
            org_id: org_id.to_owned(),
            domain: self.domain.to_owned(),
            settings,
        };
        send(self.env, self.domain, &PublishJobCall::Begin(&begin)).await
    }

    /// Starts a stored upload's publish; with `wait`, answers once its first steps ran (a small
    /// site: live or failed).
    pub async fn start(&self, start: &Start) -> ApiResult<Progress> {
        self.seen(send(self.env, self.domain, &PublishJobCall::Start(start)).await?)
    }

    pub async fn abandon(&self, start: &Start) -> ApiResult<PublishStatus> {
        send(self.env, self.domain, &PublishJobCall::Abandon(start)).await
    }

    pub async fn status(&self, query: &Query) -> ApiResult<Progress> {
        self.seen(send(self.env, self.domain, &PublishJobCall::Status(query)).await?)
    }

    /// A publish seen live was switched in the builder script: this isolate drops its idea of the
    /// live version at once (others within the pointer cache's lifetime), so whatever it answers next
    /// is the new version.
    fn seen(&self, progress: Progress) -> ApiResult<Progress> {
        #[cfg(feature = "edge")]
        if progress.status.status == docs_edge_core::wire::PublishState::Live {
            crate::edge::live::forget(self.domain);
        }
        Ok(progress)
    }
}

/// What `start` and `status` answer: the publish as its callers see it, and what the publishing
/// request needs to answer for it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    pub status: PublishStatus,
    /// Whether the upload is at fault (the publish route answers 400 `invalid_archive`).
    pub invalid_upload: bool,
    /// The version a live publish made.
    pub version: Option<SiteVersion>,
}
