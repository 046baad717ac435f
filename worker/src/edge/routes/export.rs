//! `/v1/static-export`: start a job, poll it, get a bundle link (admin keys, enterprise plan), and
//! the bundle download itself (no key: the signed link is the grant).

use docs_edge_core::export::api::{is_job_id, parse_start_request};
use docs_edge_core::export::hosting::HostingSettings;
use docs_edge_core::export::PageExtras;
use docs_edge_core::http::byte_range::{parse_range, RangeRequest};
use docs_edge_core::http::request_url;
use docs_edge_core::platform::deployment::Features;
use docs_edge_core::security::signing::{verify_link, LinkCheck};
use docs_edge_core::wire::ExportJob as JobView;
use docs_edge_core::wire::{BundleLink, KeyKind, Plan};
use worker::{Headers, Range, Response, ResponseBuilder};

use crate::edge::auth::{require_domain, require_key};
use crate::edge::context::Call;
use crate::edge::search_store;
use crate::edge::site_upgrade;
use crate::shared::clock::{iso_from_ms, now_iso, now_unix};
use crate::shared::config::ExportLimits;
use crate::shared::directory::{Directory, KeyRecord};
use crate::shared::durable::export_job::{ExportJobClient, OwnerQuery};
use crate::shared::durable::export_org::{ExportOrgClient, StartOrder};
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::exports::{bundle_url, link_secret};
use crate::shared::http::{header, json_response, read_json_object};
use crate::shared::sites::{self, SiteVersion};
use crate::shared::storage::{self, bundle_key};

/// An admin key of an organization on the enterprise plan.
async fn enterprise_admin(call: &Call, directory: &Directory) -> ApiResult<KeyRecord> {
    let key = require_key(&call.req, directory, KeyKind::Admin).await?;
    if directory.require_plan(&key.org_id).await? != Plan::Enterprise {
        return Err(ApiError::PlanRequired(
            "static export is available on the enterprise plan only; ask your operator to upgrade this organization".into(),
        ));
    }
    Ok(key)
}

fn job_param(call: &Call) -> ApiResult<String> {
    let job_id = call.param(0);
    if is_job_id(job_id) {
        Ok(job_id.to_string())
    } else {
        Err(ApiError::NotFound("export job not found".into()))
    }
}

pub async fn start(call: &mut Call) -> ApiResult<Response> {
    let directory = Directory::open(&call.env)?;
    let key = enterprise_admin(call, &directory).await?;
    let body = read_json_object(&mut call.req, call.config.max_json_body_bytes).await?;
    let request = parse_start_request(&body)?;
    let features = crate::shared::config::deployment(&call.env)
        .map_err(ApiError::Internal)?
        .features;
    if request.analytics && !features.analytics {
        return Err(ApiError::Invalid(
            "analytics: web analytics is switched off in this deployment; leave it out (exports carry no beacon by default)".into(),
        ));
    }
    let domain = require_domain(&directory, &key, &request.domain).await?;
    let live = exportable_version(call, &domain, &key.org_id, &features)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no docs are published for {domain}")))?;
    let extras = PageExtras {
        // Only when the request asks: the beacon reports to this service, at the address the
        // export was requested from.
        beacon_endpoint: request
            .analytics
            .then(|| request_url::origin(&call.req.inner().url()))
            .flatten()
            .map(|origin| format!("{origin}/discovery/v1/analytics/{domain}/events")),
        playground: features.playground,
        assistant: request.assistant,
    };
    let order = StartOrder {
        org_id: key.org_id.clone(),
        domain,
        publish_id: live.publish_id,
        version: request.version,
        versions: request.versions,
        paths: request.paths,
        markdown: request.markdown,
        starts_per_hour: call.config.export_starts_per_hour,
        batch_pages: call.config.export_batch_pages,
        now_unix: now_unix(),
        now_iso: now_iso(),
        extras,
        site: None,
    };
    let job = ExportOrgClient::new(&call.env, &key.org_id)
        .start(&order)
        .await?;
    json_response(202, &job)
}

/// The live version of `domain` an export renders (whatever is published while it runs), once it
/// can be: rebuilt if from an earlier release, its search packs split when the bundle ships them.
/// `None` when nothing is published.
async fn exportable_version(
    call: &Call,
    domain: &str,
    org_id: &str,
    features: &Features,
) -> ApiResult<Option<SiteVersion>> {
    let bucket = storage::bucket(&call.env)?;
    let Some(live) = sites::current_version(&bucket, domain, org_id).await? else {
        return Ok(None);
    };
    site_upgrade::require_current(&call.env, domain, &live).await?;
    if features.search || features.assistant {
        search_store::require_split(&bucket, domain, &live).await?;
    }
    Ok(Some(live))
}

/// Starts the export a hosted domain's site is served from (the operator turned hosting on), of
/// what is live; `None` when nothing is published yet (the first publish starts it: the builder's
/// `PublishJob` starts one whenever a publish of a hosted domain goes live).
pub(crate) async fn start_site_export(
    call: &Call,
    org_id: &str,
    domain: &str,
    settings: &HostingSettings,
) -> ApiResult<Option<JobView>> {
    let features = crate::shared::config::deployment(&call.env)
        .map_err(ApiError::Internal)?
        .features;
    let Some(live) = exportable_version(call, domain, org_id, &features).await? else {
        return Ok(None);
    };
    let limits = ExportLimits {
        starts_per_hour: call.config.export_starts_per_hour,
        batch_pages: call.config.export_batch_pages,
    };
    let order = StartOrder::for_site(
        org_id,
        domain,
        live.publish_id,
        settings,
        &features,
        limits,
        None,
    );
    Ok(Some(
        ExportOrgClient::new(&call.env, org_id)
            .start(&order)
            .await?,
    ))
}

