//! Every route of the worker, as one table: method, path pattern, handler id.
//!
//! `{name}` in a pattern captures one path segment. The table also answers 405 with `Allow`, and the
//! API reference test reads it to prove the OpenAPI document lists exactly these routes.

use docs_edge_core::deployment::{Feature, Features};

use crate::error::ApiError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Health,
    Features,
    OpenApi,
    CreateOrg,
    UpdateOrg,
    GetOrg,
    AddDomain,
    RemoveDomain,
    CreateKey,
    ListKeys,
    RevokeKey,
    PublishSite,
    GetSite,
    Search,
    Page,
    AssistantV1,
    AssistantV2,
    AssistantV2Resume,
    AssistantV2Stop,
    Mcp,
    LlmsTxt,
    LlmsFullTxt,
    GetThread,
    StartExport,
    GetExport,
    CancelExport,
    CreateBundle,
    DownloadBundle,
    Feedback,
    AnalyticsEvents,
    AnalyticsReport,
    ConversationsCsv,
}

pub const ROUTES: &[(&str, &str, Route)] = &[
    ("GET", "/health", Route::Health),
    ("GET", "/v1/features", Route::Features),
    ("GET", "/openapi.json", Route::OpenApi),
    ("POST", "/v1/admin/orgs", Route::CreateOrg),
    ("GET", "/v1/admin/orgs/{orgId}", Route::GetOrg),
    ("PATCH", "/v1/admin/orgs/{orgId}", Route::UpdateOrg),
    ("POST", "/v1/admin/orgs/{orgId}/domains", Route::AddDomain),
    ("DELETE", "/v1/admin/orgs/{orgId}/domains/{domain}", Route::RemoveDomain),
    ("POST", "/v1/admin/orgs/{orgId}/keys", Route::CreateKey),
    ("GET", "/v1/admin/orgs/{orgId}/keys", Route::ListKeys),
    ("DELETE", "/v1/admin/keys/{keyId}", Route::RevokeKey),
    ("PUT", "/v1/sites/{domain}/content", Route::PublishSite),
    ("GET", "/v1/sites/{domain}", Route::GetSite),
    ("POST", "/discovery/v1/search/{domain}", Route::Search),
    ("POST", "/discovery/v1/page/{domain}", Route::Page),
    ("POST", "/discovery/v1/assistant/{domain}/message", Route::AssistantV1),
    ("POST", "/discovery/v2/assistant/{domain}/message", Route::AssistantV2),
    ("GET", "/discovery/v2/assistant/{domain}/message/{chatId}/stream", Route::AssistantV2Resume),
    ("POST", "/discovery/v2/assistant/{domain}/message/{chatId}/stop", Route::AssistantV2Stop),
    ("POST", "/discovery/v1/mcp/{domain}", Route::Mcp),
    ("GET", "/discovery/v1/llms/{domain}/llms.txt", Route::LlmsTxt),
    ("GET", "/discovery/v1/llms/{domain}/llms-full.txt", Route::LlmsFullTxt),
    ("GET", "/v1/threads/{threadId}", Route::GetThread),
    ("POST", "/v1/static-export/jobs", Route::StartExport),
    ("GET", "/v1/static-export/jobs/{jobId}", Route::GetExport),
    ("DELETE", "/v1/static-export/jobs/{jobId}", Route::CancelExport),
    ("POST", "/v1/static-export/jobs/{jobId}/bundle", Route::CreateBundle),
    ("GET", "/v1/static-export/bundles/{jobId}", Route::DownloadBundle),
    ("POST", "/discovery/v1/assistant/{domain}/feedback", Route::Feedback),
    ("POST", "/discovery/v1/analytics/{domain}/events", Route::AnalyticsEvents),
    ("GET", "/v1/analytics/{domain}", Route::AnalyticsReport),
    ("GET", "/v1/analytics/{domain}/conversations.csv", Route::ConversationsCsv),
];

