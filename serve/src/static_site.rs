//! The live bundle as a static host serves it: extensionless URLs (`/a/b` → `a/b.html`, `/a/b/` and
//! `/` → `index.html`), `404.html` with status 404, and from tower-http's `ServeDir` content types,
//! `Range`, `HEAD` and `Last-Modified`. Here: `ETag`/`If-None-Match` (the bundle's hash: a file
//! changes only with the bundle), `Cache-Control` (revalidate HTML and unhashed assets, keep hashed
//! ones a year) and the security headers, with a CSP the exported pages satisfy, narrowed by this
//! server's own analytics and playground switches ([`page_policy`]). The site's redirects (the
//! bundle's `_redirects`) are answered first, as Cloudflare Pages answers them.

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

use docs_edge_core::platform::deployment::outbound_allowed;
use docs_edge_core::export::redirects::{self, Rule, REDIRECTS_FILE};
use docs_edge_core::export::{content_security_policy_remote, widget, BundleManifest, PageExtras};

use crate::config::Config;
use crate::state::State;

/// What the served pages may do beyond this origin, and the `Content-Security-Policy` that holds them
/// to it. The pages were rendered with the exporting deployment's switches; this server's own switches
/// can only take away. The policy is the enforcement: the bundle's files are served as they are.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PagePolicy {
    /// The analytics beacon may reach its endpoint.
    pub analytics: bool,
    /// The "Try it" panel may call any http(s) server.
    pub playground: bool,
    /// The assistant widget may run (its wasm) and reach its service.
    pub assistant: bool,
    pub content_security_policy: String,
}

/// The policy for `manifest`'s pages on this server:
/// - the beacon only when the bundle has one, this server's analytics switch is on and, air-gapped,
///   the beacon's host is in `INTERNAL_HOSTS` (an air-gapped site sends nothing outside);
/// - the playground only when the bundle has it and this server's playground switch is on;
/// - and when the beacon is refused, no playground either: the playground's `connect-src https: http:`
///   would let the beacon through, and a policy cannot allow every host but one. A switched-off
///   beacon must stay off; the panel then says its calls were blocked;
/// - the assistant widget when the bundle has it and, when it asks another service, that service
///   may be reached (air-gapped: its host in `INTERNAL_HOSTS`) and is not a refused beacon's
///   origin; asking this server (`same-origin`) needs no more than `'self'`.
pub fn page_policy(manifest: &BundleManifest, config: &Config) -> PagePolicy {
    let deployment = &config.deployment;
    let bundle_beacon = manifest.beacon_endpoint.as_deref().filter(|_| manifest.features.analytics);
    let beacon = bundle_beacon.filter(|url| {
        deployment.features.analytics
            && outbound_allowed(deployment.kind, "the beacon endpoint", Some(url), &config.internal_hosts).is_ok()
    });
    let beacon_refused = bundle_beacon.is_some() && beacon.is_none();
    let playground = manifest.features.playground && deployment.features.playground && !beacon_refused;
    let refused_origin = bundle_beacon.filter(|_| beacon_refused).and_then(|url| widget::api_origin(url));
    let assistant = manifest.assistant.clone().filter(|a| match widget::api_origin(&a.api_base) {
        None => true,
        // The widget's service let through would let the refused beacon through too.
        Some(origin) => {
            refused_origin != Some(origin)
                && outbound_allowed(deployment.kind, "the assistant widget's apiBase", Some(&a.api_base), &config.internal_hosts).is_ok()
        }
    });
    let extras = PageExtras { beacon_endpoint: beacon.map(str::to_string), playground, assistant };
    PagePolicy {
        analytics: beacon.is_some(),
        playground,
        assistant: extras.assistant.is_some(),
        content_security_policy: content_security_policy_remote(&extras, &manifest.frame_origins, &manifest.image_origins),
    }
}

