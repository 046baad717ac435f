//! The live bundle as a static host serves it: extensionless URLs (`/a/b` → `a/b.html`, `/a/b/` and
//! `/` → `index.html`; which file a URL names is core's `site_paths`, as the worker serves a hosted
//! site), `404.html` with status 404, and from tower-http's `ServeDir` content types, `Range`, `HEAD`
//! and `Last-Modified`. Here: `ETag`/`If-None-Match` (the bundle's hash: a file changes only with the
//! bundle), and from core's `site_headers`, which the worker's hosted sites carry too,
//! `Cache-Control` (revalidate HTML and unhashed assets, keep hashed ones a year) and the security
//! headers, with a CSP the exported pages satisfy, narrowed by this server's own analytics and
//! playground switches (`crate::page_policy`). The site's redirects (the
//! bundle's `_redirects`) are answered first, as Cloudflare Pages answers them. A page asked for
//! with `Accept: text/markdown` (or `text/plain`) answers with its `.md` file (`Vary: Accept`).

use std::path::Path;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State as AxumState};
use axum::http::header::{self, HeaderName, HeaderValue};
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use percent_encoding::percent_decode_str;
use tower::ServiceExt;
use tower_http::services::ServeDir;

use docs_edge_core::export::redirects::{self, Rule, REDIRECTS_FILE};
use docs_edge_core::export::widget;
use docs_edge_core::http::accept::prefers_markdown;
use docs_edge_core::http::site_headers::{
    cache_control, etag_matches, security_headers, MARKDOWN_ALTERNATE_LINK,
};
use docs_edge_core::http::site_paths::{site_path, SitePath};

use crate::page_policy::page_policy;
use crate::state::State;

/// `/widget.js` and `/widget/<part>`: the assistant widget as the worker serves it, for any page to
/// embed, taken from the live bundle (`_static/widget.js`, `_static/widget/`), which carries it when
/// it was exported with `assistant`. Read from the bundle rather than compiled in: the widget is a
/// build of the npm package, so it always matches the pages that load it, and this binary builds
/// without node. `None` (the request goes on as a bundle path) unless the bundle holds that file,
/// so a docs folder named `widget` stays reachable.
fn widget_file(dir: &Path, path: &str) -> Option<Uri> {
    let asset = path.strip_prefix('/')?;
    let bundle_path = widget::bundle_path(asset)?;
    dir.join(&bundle_path)
        .is_file()
        .then(|| format!("/{bundle_path}").parse().ok())
        .flatten()
}

pub async fn serve(AxumState(state): AxumState<Arc<State>>, mut req: Request) -> Response {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut res = (StatusCode::METHOD_NOT_ALLOWED, "method not allowed\n").into_response();
        res.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return res;
    }
    let Some(active) = state.active() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "no bundle is loaded yet; see /_docs-edge/health\n",
        )
            .into_response();
    };
    if let Some(res) = redirect(&active.bundle.redirects, req.uri()) {
        return res;
    }
    let dir = active.bundle.dir.as_path();
    if req.uri().path() == format!("/{REDIRECTS_FILE}") {
        // Rules for this server, not a page: static hosts that read the file do not serve it either.
        return not_found(dir, req.method() == Method::HEAD).await;
    }
    let widget = widget_file(dir, req.uri().path());
    if let Some(uri) = widget.clone().or_else(|| extensionless(dir, req.uri())) {
        *req.uri_mut() = uri;
    }
    let wants_markdown = prefers_markdown(
        req.headers()
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok()),
    );
    let markdown = if wants_markdown {
        markdown_file(dir, req.uri())
    } else {
        None
    };
    if let Some(uri) = markdown.clone() {
        *req.uri_mut() = uri;
    }
    // One URL, two representations: each needs its own validator.
    let variant = if markdown.is_some() { "-md" } else { "" };
    let etag = HeaderValue::from_str(&format!(
        "W/\"{}{variant}\"",
        &active.bundle.sha256[..active.bundle.sha256.len().min(32)]
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("W/\"bundle\""));
    let path = req.uri().path().to_string();
    let not_modified = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| etag_matches(v, etag.to_str().unwrap_or("")));

    let head = req.method() == Method::HEAD;
    let service = ServeDir::new(dir).append_index_html_on_directories(true);
    let mut res = match service.oneshot(req).await {
        Ok(res) => res.map(Body::new),
        Err(never) => match never {},
    };
    if res.status() == StatusCode::NOT_FOUND {
        res = not_found(dir, head).await;
    }
    if markdown.is_some() && res.status().is_success() {
        res.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/markdown; charset=utf-8"),
        );
    }
    let content_type = res.headers().get(header::CONTENT_TYPE).cloned();
    if res.status().is_success() {
        if not_modified {
            res = StatusCode::NOT_MODIFIED.into_response();
        }
        res.headers_mut().insert(header::ETAG, etag);
    }
    // A year only for a hashed file that is there: the 404 of a missing one (a part of a newer
    // widget, a mistyped name) must be asked for again.
    let found = res.status().is_success() || res.status() == StatusCode::NOT_MODIFIED;
    let headers = res.headers_mut();
    let html = content_type
        .as_ref()
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"));
    if html || markdown.is_some() {
        // A page's URL answers HTML or Markdown by `Accept`: a cache must key on it.
        headers.insert(header::VARY, HeaderValue::from_static("Accept"));
        if html && wants_markdown {
            // A bundle past `MARKDOWN_PAGES_DEFAULT_MAX` pages has no `.md` per page: every page's
            // Markdown is in `llms-full.txt`, which the HTML names for the agent that asked.
            headers.insert(
                header::LINK,
                HeaderValue::from_static(MARKDOWN_ALTERNATE_LINK),
            );
        }
    }
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control(&path, html, found)),
    );
    let policy = page_policy(&active.bundle.manifest, &state.config());
    for (name, value) in security_headers(&policy.content_security_policy) {
        let value = HeaderValue::from_str(&value)
            .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"));
        headers.insert(HeaderName::from_static(name), value);
    }
    if widget.is_some() {
        // Any site may load the widget, as from the worker (worker/public/_headers).
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        headers.insert(
            HeaderName::from_static("cross-origin-resource-policy"),
            HeaderValue::from_static("cross-origin"),
        );
    }
    res
}

