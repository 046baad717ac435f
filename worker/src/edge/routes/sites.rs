//! `/v1/sites/{domain}`: publish a docs folder (`.tar.gz`) and read what is live. Admin keys only.

use std::time::Duration;

use docs_edge_core::http::request_url;
use docs_edge_core::wire::{KeyKind, PublishState, PublishedSite};
use worker::{Env, Response};

use crate::edge::auth::{require_domain, require_key};
use crate::edge::builder_client::forward;
use crate::edge::context::Call;
use crate::shared::builder_orders::{FileOp, FileOrder, Staged};
use crate::shared::clock::{now_ms, now_unix};
use crate::shared::config::{Config, JobSettings};
use crate::shared::directory::Directory;
use crate::shared::durable::export_org::{ExportOrgClient, PublishOrder};
use crate::shared::durable::publish_job::{PublishJobClient, Query, Start};
use crate::shared::durable_client::read_reply;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::http::{json_response, refuse_declared_over, require_content_type};
use crate::shared::random::random_id;
use crate::shared::sites::{self, SiteVersion};
use crate::shared::storage;

const ARCHIVE_TYPES: &[&str] = &[
    "application/gzip",
    "application/x-gzip",
    "application/x-tar+gzip",
];

fn published(domain: &str, version: &SiteVersion) -> PublishedSite {
    PublishedSite {
        domain: domain.to_string(),
        published_at: version.published_at.clone(),
        page_count: version.page_count,
        languages: version.languages.clone(),
        versions: version.versions.clone(),
        warnings: version.warnings.clone(),
        preview_url: None,
    }
}

/// Stores the upload (streamed, never whole, by the builder) and starts its publish in the domain's
/// `PublishJob`; answers as [`start_publish`] does.
pub async fn publish(call: &mut Call) -> ApiResult<Response> {
    let directory = Directory::open(&call.env)?;
    let key = require_key(&call.req, &directory, KeyKind::Admin).await?;
    let domain = require_domain(&directory, &key, call.param(0)).await?;
    require_content_type(
        &call.req,
        ARCHIVE_TYPES,
        "a .tar.gz archive (Content-Type: application/gzip)",
    )?;
    let publish_id = random_id("pub_", 8)?;
    // The job's client keeps its own handle on the bindings: the upload's forwarding takes the call.
    let env = call.env.clone();
    // Read before the domain is reserved: nothing after the reservation may fail without releasing it.
    let settings = JobSettings::from_env(&call.env).map_err(ApiError::Internal)?;
    // `?preview=<label>`: the builder checks it before it reads the upload.
    let preview = request_url::query_param(&call.req.inner().url(), "preview");
    let jobs = reserve_publish(&env, &call.config, &key.org_id, &domain, &publish_id).await?;
    let order = FileOrder {
        org_id: key.org_id.clone(),
        domain: domain.clone(),
        hash: None,
        publish_id: Some(publish_id.clone()),
        max_bytes: Some(call.config.max_upload_bytes as u64),
        preview,
        settings,
    };
    let staged = match store_upload(call, &order).await {
        Ok(staged) => staged,
        Err(err) => {
            release(&jobs, publish_id).await;
            return Err(err);
        }
    };
    start_publish(
        &call.config,
        &jobs,
        &domain,
        &key.org_id,
        publish_id,
        staged,
    )
    .await
}

/// Counts the publish against the organization's rate (before anything is read: every publish
/// attempt unpacks and indexes a whole site) and reserves the domain's `PublishJob` for it.
pub(crate) async fn reserve_publish<'a>(
    env: &'a Env,
    config: &Config,
    org_id: &str,
    domain: &'a str,
    publish_id: &str,
) -> ApiResult<PublishJobClient<'a>> {
    let order = PublishOrder {
        per_hour: config.publishes_per_hour,
        now_unix: now_unix(),
    };
    ExportOrgClient::new(env, org_id)
        .admit_publish(&order)
        .await?;
    let jobs = PublishJobClient::new(env, domain);
    jobs.begin(publish_id, org_id).await?;
    Ok(jobs)
}

