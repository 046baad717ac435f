//! A publish's `preview` label, checked where its upload or manifest is staged (before the publish
//! is started): a DNS label that fits its hostname (`docs_edge_core::publish::preview`), on a
//! deployment that serves previews (`PREVIEW_HOST_SUFFIX`, static exports on) and a domain whose
//! site is hosted, since a preview is its hosting setting's export at another hostname. Each refusal
//! is a 400 naming the `preview` field and the rule.

use docs_edge_core::publish::preview::preview_host;
use worker::Env;

use crate::shared::builder_orders::FileOrder;
use crate::shared::directory::Directory;
use crate::shared::error::{ApiError, ApiResult};

/// The hostname of `label`'s preview of the order's domain; `None` for a publish that is no preview.
pub async fn check(env: &Env, order: &FileOrder, label: Option<&str>) -> ApiResult<Option<String>> {
    let Some(label) = label else {
        return Ok(None);
    };
    let host = preview_host(label, &order.domain, &order.settings.preview_host_suffix)?;
    if !order.settings.features.static_export {
        return Err(ApiError::Invalid(
            "preview: static exports are off in this deployment, and a preview is served from one"
                .into(),
        ));
    }
    let hosted = Directory::open(env)?
        .hosting(&order.domain)
        .await?
        .is_some_and(|settings| settings.enabled);
    if !hosted {
        return Err(ApiError::Invalid(format!(
            "preview: previews are served for hosted domains only; the operator turns hosting on for {}",
            order.domain
        )));
    }
    Ok(Some(host))
}