/// The Markdown beside the page `uri` names (`a/b.html` → `a/b.md`, `a/` → `a/index.md`), when the
/// bundle holds it.
fn markdown_file(dir: &Path, uri: &Uri) -> Option<Uri> {
    let raw = uri.path();
    let stem = match raw.strip_suffix(".html") {
        Some(stem) => stem.to_owned(),
        None if raw.ends_with('/') => format!("{raw}index"),
        None => return None,
    };
    let Some(SitePath::Page { markdown, .. }) = site_path(raw) else {
        return None;
    };
    dir.join(markdown)
        .is_file()
        .then(|| format!("{stem}.md").parse().ok())
        .flatten()
}

/// The site's redirect for `uri`, when one of `rules` matches: 308 (permanent, the format's
/// default) or 307, `Location` relative to the request (see [`redirects::location`]).
fn redirect(rules: &[Rule], uri: &Uri) -> Option<Response> {
    let path = percent_decode_str(uri.path()).decode_utf8().ok()?;
    let (rule, destination) = redirects::find(rules, &path)?;
    let status = StatusCode::from_u16(rule.status).ok()?;
    let location = HeaderValue::from_str(&redirects::location(&path, &destination)).ok()?;
    let mut res = status.into_response();
    res.headers_mut().insert(header::LOCATION, location);
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    Some(res)
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
    let body = if head {
        Body::empty()
    } else {
        Body::from(html)
    };
    let mut res = (StatusCode::NOT_FOUND, body).into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    res
}

/// `/a/b` → `/a/b.html` when that file exists (the export's canonical URLs have no extension).
fn extensionless(dir: &Path, uri: &Uri) -> Option<Uri> {
    let raw = uri.path();
    let Some(SitePath::Page {
        html,
        folder: Some(_),
        ..
    }) = site_path(raw)
    else {
        return None;
    };
    if !dir.join(html).is_file() {
        return None;
    }
    let with_html = match uri.query() {
        Some(query) => format!("{raw}.html?{query}"),
        None => format!("{raw}.html"),
    };
    with_html.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::scratch;

    #[test]
    fn extensionless_urls_map_to_html_files_inside_the_bundle() {
        let dir = std::env::temp_dir().join(format!("serve-ext-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("guides")).unwrap();
        std::fs::write(dir.join("guides/quick start.html"), "x").unwrap();
        std::fs::write(dir.join("outside.html"), "x").unwrap();
        let map = |p: &str| extensionless(&dir, &p.parse().unwrap()).map(|u| u.to_string());
        assert_eq!(
            map("/guides/quick%20start?x=1").as_deref(),
            Some("/guides/quick%20start.html?x=1")
        );
        assert_eq!(map("/guides/"), None);
        assert_eq!(map("/guides/missing"), None);
        assert_eq!(map("/guides/../outside"), None);
        assert_eq!(map("/_static/site.css"), None);
    }

    #[test]
    fn markdown_files_sit_beside_their_pages_inside_the_bundle() {
        let dir = scratch("serve-md");
        std::fs::create_dir_all(dir.join("guides")).unwrap();
        for file in [
            "guides/setup.md",
            "guides/index.md",
            "index.md",
            "outside.md",
        ] {
            std::fs::write(dir.join(file), "x").unwrap();
        }
        let map = |p: &str| markdown_file(&dir, &p.parse().unwrap()).map(|u| u.to_string());
        assert_eq!(
            map("/guides/setup.html").as_deref(),
            Some("/guides/setup.md")
        );
        assert_eq!(map("/guides/").as_deref(), Some("/guides/index.md"));
        assert_eq!(map("/").as_deref(), Some("/index.md"));
        assert_eq!(map("/guides/missing.html"), None);
        assert_eq!(map("/guides/../outside.html"), None);
        assert_eq!(map("/_static/site.css"), None);
    }

    #[test]
    fn widget_paths_name_the_bundles_widget_files_only() {
        let dir = scratch("widget-paths");
        std::fs::create_dir_all(dir.join("_static/widget")).unwrap();
        std::fs::create_dir_all(dir.join("widget")).unwrap();
        std::fs::write(dir.join("_static/widget.js"), "x").unwrap();
        std::fs::write(dir.join("_static/widget/panel.0123456789.js"), "x").unwrap();
        let map = |p: &str| widget_file(&dir, p).map(|u| u.to_string());
        assert_eq!(map("/widget.js").as_deref(), Some("/_static/widget.js"));
        assert_eq!(
            map("/widget/panel.0123456789.js").as_deref(),
            Some("/_static/widget/panel.0123456789.js")
        );
        // Not the bundle's widget: a docs page under widget/ is served as itself.
        assert_eq!(map("/widget/overview"), None);
        assert_eq!(map("/widget/../site.js"), None);
        assert_eq!(map("/_static/widget.js"), None);
    }
}