/// Streams the upload to the builder, which stores it as the version's source (`crate::builder::site_files`;
/// 413 past `MAX_UPLOAD_BYTES`, declared or counted); its size and checked preview.
async fn store_upload(call: &mut Call, order: &FileOrder) -> ApiResult<Staged> {
    refuse_declared_over(&call.req, call.config.max_upload_bytes)?;
    let response = forward(call, FileOp::Source, order).await?;
    let (_, bytes) = read_reply(response, "builder", "files/source").await?;
    Ok(serde_json::from_slice::<Staged>(&bytes)?)
}

/// Releases the domain of a publish whose upload failed (and deletes what of it was stored).
async fn release(jobs: &PublishJobClient<'_>, publish_id: String) {
    if let Err(abandon) = jobs
        .abandon(&Start {
            publish_id,
            source_bytes: 0,
            wait: false,
            preview_host: None,
        })
        .await
    {
        crate::shared::log_line::error(
            &serde_json::json!({"event": "publish_abandon_failed", "error": abandon.public_message()}),
        );
    }
}

/// Starts a stored upload's publish: answers 200 with the live site (a preview's: the version it
/// built, with its `previewUrl`) if it goes live within `PUBLISH_WAIT_MS`, 400 if the upload is
/// refused by then, else 202 with the publish's status resource (also in `Location`).
pub(crate) async fn start_publish(
    config: &Config,
    jobs: &PublishJobClient<'_>,
    domain: &str,
    org_id: &str,
    publish_id: String,
    staged: Staged,
) -> ApiResult<Response> {
    // Waiting, the publish's first steps run in the start call (a small site's all of them).
    let wait = config.publish_wait_ms > 0;
    let mut record = jobs
        .start(&Start {
            publish_id: publish_id.clone(),
            source_bytes: staged.size,
            wait,
            preview_host: staged.preview_host,
        })
        .await?;
    let query = Query {
        publish_id: publish_id.clone(),
        org_id: org_id.to_owned(),
    };
    let deadline = now_ms() + config.publish_wait_ms;
    let mut pause = 25;
    loop {
        match (record.status.status, record.version.as_ref()) {
            (PublishState::Live, Some(version)) => {
                let mut site = published(domain, version);
                site.preview_url = record.status.preview_url.clone();
                return json_response(200, &site);
            }
            (PublishState::Failed, _) => {
                let message = record
                    .status
                    .error
                    .clone()
                    .unwrap_or_else(|| "the publish failed".into());
                return Err(if record.invalid_upload {
                    ApiError::InvalidArchive(message)
                } else {
                    ApiError::Internal(message)
                });
            }
            _ if now_ms() >= deadline => break,
            _ => {}
        }
        worker::Delay::from(Duration::from_millis(pause)).await;
        // Past its first steps a publish takes a while: polling every 50 ms at most keeps the answer
        // close behind it, at one cheap status read per poll.
        pause = (pause * 2).min(50);
        record = jobs.status(&query).await?;
    }
    let mut response = json_response(202, &record.status)?;
    response.headers_mut().set(
        "location",
        &format!("/v1/sites/{domain}/publishes/{publish_id}"),
    )?;
    Ok(response)
}

/// `GET /v1/sites/{domain}/publishes/{publishId}`: where a publish is.
pub async fn publish_status(call: &mut Call) -> ApiResult<Response> {
    let directory = Directory::open(&call.env)?;
    let key = require_key(&call.req, &directory, KeyKind::Admin).await?;
    let domain = require_domain(&directory, &key, call.param(0)).await?;
    let query = Query {
        publish_id: call.param(1).to_owned(),
        org_id: key.org_id.clone(),
    };
    let record = PublishJobClient::new(&call.env, &domain)
        .status(&query)
        .await?;
    json_response(200, &record.status)
}

pub async fn get(call: &mut Call) -> ApiResult<Response> {
    let directory = Directory::open(&call.env)?;
    let key = require_key(&call.req, &directory, KeyKind::Admin).await?;
    let domain = require_domain(&directory, &key, call.param(0)).await?;
    let version = sites::current_version(&storage::bucket(&call.env)?, &domain, &key.org_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no docs are published for {domain}")))?;
    json_response(200, &published(&domain, &version))
}
