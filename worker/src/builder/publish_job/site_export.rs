//! A publish of a hosted domain, live: its site's next export starts here, as the version is
//! switched, whether the publishing request waited for it (200) or not (202, its status perhaps
//! never read). This is the one owner of "publish went live → export"; the request-serving script
//! starts a site's export only when the operator turns hosting on. A preview publish's version is
//! built, not switched, and its export is written at the preview's hostname.
//!
//! The start goes through the organization's `ExportOrg` object (the request-serving script's,
//! bound here by `script_name`), so the hourly starts and one active export per domain hold as for
//! any other start. The publish has succeeded whatever happens here: a refused start (the hour's
//! starts used up, an export still running) or a missing binding is logged, and the site stays on
//! its current export.

use worker::Env;

use super::record::Record;
use crate::shared::directory::Directory;
use crate::shared::durable::export_org::{ExportOrgClient, StartOrder};
use crate::shared::error::ApiResult;

/// Starts the site's export of `record`'s publish, just switched live, when its domain is hosted.
pub(super) async fn start_after_publish(env: &Env, record: &Record) {
    match start(env, record).await {
        // The job logs its own lines, with its id.
        Ok(true) => crate::shared::log_line::info(
            &serde_json::json!({"event": "site_export_started", "publishId": record.publish_id}),
        ),
        Ok(false) => {}
        Err(err) => crate::shared::log_line::error(
            &serde_json::json!({"event": "site_export_not_started", "publishId": record.publish_id, "domain": record.domain, "error": err.public_message()}),
        ),
    }
}

async fn start(env: &Env, record: &Record) -> ApiResult<bool> {
    let features = &record.settings.features;
    if !features.static_export {
        return Ok(false);
    }
    let Some(settings) = Directory::open(env)?.hosting(&record.domain).await? else {
        return Ok(false);
    };
    if !settings.enabled {
        return Ok(false);
    }
    let order = StartOrder::for_site(
        &record.org_id,
        &record.domain,
        record.publish_id.clone(),
        &settings,
        features,
        record.settings.export_limits(),
        record.preview_host.as_deref(),
    );
    ExportOrgClient::new(env, &record.org_id)
        .start_unread(&order)
        .await?;
    Ok(true)
}
