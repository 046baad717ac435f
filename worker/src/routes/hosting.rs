//! `/v1/admin/orgs/{orgId}/domains/{domain}/hosting` (operator): whether the domain's site is
//! served by this service, with the options of the exports it is served from. Turning it on starts
//! the site's export of what is live; each publish that goes live starts the next
//! ([`after_publish`]); the export job switches the site when its files are written. Turning it off
//! takes the site offline at once (its pointer is deleted; the exports' files stay).

use docs_edge_core::export::hosting::parse_hosting;
use worker::Response;

use crate::auth::require_operator;
use crate::context::Call;
use crate::directory::Directory;
use crate::error::{ApiError, ApiResult};
use crate::http::{json_response, read_json_object};
use crate::routes::export::start_site_export;
use crate::storage::{self, hosted_live_key};

/// The organization's directory and the path's domain, which must be one of its domains.
async fn org_domain(call: &Call) -> ApiResult<(Directory, String, String)> {
    require_operator(&call.req, &call.env)?;
    let directory = Directory::open(&call.env)?;
    let record = directory.require_org(call.param(0)).await?;
    let domain = call.param(1).to_ascii_lowercase();
    if !record.org.domains.contains(&domain) {
        return Err(ApiError::NotFound(format!("domain {domain} not found in this organization")));
    }
    Ok((directory, record.org.org_id, domain))
}

pub async fn get(call: &mut Call) -> ApiResult<Response> {
    let (directory, _, domain) = org_domain(call).await?;
    let settings = directory.hosting(&domain).await?.unwrap_or_default();
    json_response(200, &serde_json::json!({ "domain": domain, "hosting": settings.to_json() }))
}

pub async fn put(call: &mut Call) -> ApiResult<Response> {
    let (directory, org_id, domain) = org_domain(call).await?;
    let body = read_json_object(&mut call.req, call.config.max_json_body_bytes).await?;
    let settings = parse_hosting(&body, &domain)?;
    directory.save_hosting(&domain, &settings).await?;
    let export_job = if settings.enabled {
        start_site_export(call, &org_id, &domain, &settings).await?
    } else {
        storage::bucket(&call.env)?.delete(hosted_live_key(&domain)).await?;
        crate::hosted_site::forget(&domain);
        None
    };
    json_response(200, &serde_json::json!({ "domain": domain, "hosting": settings.to_json(), "exportJob": export_job }))
}

/// After a publish of `domain` went live: its site's next export, when the domain is hosted. The
/// publish has succeeded whatever happens here; a refused start (the hour's export starts used up,
/// an export still running) is logged, and the site stays on its current export.
pub async fn after_publish(call: &Call, org_id: &str, domain: &str) {
    let started = async {
        match Directory::open(&call.env)?.hosting(domain).await? {
            Some(settings) if settings.enabled => start_site_export(call, org_id, domain, &settings).await,
            _ => Ok(None),
        }
    };
    if let Err(err) = started.await {
        crate::log_line::error(&serde_json::json!({"event": "site_export_not_started", "domain": domain, "error": err.public_message()}));
    }
}