/// `/widget.js` and `/widget/<part>`: the assistant widget as the worker serves it, for any page to
/// embed, taken from the live bundle (`_static/widget.js`, `_static/widget/`), which carries it when
/// it was exported with `assistant`. Read from the bundle rather than compiled in: the widget is a
/// build of the npm package, so it always matches the pages that load it, and this binary builds
/// without node. `None` (the request goes on as a bundle path) unless the bundle holds that file,
/// so a docs folder named `widget` stays reachable.
fn widget_file(dir: &Path, path: &str) -> Option<Uri> {
    let asset = path.strip_prefix('/')?;
    let bundle_path = widget::bundle_path(asset)?;
    dir.join(&bundle_path).is_file().then(|| format!("/{bundle_path}").parse().ok()).flatten()
}

pub async fn serve(AxumState(state): AxumState<Arc<State>>, mut req: Request) -> Response {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut res = (StatusCode::METHOD_NOT_ALLOWED, "method not allowed\n").into_response();
        res.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return res;
    }
    let Some(active) = state.active() else {
        return (StatusCode::SERVICE_UNAVAILABLE, "no bundle is loaded yet; see /_docs-edge/health\n").into_response();
    };
    if let Some(res) = redirect(&active.bundle.redirects, req.uri()) {
        return res;
    }
    let dir = active.bundle.dir.as_path();
    if req.uri().path() == format!("/{REDIRECTS_FILE}") {
        // Rules for this server, not a page: static hosts that read the file do not serve it either.
        return not_found(dir, req.method() == Method::HEAD).await;
    }
    let etag = HeaderValue::from_str(&format!("W/\"{}\"", &active.bundle.sha256[..active.bundle.sha256.len().min(32)]))
        .unwrap_or_else(|_| HeaderValue::from_static("W/\"bundle\""));
    let widget = widget_file(dir, req.uri().path());
    if let Some(uri) = widget.clone().or_else(|| extensionless(dir, req.uri())) {
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
    // A year only for a hashed file that is there: the 404 of a missing one (a part of a newer
    // widget, a mistyped name) must be asked for again.
    let found = res.status().is_success() || res.status() == StatusCode::NOT_MODIFIED;
    let headers = res.headers_mut();
    let html = content_type
        .as_ref()
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"));
    let cache = if found && !html && is_fingerprinted(&path) { "public, max-age=31536000, immutable" } else { "no-cache" };
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("SAMEORIGIN"));
    let policy = page_policy(&active.bundle.manifest, &state.config());
    let csp = HeaderValue::from_str(&policy.content_security_policy).unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"));
    headers.insert(header::CONTENT_SECURITY_POLICY, csp);
    if widget.is_some() {
        // Any site may load the widget, as from the worker (worker/public/_headers).
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
        headers.insert(HeaderName::from_static("cross-origin-resource-policy"), HeaderValue::from_static("cross-origin"));
    }
    res
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
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
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

#[cfg(test)]
mod policy_tests {
    use super::*;
    use crate::testing::{config_with, manifest, scratch};

    const BEACON: &str = "https://api.example.com:8443/discovery/v1/analytics/docs.example.com/events";

    fn policy(bundle: (bool, bool), vars: &[(&str, &str)]) -> PagePolicy {
        let mut m = manifest("se_0123456789abcdef");
        m.features.analytics = bundle.0;
        m.features.playground = bundle.1;
        m.beacon_endpoint = bundle.0.then(|| BEACON.to_string());
        page_policy(&m, &config_with(vars, &scratch("policy")))
    }

    fn connect(p: &PagePolicy) -> &str {
        let csp = p.content_security_policy.as_str();
        let start = csp.find("connect-src").unwrap();
        &csp[start..start + csp[start..].find(';').unwrap()]
    }

    #[test]
    fn the_bundles_extras_stand_while_this_server_allows_them() {
        let both = policy((true, true), &[]);
        assert!(both.analytics && both.playground);
        assert_eq!(connect(&both), "connect-src 'self' https: http:");
        let beacon_only = policy((true, false), &[]);
        assert_eq!(connect(&beacon_only), "connect-src 'self' https://api.example.com:8443");
        // The server's switches cannot add what the bundle lacks.
        assert_eq!(connect(&policy((false, false), &[])), "connect-src 'self'");
    }