impl Route {
    /// The switches of the deployment table the route needs; when the gate refuses, the route
    /// answers 404 `feature_disabled`. The API playground has no route: it is a panel in exported
    /// pages.
    pub fn gate(self) -> Gate {
        use Feature::*;
        match self {
            // llms.txt and llms-full.txt are the site's pages for agents, read from the published
            // Markdown like `/discovery/v1/page`: they follow search.
            Route::Search | Route::Page | Route::LlmsTxt | Route::LlmsFullTxt => Gate::All(&[Search]),
            Route::AssistantV1 | Route::AssistantV2 | Route::AssistantV2Resume | Route::AssistantV2Stop | Route::GetThread => {
                Gate::All(&[Assistant])
            }
            // The MCP server's tools are search and get_page (search) and ask (the assistant): the
            // route is there while either is on, and offers only the tools whose switch is on.
            Route::Mcp => Gate::Any(&[Search, Assistant]),
            Route::AnalyticsEvents | Route::AnalyticsReport | Route::ConversationsCsv => Gate::All(&[Analytics]),
            // A rating is stored in the analytics database and read only by the analytics report
            // and CSV: with analytics off it would be written for nobody (and analytics off promises
            // no rows), so the endpoint is off too; it rates an assistant answer, so it needs that.
            Route::Feedback => Gate::All(&[Assistant, Analytics]),
            Route::StartExport | Route::GetExport | Route::CancelExport | Route::CreateBundle | Route::DownloadBundle => {
                Gate::All(&[StaticExport])
            }
            _ => Gate::Open,
        }
    }
}

/// What a route needs of the deployment's switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    Open,
    /// Every one of these on.
    All(&'static [Feature]),
    /// At least one of these on.
    Any(&'static [Feature]),
}

impl Gate {
    /// The switched-off feature to name in the 404, or `None` when the route may run.
    pub fn refused(self, features: &Features) -> Option<Feature> {
        match self {
            Gate::Open => None,
            Gate::All(needed) => needed.iter().copied().find(|f| !features.enabled(*f)),
            Gate::Any(needed) if needed.iter().any(|f| features.enabled(*f)) => None,
            Gate::Any(needed) => needed.first().copied(),
        }
    }
}

/// A matched route with its captured segments, in pattern order, percent-decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matched {
    pub route: Route,
    pub params: Vec<String>,
}

impl Matched {
    /// The `index`th captured segment; routes always capture what their handler asks for.
    pub fn param(&self, index: usize) -> &str {
        self.params.get(index).map(String::as_str).unwrap_or("")
    }
}

/// Matches `method` and `path` against the table. HEAD is served by GET routes.
pub fn match_route(method: &str, path: &str) -> Result<Matched, ApiError> {
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let mut allowed: Vec<&str> = Vec::new();
    for (route_method, pattern, route) in ROUTES {
        let Some(params) = capture(pattern, &segments) else {
            continue;
        };
        if *route_method == method || (method == "HEAD" && *route_method == "GET") {
            return Ok(Matched { route: *route, params });
        }
        allowed.push(route_method);
    }
    if allowed.is_empty() {
        return Err(ApiError::RouteNotFound);
    }
    if allowed.contains(&"GET") {
        allowed.push("HEAD");
    }
    if path.starts_with("/discovery/") {
        allowed.push("OPTIONS");
    }
    Err(ApiError::MethodNotAllowed { allow: allowed.join(", ") })
}

fn capture(pattern: &str, segments: &[&str]) -> Option<Vec<String>> {
    let parts: Vec<&str> = pattern.trim_start_matches('/').split('/').collect();
    if parts.len() != segments.len() {
        return None;
    }
    let mut params = Vec::new();
    for (part, segment) in parts.iter().zip(segments) {
        if part.starts_with('{') {
            if segment.is_empty() {
                return None;
            }
            params.push(percent_decode(segment)?);
        } else if part != segment {
            return None;
        }
    }
    Some(params)
}

/// Decodes `%XX` escapes; `None` for malformed escapes or non-UTF-8 results (treated as no match).
fn percent_decode(segment: &str) -> Option<String> {
    if !segment.contains('%') {
        return Some(segment.to_string());
    }
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = segment.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}
