//! The worker's static assets (wrangler.toml `[assets]`, the `worker/public` folder): files kept out
//! of the wasm module, which every isolate loads, and read through the ASSETS binding when needed.

use docs_edge_core::export::StaticFiles;
use worker::{Env, Response};

use crate::config::ASSETS_BINDING;
use crate::error::{ApiError, ApiResult};

/// The binding looks only at the path; the host is never resolved.
const ORIGIN: &str = "https://assets.invalid";

/// Where scripts/build-worker.mjs copies core's `export/static/` files among the assets.
const EXPORT_STATIC_DIR: &str = "export-static";

/// The asset at `path` (relative to the assets folder); a missing one is a deployment fault, a 500.
pub async fn fetch(env: &Env, path: &str) -> ApiResult<Response> {
    let asset = env.assets(ASSETS_BINDING)?.fetch(format!("{ORIGIN}/{path}"), None).await?;
    if asset.status_code() != 200 {
        return Err(ApiError::Internal(format!("the {path} asset answered {}", asset.status_code())));
    }
    Ok(asset)
}

/// The texts of the static export's stylesheets and scripts, in `StaticFiles::NAMES` order.
pub async fn export_static(env: &Env) -> ApiResult<[String; 5]> {
    let mut texts: [String; 5] = Default::default();
    for (text, name) in texts.iter_mut().zip(StaticFiles::NAMES) {
        *text = fetch(env, &format!("{EXPORT_STATIC_DIR}/{name}")).await?.text().await?;
    }
    Ok(texts)
}
