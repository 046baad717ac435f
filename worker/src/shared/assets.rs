//! The worker's static assets (wrangler.toml `[assets]`, the `worker/public` folder): files kept out
//! of the wasm module, which every isolate loads, and read through the ASSETS binding when needed.

use docs_edge_core::export::{widget, ExportFile, StaticFiles};
use worker::{Env, Response};

use crate::shared::config::ASSETS_BINDING;
use crate::shared::error::{ApiError, ApiResult};

/// The binding looks only at the path; the host is never resolved.
const ORIGIN: &str = "https://assets.invalid";

/// Where scripts/build-worker.mjs copies core's `export/static/` files among the assets.
const EXPORT_STATIC_DIR: &str = "export-static";

/// Where scripts/build-widget.mjs lists the assistant widget's files (their names change with
/// their content). Not served: the request-serving script answers every path but the widget's own.
const WIDGET_FILES: &str = "widget-files.json";

/// The asset at `path` (relative to the assets folder); a missing one is a deployment fault, a 500.
pub async fn fetch(env: &Env, path: &str) -> ApiResult<Response> {
    let asset = env
        .assets(ASSETS_BINDING)?
        .fetch(format!("{ORIGIN}/{path}"), None)
        .await?;
    if asset.status_code() != 200 {
        return Err(ApiError::Internal(format!(
            "the {path} asset answered {}",
            asset.status_code()
        )));
    }
    Ok(asset)
}

/// The texts of the static export's stylesheets and scripts, in `StaticFiles::NAMES` order.
pub async fn export_static(env: &Env) -> ApiResult<[String; StaticFiles::COUNT]> {
    let mut texts: [String; StaticFiles::COUNT] = Default::default();
    for (text, name) in texts.iter_mut().zip(StaticFiles::NAMES) {
        *text = fetch(env, &format!("{EXPORT_STATIC_DIR}/{name}"))
            .await?
            .text()
            .await?;
    }
    Ok(texts)
}

/// The assistant widget's files where an export carries them (`export::widget::bundle_path`).
pub async fn widget_files(env: &Env) -> ApiResult<Vec<ExportFile>> {
    let listed: Vec<String> = serde_json::from_str(&fetch(env, WIDGET_FILES).await?.text().await?)?;
    let mut files = Vec::with_capacity(listed.len());
    for asset in listed {
        let path = widget::bundle_path(&asset)
            .ok_or_else(|| ApiError::Internal(format!("{WIDGET_FILES} lists {asset}")))?;
        files.push(ExportFile {
            path,
            bytes: fetch(env, &asset).await?.bytes().await?,
        });
    }
    Ok(files)
}