pub async fn get(call: &mut Call) -> ApiResult<Response> {
    let directory = Directory::open(&call.env)?;
    let key = enterprise_admin(call, &directory).await?;
    let job_id = job_param(call)?;
    let job = ExportJobClient::new(&call.env, &job_id)
        .status(&OwnerQuery { org_id: key.org_id })
        .await?;
    json_response(200, &job)
}

/// `DELETE /v1/static-export/jobs/{jobId}`: stops a queued or running job (its parts are deleted).
pub async fn cancel(call: &mut Call) -> ApiResult<Response> {
    let directory = Directory::open(&call.env)?;
    let key = enterprise_admin(call, &directory).await?;
    let job_id = job_param(call)?;
    let job = ExportJobClient::new(&call.env, &job_id)
        .cancel(&OwnerQuery { org_id: key.org_id })
        .await?;
    json_response(200, &job)
}

pub async fn bundle(call: &mut Call) -> ApiResult<Response> {
    let directory = Directory::open(&call.env)?;
    let key = enterprise_admin(call, &directory).await?;
    let job_id = job_param(call)?;
    let ready = ExportJobClient::new(&call.env, &job_id)
        .bundle(&OwnerQuery { org_id: key.org_id })
        .await?;
    let now = now_unix();
    let expires = now + call.config.bundle_link_ttl_secs;
    let url = call.req.inner().url();
    let origin = request_url::origin(&url).unwrap_or_default();
    let bundle_url = bundle_url(
        &call.env,
        &origin,
        &job_id,
        &ready.domain,
        &ready.created_at,
        now,
        expires,
    )?;
    json_response(
        200,
        &BundleLink {
            job_id,
            bundle_url,
            size_bytes: ready.size_bytes,
            sha256: ready.sha256,
            expires_at: iso_from_ms(expires * 1000),
        },
    )
}

/// `GET /v1/static-export/bundles/{jobId}?expires=&sig=`: the archive, streamed from R2.
pub async fn download(call: &mut Call) -> ApiResult<Response> {
    let job_id = call.param(0).to_string();
    let url = call.req.inner().url();
    let query = |name: &str| request_url::query_param(&url, name);
    let (Some(expires), Some(signature)) = (
        query("expires").and_then(|e| e.parse::<u64>().ok()),
        query("sig"),
    ) else {
        return Err(ApiError::LinkInvalid);
    };
    match verify_link(
        &link_secret(&call.env)?,
        &job_id,
        expires,
        &signature,
        now_unix(),
    ) {
        LinkCheck::Tampered => return Err(ApiError::LinkInvalid),
        LinkCheck::Expired => return Err(ApiError::LinkExpired),
        LinkCheck::Valid => {}
    }
    let bucket = storage::bucket(&call.env)?;
    let key = bundle_key(&job_id);
    let head = bucket
        .head(&key)
        .await?
        .ok_or_else(|| ApiError::NotFound("bundle not found".into()))?;
    let size = head.size();
    let etag = head.http_etag();
    let file_name = head
        .custom_metadata()?
        .get("fileName")
        .cloned()
        .unwrap_or_else(|| format!("{job_id}.tar.gz"));

    let headers = Headers::new();
    headers.set("content-type", "application/gzip")?;
    headers.set(
        "content-disposition",
        &crate::shared::exports::content_disposition(&file_name),
    )?;
    headers.set("etag", &etag)?;
    headers.set("accept-ranges", "bytes")?;
    // The link stops working at `expires`; caches must not serve it longer, nor recompress it.
    headers.set(
        "cache-control",
        &format!(
            "private, no-transform, max-age={}",
            expires.saturating_sub(now_unix())
        ),
    )?;

    if header(&call.req, "if-none-match")
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"))
    {
        return Ok(ResponseBuilder::new()
            .with_status(304)
            .with_headers(headers)
            .empty());
    }
    let (status, range) = match parse_range(header(&call.req, "range").as_deref(), size) {
        RangeRequest::Whole => (200, None),
        RangeRequest::Part { start, end } => (206, Some((start, end))),
        RangeRequest::Unsatisfiable => return Err(ApiError::RangeNotSatisfiable { size }),
    };
    let mut get = bucket.get(&key);
    if let Some((start, end)) = range {
        get = get.range(Range::OffsetWithLength {
            offset: start,
            length: end - start + 1,
        });
        headers.set("content-range", &format!("bytes {start}-{end}/{size}"))?;
        headers.set("content-length", &(end - start + 1).to_string())?;
    } else {
        headers.set("content-length", &size.to_string())?;
    }
    let object = get
        .execute()
        .await?
        .ok_or_else(|| ApiError::NotFound("bundle not found".into()))?;
    let body = object
        .body()
        .ok_or_else(|| ApiError::Internal("bundle object has no body".into()))?
        .response_body()?;
    Ok(ResponseBuilder::new()
        .with_status(status)
        .with_headers(headers)
        .body(body))
}
