//! `GET /openapi.json`: the API reference. `docs/openapi.json` is the source of truth (the docs site's
//! API reference pages are generated from it); `scripts/build-worker.mjs` copies it into
//! `worker/public/`, and it is deployed as a static asset (wrangler.toml `[assets]`) rather than embedded in the wasm, where its
//! 139 KB cost 17 KiB of every isolate's gzipped module, and streamed through here so that it gets the
//! request id, the log line and the CORS header like every other route. No key; any origin may read it
//! (API explorers). The asset's body stream is handed on as it is (no copy through the module).

use worker::{Headers, Response, ResponseBuilder};

use crate::edge::context::Call;
use crate::shared::error::ApiResult;

pub async fn get(call: &mut Call) -> ApiResult<Response> {
    let asset = crate::shared::assets::fetch(&call.env, "openapi.json").await?;
    let headers = Headers::new();
    headers.set("content-type", "application/json; charset=utf-8")?;
    headers.set("cache-control", "public, max-age=300")?;
    headers.set("access-control-allow-origin", "*")?;
    Ok(ResponseBuilder::new()
        .with_status(200)
        .with_headers(headers)
        .body(asset.body().clone()))
}
