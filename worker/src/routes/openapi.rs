//! `GET /openapi.json`: the API reference. `worker/public/openapi.json` is the source of truth; it is
//! deployed as a static asset (wrangler.toml `[assets]`) rather than embedded in the wasm, where its
//! 139 KB cost 17 KiB of every isolate's gzipped module, and streamed through here so that it gets the
//! request id, the log line and the CORS header like every other route. No key; any origin may read it
//! (API explorers).

use worker::Response;

use crate::context::Call;
use crate::error::ApiResult;

pub async fn get(call: &mut Call) -> ApiResult<Response> {
    let mut asset = crate::assets::fetch(&call.env, "openapi.json").await?;
    let mut response = Response::from_stream(asset.stream()?)?;
    let headers = response.headers_mut();
    headers.set("content-type", "application/json; charset=utf-8")?;
    headers.set("cache-control", "public, max-age=300")?;
    headers.set("access-control-allow-origin", "*")?;
    Ok(response)
}
