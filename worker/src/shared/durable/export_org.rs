//! `ExportOrg`'s messages and client, which both scripts compile: the object itself is the
//! request-serving script's (`crate::edge::durable::export_org`), and the builder's `PublishJob`
//! calls it when a publish of a hosted domain goes live (through its own binding to the class,
//! `wrangler.builder.toml`). [`StartOrder::for_site`] is the one place a hosted site's export order
//! is made, whether the operator turned hosting on or a publish went live.

use docs_edge_core::export::hosting::HostingSettings;
use docs_edge_core::export::{ExportVersions, MarkdownPages, PageExtras};
use docs_edge_core::platform::deployment::Features;
use docs_edge_core::wire::ExportJob as JobView;
use serde::{Deserialize, Serialize};
use worker::Env;

use crate::shared::clock::{now_iso, now_unix};
use crate::shared::config::{ExportLimits, EXPORT_ORGS_BINDING};
use crate::shared::durable::export_job::SiteTarget;
use crate::shared::durable_client::{durable_operations, send};
use crate::shared::error::ApiResult;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StartOrder {
    pub org_id: String,
    pub domain: String,
    pub publish_id: String,
    pub version: Option<String>,
    /// More versions than `version`, as the request asked.
    #[serde(default)]
    pub versions: Option<ExportVersions>,
    pub paths: Option<Vec<String>>,
    /// `.md` files beside the pages, as the request asked (`None`: the default for the size).
    #[serde(default)]
    pub markdown: Option<MarkdownPages>,
    pub starts_per_hour: u64,
    pub batch_pages: u32,
    pub now_unix: u64,
    pub now_iso: String,
    /// The beacon and playground, as the deployment switches them.
    #[serde(default)]
    pub extras: PageExtras,
    /// Set for the export a hosted domain's site is served from.
    #[serde(default)]
    pub site: Option<SiteTarget>,
}

impl StartOrder {
    /// The export a hosted domain's site is served from, of its published version `publish_id`,
    /// with its hosting setting's options. Its analytics beacon and widget ask the site's own origin.
    /// A preview's (`preview_host`) is served at its own hostname's root, and counts no analytics:
    /// its readers are the owners reviewing it.
    pub fn for_site(
        org_id: &str,
        domain: &str,
        publish_id: String,
        settings: &HostingSettings,
        features: &Features,
        limits: ExportLimits,
        preview_host: Option<&str>,
    ) -> StartOrder {
        let extras = PageExtras {
            beacon_endpoint: (settings.analytics && features.analytics && preview_host.is_none())
                .then(|| format!("https://{domain}/discovery/v1/analytics/{domain}/events")),
            playground: features.playground,
            assistant: settings.assistant.clone(),
        };
        StartOrder {
            org_id: org_id.to_string(),
            domain: domain.to_string(),
            publish_id,
            version: settings.version.clone(),
            versions: settings.versions.clone(),
            paths: None,
            markdown: settings.markdown,
            starts_per_hour: limits.starts_per_hour,
            batch_pages: limits.batch_pages,
            now_unix: now_unix(),
            now_iso: now_iso(),
            extras,
            site: Some(match preview_host {
                Some(host) => SiteTarget {
                    path_prefix: None,
                    preview_host: Some(host.to_string()),
                },
                None => SiteTarget {
                    path_prefix: settings.path_prefix.clone(),
                    preview_host: None,
                },
            }),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PublishOrder {
    pub per_hour: u64,
    pub now_unix: u64,
}

durable_operations! {
    binding: EXPORT_ORGS_BINDING;
    /// What an `ExportOrg` object does.
    pub enum ExportOrgOp / ExportOrgCall {
        Start(StartOrder) => "start",
        Publish(PublishOrder) => "publish",
    }
}

/// The `ExportOrg` object of one organization, seen from its callers.
pub struct ExportOrgClient<'a> {
    env: &'a Env,
    org_id: &'a str,
}

impl<'a> ExportOrgClient<'a> {
    pub fn new(env: &'a Env, org_id: &'a str) -> Self {
        ExportOrgClient { env, org_id }
    }

    /// Starts an export job: the job, or the refusal (409 `job_active`, 429, the job's 4xx) relayed.
    pub async fn start(&self, order: &StartOrder) -> ApiResult<JobView> {
        send(self.env, self.org_id, &ExportOrgCall::Start(order)).await
    }

    /// [`Self::start`] for a caller that does not read the job (the builder: a serde reader of the
    /// job's view costs its script bytes for nothing).
    pub async fn start_unread(&self, order: &StartOrder) -> ApiResult<()> {
        let _: serde::de::IgnoredAny =
            send(self.env, self.org_id, &ExportOrgCall::Start(order)).await?;
        Ok(())
    }

    /// Takes a publish slot, or the 429 relayed.
    pub async fn admit_publish(&self, order: &PublishOrder) -> ApiResult<()> {
        let _: serde_json::Value =
            send(self.env, self.org_id, &ExportOrgCall::Publish(order)).await?;
        Ok(())
    }
}