    #[test]
    fn analytics_off_here_takes_the_beacon_origin_and_any_wildcard_away() {
        let off = policy((true, true), &[("FEATURE_ANALYTICS", "false")]);
        assert!(!off.analytics && !off.playground, "{off:?}");
        assert_eq!(connect(&off), "connect-src 'self'");
        let client_hosted = policy((true, false), &[("DEPLOYMENT_KIND", "client-hosted")]);
        assert_eq!(connect(&client_hosted), "connect-src 'self'");
    }

    #[test]
    fn playground_off_here_means_no_arbitrary_connect() {
        let p = policy((true, true), &[("FEATURE_PLAYGROUND", "false")]);
        assert!(p.analytics && !p.playground);
        assert_eq!(connect(&p), "connect-src 'self' https://api.example.com:8443");
        let p = policy((false, true), &[("FEATURE_PLAYGROUND", "false")]);
        assert_eq!(connect(&p), "connect-src 'self'");
    }

    #[test]
    fn the_placeholders_origins_are_framed_and_shown_here_as_in_the_bundle() {
        let mut m = manifest("se_0123456789abcdef");
        m.frame_origins = vec!["https://www.youtube.com".into()];
        m.image_origins = vec!["https://cdn.example.com".into()];
        let csp = page_policy(&m, &config_with(&[], &scratch("policy"))).content_security_policy;
        assert!(csp.contains("img-src 'self' data: https://cdn.example.com;") && csp.ends_with("frame-src 'self' https://www.youtube.com"), "{csp}");
    }

    #[test]
    fn the_widget_runs_and_reaches_its_service_only_where_allowed() {
        let key = format!("svc_dsc_{}", "a".repeat(32));
        let with = |api_base: &str, beacon: bool, vars: &[(&str, &str)]| {
            let mut m = manifest("se_0123456789abcdef");
            m.features.analytics = beacon;
            m.features.playground = false;
            m.beacon_endpoint = beacon.then(|| BEACON.to_string());
            m.assistant = Some(docs_edge_core::wire::ExportAssistant { api_base: api_base.into(), key: key.clone() });
            page_policy(&m, &config_with(vars, &scratch("policy")))
        };
        let here = with("same-origin", false, &[]);
        assert!(here.assistant && here.content_security_policy.contains("'wasm-unsafe-eval'"));
        assert_eq!(connect(&here), "connect-src 'self'");
        let elsewhere = with("https://edge.example.com", false, &[]);
        assert_eq!(connect(&elsewhere), "connect-src 'self' https://edge.example.com");
        let gapped = with("https://edge.example.com", false, &[("DEPLOYMENT_KIND", "air-gapped")]);
        assert!(!gapped.assistant && !gapped.content_security_policy.contains("wasm"), "{gapped:?}");
        assert_eq!(connect(&gapped), "connect-src 'self'");
        // Analytics off here: the beacon's origin stays out, so a widget asking that origin does too.
        let beside_beacon = with("https://api.example.com:8443", true, &[("FEATURE_ANALYTICS", "false")]);
        assert!(!beside_beacon.assistant);
        assert_eq!(connect(&beside_beacon), "connect-src 'self'");
        assert!(with("same-origin", true, &[("FEATURE_ANALYTICS", "false")]).assistant);
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
        assert_eq!(map("/widget/panel.0123456789.js").as_deref(), Some("/_static/widget/panel.0123456789.js"));
        // Not the bundle's widget: a docs page under widget/ is served as itself.
        assert_eq!(map("/widget/overview"), None);
        assert_eq!(map("/widget/../site.js"), None);
        assert_eq!(map("/_static/widget.js"), None);
    }

    #[test]
    fn air_gapped_sends_the_beacon_only_to_an_internal_host() {
        let gapped = [("DEPLOYMENT_KIND", "air-gapped"), ("FEATURE_ANALYTICS", "true"), ("FEATURE_PLAYGROUND", "true")];
        let outside = policy((true, true), &gapped);
        assert!(!outside.analytics && !outside.playground);
        assert_eq!(connect(&outside), "connect-src 'self'");
        let declared = [gapped[0], gapped[1], gapped[2], ("INTERNAL_HOSTS", "api.example.com:8443")];
        let inside = policy((true, true), &declared);
        assert!(inside.analytics && inside.playground);
    }
}
