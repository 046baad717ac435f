//! The live bundle as a static host serves it: extensionless URLs (`/a/b` → `a/b.html`, `/a/b/` and
//! `/` → `index.html`), `404.html` with status 404, and from tower-http's `ServeDir` content types,
//! `Range`, `HEAD` and `Last-Modified`. Here: `ETag`/`If-None-Match` (the bundle's hash: a file
//! changes only with the bundle), `Cache-Control` (revalidate HTML and unhashed assets, keep hashed
//! ones a year) and the security headers, with a CSP the exported pages satisfy.

use std::path::Path;
use std::sync::{Arc, LazyLock};

use axum::body::Body;
use axum::extract::{Request, State as AxumState};
use axum::http::header::{self, HeaderValue};
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use percent_encoding::percent_decode_str;
use tower::ServiceExt;
use tower_http::services::ServeDir;

use docs_edge_core::export::{content_security_policy, PageExtras};

use crate::state::State;

/// For bundles whose manifest records no policy: the strict one of pages without extras.
static DEFAULT_CSP: LazyLock<HeaderValue> = LazyLock::new(|| {
    HeaderValue::from_str(&content_security_policy(&PageExtras::default()))
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"))
});

pub async fn serve(AxumState(state): AxumState<Arc<State>>, mut req: Request) -> Response {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut res = (StatusCode::METHOD_NOT_ALLOWED, "method not allowed\n").into_response();
        res.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return res;
    }
    let Some(active) = state.active() else {
        return (StatusCode::SERVICE_UNAVAILABLE, "no bundle is loaded yet; see /_docs-edge/health\n").into_response();
    };
    let dir = active.bundle.dir.as_path();
    let etag = HeaderValue::from_str(&format!("W/\"{}\"", &active.bundle.sha256[..active.bundle.sha256.len().min(32)]))
        .unwrap_or_else(|_| HeaderValue::from_static("W/\"bundle\""));
    if let Some(uri) = extensionless(dir, req.uri()) {
        *req.uri_mut() = uri;
    }
    let path = req.uri().path().to_string();
    let not_modified = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|tag| weak_eq(tag.trim(), etag.to_str().unwrap_or(""))));

    let head = req.method() == Method::HEAD;
    let service = ServeDir::new(dir).append_index_html_on_directories(true);
    let mut res = match service.oneshot(req).await {
        Ok(res) => res.map(Body::new),
        Err(never) => match never {},
    };
    if res.status() == StatusCode::NOT_FOUND {
        res = not_found(dir, head).await;
    }
    let content_type = res.headers().get(header::CONTENT_TYPE).cloned();
    if res.status().is_success() {
        if not_modified {
            res = StatusCode::NOT_MODIFIED.into_response();
        }
        res.headers_mut().insert(header::ETAG, etag);
    }
    let headers = res.headers_mut();
    let html = content_type
        .as_ref()
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"));
    let cache = if !html && is_fingerprinted(&path) { "public, max-age=31536000, immutable" } else { "no-cache" };
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("SAMEORIGIN"));
    let recorded = &active.bundle.manifest.content_security_policy;
    let csp = (!recorded.is_empty()).then(|| HeaderValue::from_str(recorded).ok()).flatten();
    headers.insert(header::CONTENT_SECURITY_POLICY, csp.unwrap_or_else(|| DEFAULT_CSP.clone()));
    res
}

/// The bundle's `404.html`, status 404. Its links are relative to the bundle root, which is this
/// server's root, while the missing URL may be any depth: a `<base href="/">` makes them resolve.
async fn not_found(dir: &Path, head: bool) -> Response {
    let Ok(page) = tokio::fs::read(dir.join("404.html")).await else {
        return (StatusCode::NOT_FOUND, "not found\n").into_response();
    };
    let mut html = String::from_utf8_lossy(&page).into_owned();
    if let Some(at) = html.find("<head>") {
        html.insert_str(at + "<head>".len(), "<base href=\"/\">");
    }
    let body = if head { Body::empty() } else { Body::from(html) };
    let mut res = (StatusCode::NOT_FOUND, body).into_response();
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    res
}

fn weak_eq(a: &str, b: &str) -> bool {
    a == "*" || a.trim_start_matches("W/") == b.trim_start_matches("W/")
}

/// `/a/b` → `/a/b.html` when that file exists (the export's canonical URLs have no extension).
fn extensionless(dir: &Path, uri: &Uri) -> Option<Uri> {
    let raw = uri.path();
    let last = raw.rsplit('/').next().unwrap_or("");
    if raw.ends_with('/') || last.is_empty() || last.contains('.') {
        return None;
    }
    let decoded = percent_decode_str(raw).decode_utf8().ok()?;
    let relative = decoded.trim_start_matches('/');
    if relative.split('/').any(|seg| seg == ".." || seg.is_empty()) || relative.contains('\\') {
        return None;
    }
    if !dir.join(format!("{relative}.html")).is_file() {
        return None;
    }
    let with_html = match uri.query() {
        Some(query) => format!("{raw}.html?{query}"),
        None => format!("{raw}.html"),
    };
    with_html.parse().ok()
}

/// A file name with a content hash in it (`app.3f9a2c1b.js`): safe to cache for a year. The export
/// has none today; its assets are revalidated with the ETag.
fn is_fingerprinted(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or("");
    let parts: Vec<&str> = name.split('.').collect();
    parts.len() >= 3
        && parts[1..parts.len() - 1]
            .iter()
            .any(|p| p.len() >= 8 && p.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints() {
        assert!(is_fingerprinted("/_static/app.3f9a2c1b.js"));
        assert!(!is_fingerprinted("/_static/site.css"));
        assert!(!is_fingerprinted("/_static/search/en/t/12.json"));
        assert!(!is_fingerprinted("/deadbeefcafe.js"));
    }

    #[test]
    fn extensionless_urls_map_to_html_files_inside_the_bundle() {
        let dir = std::env::temp_dir().join(format!("serve-ext-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("guides")).unwrap();
        std::fs::write(dir.join("guides/quick start.html"), "x").unwrap();
        std::fs::write(dir.join("outside.html"), "x").unwrap();
        let map = |p: &str| extensionless(&dir, &p.parse().unwrap()).map(|u| u.to_string());
        assert_eq!(map("/guides/quick%20start?x=1").as_deref(), Some("/guides/quick%20start.html?x=1"));
        assert_eq!(map("/guides/"), None);
        assert_eq!(map("/guides/missing"), None);
        assert_eq!(map("/guides/../outside"), None);
        assert_eq!(map("/_static/site.css"), None);
    }
}
