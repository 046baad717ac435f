//! `/v1/admin/orgs/{orgId}/domains/{domain}/hosting` (operator): whether the domain's site is
//! served by this service, with the options of the exports it is served from. Turning it on starts
//! the site's export of what is live; each publish that goes live starts the next (the builder's
//! `PublishJob`, as it switches the version); the export job switches the site when its files are
//! written. Turning it off
//! takes the site offline at once (its pointer is deleted; the exports' files stay). Reading and
//! storing the setting is the builder's (`crate::builder::admin`), like the rest of the operator API.

use docs_edge_core::export::hosting::HostingSettings;
use serde_json::Value;
use worker::Response;

use crate::edge::context::Call;
use crate::edge::routes::export::start_site_export;
use crate::shared::builder_orders::HOSTING_STORED_HEADER;
use crate::shared::durable_client::read_reply;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::http::json_response;

/// The builder checks the domain, validates and stores the setting, and takes a site switched off
/// offline (`crate::builder::admin`); then, with the setting as stored, this starts the site's export
/// or forgets the site's pointer in this isolate.
pub async fn put(call: &mut Call) -> ApiResult<Response> {
    let response = crate::edge::routes::admin::forward(call).await?;
    let (headers, body) = read_reply(response, "builder", "hosting").await?;
    let stored = headers
        .get(HOSTING_STORED_HEADER)?
        .ok_or_else(|| ApiError::Internal("builder hosting: no stored setting".into()))?;
    let settings: HostingSettings = serde_json::from_slice(stored.as_bytes())?;
    let domain = call.param(1).to_ascii_lowercase();
    let mut view: Value = serde_json::from_slice(&body)?;
    if settings.enabled {
        if let Some(job) = start_site_export(call, call.param(0), &domain, &settings).await? {
            // Through its JSON text, whose writer and reader this script links anyway.
            view["exportJob"] = serde_json::from_slice(&serde_json::to_vec(&job)?)?;
        }
    } else {
        crate::edge::hosted_site::forget(&domain);
    }
    json_response(200, &view)
}
