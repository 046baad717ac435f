//! Reading request bodies and writing JSON responses, with the limits and errors every endpoint shares.

use futures_util::StreamExt;
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::JsValue;
use worker::{Headers, Request, Response};

use crate::shared::error::{ApiError, ApiResult};

/// Reads the body, refusing more than `max_bytes` (413): before reading when `Content-Length` says so,
/// else while reading, so a chunked body never costs more than `max_bytes` plus one chunk of memory.
pub async fn read_body(req: &mut Request, max_bytes: usize) -> ApiResult<Vec<u8>> {
    refuse_declared_over(req, max_bytes)?;
    let mut stream = match req.stream() {
        Ok(stream) => stream,
        Err(worker::Error::BodyUsed) => {
            return Err(ApiError::Internal("reading body: already read".into()))
        }
        // No body at all.
        Err(_) => return Ok(Vec::new()),
    };
    let mut body = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk =
            chunk.map_err(|e| ApiError::Invalid(format!("body: could not be read: {e}")))?;
        if body.len() + chunk.len() > max_bytes {
            return Err(too_large(max_bytes));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// Reads a body that may be gzip-compressed (`Content-Encoding: gzip`, or gzip's magic bytes),
/// inflated by the runtime's `DecompressionStream` as it is read: 413 past `max_bytes` compressed
/// or inflated, so a small bomb stops at the bound. Manifests and hash lists repeat their paths and
/// compress about fourfold.
pub async fn read_maybe_gzip_body(req: &mut Request, max_bytes: usize) -> ApiResult<Vec<u8>> {
    let declared_gzip =
        header(req, "content-encoding").is_some_and(|v| v.trim().eq_ignore_ascii_case("gzip"));
    let body = read_body(req, max_bytes).await?;
    if !declared_gzip && !body.starts_with(&[0x1f, 0x8b]) {
        return Ok(body);
    }
    inflate(body, max_bytes).await
}

async fn inflate(mut gz: Vec<u8>, max_bytes: usize) -> ApiResult<Vec<u8>> {
    let failed = |e: JsValue| ApiError::Internal(format!("inflating the body: {e:?}"));
    let source = web_sys::Response::new_with_opt_u8_array(Some(gz.as_mut_slice()))
        .map_err(failed)?
        .body();
    let source =
        source.ok_or_else(|| ApiError::Internal("inflating the body: no stream".into()))?;
    let decompress = DecompressionStream::new("gzip").map_err(failed)?;
    let pair = web_sys::ReadableWritablePair::new(&decompress.readable(), &decompress.writable());
    let inflated =
        web_sys::Response::new_with_opt_readable_stream(Some(&source.pipe_through(&pair)))
            .map_err(failed)?;
    let mut stream = Response::from(inflated).stream()?;
    let mut body = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| ApiError::Invalid(format!("body: not valid gzip ({e})")))?;
        if body.len() + chunk.len() > max_bytes {
            return Err(ApiError::PayloadTooLarge(format!(
                "request body inflates past the limit of {max_bytes} bytes"
            )));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

// The runtime's `DecompressionStream` (web-sys has it behind its unstable APIs).
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    type DecompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<DecompressionStream, JsValue>;
    #[wasm_bindgen(method, getter)]
    fn readable(this: &DecompressionStream) -> web_sys::ReadableStream;
    #[wasm_bindgen(method, getter)]
    fn writable(this: &DecompressionStream) -> web_sys::WritableStream;
}

/// 413 when the body's `Content-Length` says it has more than `max_bytes`; a body that declares no
/// length is counted by whoever reads it.
pub fn refuse_declared_over(req: &Request, max_bytes: usize) -> ApiResult<()> {
    match header(req, "content-length").and_then(|v| v.parse::<u64>().ok()) {
        Some(declared) if declared > max_bytes as u64 => Err(too_large(max_bytes)),
        _ => Ok(()),
    }
}

pub fn too_large(max_bytes: usize) -> ApiError {
    ApiError::PayloadTooLarge(format!(
        "request body exceeds the limit of {max_bytes} bytes"
    ))
}

/// Reads a JSON object body: 415 unless `Content-Type` is JSON, 413 over `max_bytes`, 400 saying where
/// the JSON breaks, 400 if the top level is not an object.
pub async fn read_json_object(req: &mut Request, max_bytes: usize) -> ApiResult<Value> {
    require_content_type(
        req,
        &["application/json"],
        "JSON (Content-Type: application/json)",
    )?;
    let body = read_body(req, max_bytes).await?;
    let value: Value = serde_json::from_slice(&body).map_err(|e| {
        ApiError::InvalidJson(format!(
            "body is not valid JSON at line {} column {}: {}",
            e.line(),
            e.column(),
            json_error_reason(&e)
        ))
    })?;
    if !value.is_object() {
        return Err(ApiError::Invalid("body: must be a JSON object".into()));
    }
    Ok(value)
}

/// serde_json's message without its trailing position, which we already report.
fn json_error_reason(err: &serde_json::Error) -> String {
    let text = err.to_string();
    match text.find(" at line ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// 415 unless the media type (ignoring parameters and case) is one of `accepted`; `+json` suffixes
/// count as JSON.
pub fn require_content_type(req: &Request, accepted: &[&str], described: &str) -> ApiResult<()> {
    let media_type = header(req, "content-type")
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .unwrap_or_default();
    let json_suffix = accepted.contains(&"application/json") && media_type.ends_with("+json");
    if accepted.contains(&media_type.as_str()) || json_suffix {
        return Ok(());
    }
    let got = if media_type.is_empty() {
        "none".to_string()
    } else {
        media_type
    };
    Err(ApiError::UnsupportedMediaType(format!(
        "body must be {described}; got Content-Type {got}"
    )))
}

pub fn header(req: &Request, name: &str) -> Option<String> {
    req.headers().get(name).ok().flatten()
}

pub fn json_response<T: Serialize>(status: u16, value: &T) -> ApiResult<Response> {
    Ok(json_bytes_response(status, serde_json::to_vec(value)?, &[]))
}

/// Infallible: header names and values here are ours and valid.
pub fn json_bytes_response(
    status: u16,
    body: Vec<u8>,
    extra_headers: &[(String, String)],
) -> Response {
    let headers = Headers::new();
    let _ = headers.set("content-type", "application/json; charset=utf-8");
    for (name, value) in extra_headers {
        let _ = headers.set(name, value);
    }
    Response::builder()
        .with_status(status)
        .with_headers(headers)
        .fixed(body)
}

/// A `POST` of the JSON text `body` with `headers` (and `Content-Type: application/json`), built on
/// web-sys's `RequestInit` directly: workers-rs's `RequestInit` converts its `cf` options to a JS
/// object on every request, about 9 KB of the wasm for options the worker never sets.
pub fn json_post(url: &str, headers: &Headers, body: &str) -> worker::Result<Request> {
    headers.set("content-type", "application/json")?;
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers.0);
    init.set_body(&JsValue::from_str(body));
    let request = web_sys::Request::new_with_str_and_init(url, &init).map_err(|e| {
        worker::Error::JsError(
            e.as_string()
                .unwrap_or_else(|| "invalid URL or options for Request".into()),
        )
    })?;
    Ok(request.into())
}

/// A streamed body, as a boxed stream so that workers-rs's `Response::from_stream` (its chunk
/// conversion and stream adapters) is compiled once for every streamed route.
pub type BodyStream = std::pin::Pin<Box<dyn futures_util::Stream<Item = worker::Result<Vec<u8>>>>>;

/// A 200 streaming `body`, with `headers`.
pub fn stream_response(body: BodyStream, headers: &[(&str, &str)]) -> ApiResult<Response> {
    let mut response = Response::from_stream(body)?;
    for (name, value) in headers {
        response.headers_mut().set(name, value)?;
    }
    Ok(response)
}

pub fn empty_response(status: u16) -> Response {
    Response::builder().with_status(status).empty()
}
