//! Versions published before the publish pipeline (their record has no `layout`) lack objects
//! every reader now expects (split search index, source layout, documents for agents), and the
//! whole-site code that once made those on first use is gone from the worker. Instead, the first
//! request that meets such a live version republishes its stored upload (or, for a version published
//! file by file, its manifest over the files in the site's store) through the domain's
//! `PublishJob` (bounded memory, like any publish) and answers 503 `site_upgrading` with
//! `Retry-After`; the old version stays live until the rebuilt one replaces it. The rebuild is
//! recorded beside the old version (`rebuild.json`), so later requests wait for it, and one that
//! failed (the upload breaks a rule added since) is answered 409 `republish_required` with its
//! reason instead of being retried on every request.
//!
//! The request-serving script finds such a version ([`require_current`]) and has the builder start
//! or follow its rebuild through the service binding (`crate::edge::builder_client`, `crate::builder::rebuild`), whose
//! answer is the request's: rebuilds are rare, and their code stays out of the request-serving
//! module.

use worker::Env;

use crate::edge::builder_client::post_to_builder;
use crate::shared::builder_orders::{UpgradeOrder, UPGRADE_PATH};
use crate::shared::config::JobSettings;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::sites::{SiteVersion, CURRENT_LAYOUT};

/// `Ok` for a version in the current layout; for one from an earlier release, the builder starts
/// or follows its rebuild and this answers its 503 `site_upgrading`, or 409 `republish_required`
/// once the rebuild has failed.
pub async fn require_current(env: &Env, domain: &str, version: &SiteVersion) -> ApiResult<()> {
    if version.layout >= CURRENT_LAYOUT {
        return Ok(());
    }
    let settings = JobSettings::from_env(env).map_err(ApiError::Internal)?;
    let order = UpgradeOrder {
        domain: domain.to_string(),
        publish_id: version.publish_id.clone(),
        org_id: version.org_id.clone(),
        settings,
    };
    post_to_builder(env, UPGRADE_PATH, &serde_json::to_string(&order)?)
        .await
        .map(drop)
}
