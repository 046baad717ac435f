//! `GET /openapi.json`: the API reference. `worker/openapi.json` is the source of truth; it is embedded
//! at build time and served verbatim, because parsing it here would only add wasm size and the bytes
//! are exactly what the contract tests check. No key; any origin may read it (API explorers).

use worker::Response;

use crate::app::Call;
use crate::error::ApiResult;
use crate::http::json_bytes_response;

const DOCUMENT: &str = include_str!("../../openapi.json");

pub async fn get(_call: &mut Call) -> ApiResult<Response> {
    let headers = [
        ("cache-control".to_string(), "public, max-age=300".to_string()),
        ("access-control-allow-origin".to_string(), "*".to_string()),
    ];
    Ok(json_bytes_response(200, DOCUMENT.as_bytes().to_vec(), &headers))
}
