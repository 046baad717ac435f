//! Every route of the service, declared once: name, method, path pattern and the feature switches
//! it needs.
//!
//! Why one declaration: a route written in three places (an `enum Route`, a `ROUTES` table and the
//! dispatch match) drifts apart, and a check of the OpenAPI document would have to read Rust source
//! with a regex. The `routes!` invocation below generates the [`Route`] enum, the [`ROUTES`]
//! table and [`Route::gate`] from one row per route; the worker's dispatch is an exhaustive `match`
//! on [`Route`], so a new row makes the compiler ask for its handler, and the host test at the end
//! of this file holds the table to `docs/openapi.json` both ways, so it must be documented.
//!
//! `{name}` in a pattern captures one non-empty path segment, percent-decoded (the same template
//! syntax as the OpenAPI document). Matching is pure: the worker maps [`RouteError`] into its error
//! type in one place.

use crate::platform::deployment::{Feature, Features};

/// One row of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouteSpec {
    pub route: Route,
    pub method: &'static str,
    pub path: &'static str,
    pub gate: Gate,
}

/// Builds a [`Gate`] from a row's `Open`, `All(..)` or `Any(..)`.
macro_rules! gate {
    (Open) => {
        Gate::Open
    };
    (All($($feature:ident),+)) => {
        Gate::All(&[$(Feature::$feature),+])
    };
    (Any($($feature:ident),+)) => {
        Gate::Any(&[$(Feature::$feature),+])
    };
}

/// The one declaration: `Name METHOD "/pattern" => Gate,` per route, in matching order (the order
/// also fixes the order of methods in a 405's `Allow`).
macro_rules! routes {
    ($($name:ident $method:ident $path:literal => $gate:ident $(($($feature:ident),+))?,)+) => {
        /// A route of the service; see [`ROUTES`] for its method and pattern.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Route {
            $($name,)+
        }

        /// Every route, in matching order.
        pub const ROUTES: &[RouteSpec] = &[
            $(RouteSpec {
                route: Route::$name,
                method: stringify!($method),
                path: $path,
                gate: gate!($gate $(($($feature),+))?),
            },)+
        ];

        impl Route {
            /// The switches of the deployment table the route needs; when the gate refuses, the
            /// route answers 404 `feature_disabled`.
            pub fn gate(self) -> Gate {
                match self {
                    $(Route::$name => gate!($gate $(($($feature),+))?),)+
                }
            }
        }
    };
}

// Gates: llms.txt, llms-full.txt, skill.md and the skills' discovery files are the site's documents for agents, read from the published
// Markdown like `/discovery/v1/page`: they follow search. The MCP server's tools are search and
// get_page (search) and ask (the assistant): the route is there while either is on, and offers only
// the tools whose switch is on. A rating is stored in the analytics database and read only by the
// analytics report and CSV: with analytics off it would be written for nobody (and analytics off
// promises no rows), so the endpoint is off too; it rates an assistant answer, so it needs that.
// The API playground has no route: it is a panel in exported pages. A hosted site is served from
// its static export, so hosting follows that switch (its pages are no route: a GET no row matches).
routes! {
    Health            GET    "/health"                                                => Open,
    Features          GET    "/v1/features"                                           => Open,
    OpenApi           GET    "/openapi.json"                                          => Open,
    CreateOrg         POST   "/v1/admin/orgs"                                         => Open,
    GetOrg            GET    "/v1/admin/orgs/{orgId}"                                 => Open,
    UpdateOrg         PATCH  "/v1/admin/orgs/{orgId}"                                 => Open,
    AddDomain         POST   "/v1/admin/orgs/{orgId}/domains"                         => Open,
    RemoveDomain      DELETE "/v1/admin/orgs/{orgId}/domains/{domain}"                => Open,
    CreateKey         POST   "/v1/admin/orgs/{orgId}/keys"                            => Open,
    ListKeys          GET    "/v1/admin/orgs/{orgId}/keys"                            => Open,
    UpdateKey         PATCH  "/v1/admin/keys/{keyId}"                                 => Open,
    RevokeKey         DELETE "/v1/admin/keys/{keyId}"                                 => Open,
    PublishSite       PUT    "/v1/sites/{domain}/content"                             => Open,
    GetSite           GET    "/v1/sites/{domain}"                                     => Open,
    GetPublish        GET    "/v1/sites/{domain}/publishes/{publishId}"               => Open,
    CommitManifest    POST   "/v1/sites/{domain}/publishes"                           => Open,
    LiveManifest      GET    "/v1/sites/{domain}/manifest"                            => Open,
    MissingFiles      POST   "/v1/sites/{domain}/files/missing"                       => Open,
    PutFile           PUT    "/v1/sites/{domain}/files/{hash}"                        => Open,
    Search            POST   "/discovery/v1/search/{domain}"                          => All(Search),
    Page              POST   "/discovery/v1/page/{domain}"                            => All(Search),
    AssistantV1       POST   "/discovery/v1/assistant/{domain}/message"               => All(Assistant),
    AssistantV2       POST   "/discovery/v2/assistant/{domain}/message"               => All(Assistant),
    AssistantV2Resume GET    "/discovery/v2/assistant/{domain}/message/{chatId}/stream" => All(Assistant),
    AssistantV2Stop   POST   "/discovery/v2/assistant/{domain}/message/{chatId}/stop" => All(Assistant),
    Mcp               POST   "/discovery/v1/mcp/{domain}"                             => Any(Search, Assistant),
    LlmsTxt           GET    "/discovery/v1/llms/{domain}/llms.txt"                   => All(Search),
    LlmsFullTxt       GET    "/discovery/v1/llms/{domain}/llms-full.txt"              => All(Search),
    SkillMd           GET    "/discovery/v1/llms/{domain}/skill.md"                   => All(Search),
    SkillsIndex       GET    "/discovery/v1/llms/{domain}/.well-known/{format}/index.json" => All(Search),
    SkillFile         GET    "/discovery/v1/llms/{domain}/.well-known/{format}/{name}/{file}" => All(Search),
    GetThread         GET    "/v1/threads/{threadId}"                                 => All(Assistant),
    StartExport       POST   "/v1/static-export/jobs"                                 => All(StaticExport),
    GetExport         GET    "/v1/static-export/jobs/{jobId}"                         => All(StaticExport),
    CancelExport      DELETE "/v1/static-export/jobs/{jobId}"                         => All(StaticExport),
    CreateBundle      POST   "/v1/static-export/jobs/{jobId}/bundle"                  => All(StaticExport),
    DownloadBundle    GET    "/v1/static-export/bundles/{jobId}"                      => All(StaticExport),
    Feedback          POST   "/discovery/v1/assistant/{domain}/feedback"              => All(Assistant, Analytics),
    AnalyticsEvents   POST   "/discovery/v1/analytics/{domain}/events"                => All(Analytics),
    AnalyticsReport   GET    "/v1/analytics/{domain}"                                 => All(Analytics),
    ConversationsCsv  GET    "/v1/analytics/{domain}/conversations.csv"               => All(Analytics),
    GetHosting        GET    "/v1/admin/orgs/{orgId}/domains/{domain}/hosting"        => All(StaticExport),
    PutHosting        PUT    "/v1/admin/orgs/{orgId}/domains/{domain}/hosting"        => All(StaticExport),
    RollbackHosting   POST   "/v1/admin/orgs/{orgId}/domains/{domain}/hosting/rollback" => All(StaticExport),
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

/// Why a request matched no route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RouteError {
    /// No pattern matches the path.
    NotFound,
    /// A pattern matches, not with this method; `allow` is the `Allow` header's value.
    MethodNotAllowed { allow: String },
}

/// Matches `method` and `path` against the table. HEAD is served by GET routes; a 405 lists the
/// path's methods, HEAD after a GET, and OPTIONS under `/discovery/` (CORS preflight).
pub fn match_route(method: &str, path: &str) -> Result<Matched, RouteError> {
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let mut allowed: Vec<&str> = Vec::new();
    for spec in ROUTES {
        let Some(params) = capture(spec.path, &segments) else {
            continue;
        };
        if spec.method == method || (method == "HEAD" && spec.method == "GET") {
            return Ok(Matched {
                route: spec.route,
                params,
            });
        }
        allowed.push(spec.method);
    }
    if allowed.is_empty() {
        return Err(RouteError::NotFound);
    }
    if allowed.contains(&"GET") {
        allowed.push("HEAD");
    }
    if path.starts_with("/discovery/") {
        allowed.push("OPTIONS");
    }
    Err(RouteError::MethodNotAllowed {
        allow: allowed.join(", "),
    })
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
pub(crate) fn percent_decode(segment: &str) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The API reference the worker serves (a static asset), read at compile time.
    const OPENAPI: &str = include_str!("../../../docs/openapi.json");

    /// Every operation the document lists, as `METHOD /template`.
    fn documented(document: &serde_json::Value) -> BTreeSet<String> {
        const METHODS: [&str; 8] = [
            "get", "put", "post", "delete", "options", "head", "patch", "trace",
        ];
        let paths = document["paths"]
            .as_object()
            .expect("the document has paths");
        let mut operations = BTreeSet::new();
        for (path, item) in paths {
            for method in METHODS {
                if item.get(method).is_some() {
                    operations.insert(format!("{} {path}", method.to_uppercase()));
                }
            }
        }
        operations
    }

    fn table(routes: &[RouteSpec]) -> BTreeSet<String> {
        routes
            .iter()
            .map(|spec| format!("{} {}", spec.method, spec.path))
            .collect()
    }

    /// The names in both sets that the other lacks: (only in `routed`, only in `documented`).
    fn differences(
        routed: &BTreeSet<String>,
        documented: &BTreeSet<String>,
    ) -> (Vec<String>, Vec<String>) {
        (
            routed.difference(documented).cloned().collect(),
            documented.difference(routed).cloned().collect(),
        )
    }

    #[test]
    fn routes_the_openapi_document_lists_exactly_the_table_both_ways() {
        let document: serde_json::Value =
            serde_json::from_str(OPENAPI).expect("openapi.json is JSON");
        let documented = documented(&document);
        let routed = table(ROUTES);
        assert_eq!(
            routed.len(),
            ROUTES.len(),
            "a (method, pattern) pair is in the table twice"
        );
        assert!(routed.len() >= 30, "read {} routes", routed.len());
        let (undocumented, unrouted) = differences(&routed, &documented);
        assert_eq!(
            undocumented,
            Vec::<String>::new(),
            "routes missing from docs/openapi.json"
        );
        assert_eq!(
            unrouted,
            Vec::<String>::new(),
            "documented operations the route table does not have"
        );
    }

    #[test]
    fn routes_the_document_check_catches_a_difference_either_way() {
        let document: serde_json::Value =
            serde_json::from_str(OPENAPI).expect("openapi.json is JSON");
        // A route added without documenting it.
        let mut routes = ROUTES.to_vec();
        routes.push(RouteSpec {
            route: Route::Health,
            method: "GET",
            path: "/v1/undocumented",
            gate: Gate::Open,
        });
        let (undocumented, unrouted) = differences(&table(&routes), &documented(&document));
        assert_eq!(undocumented, vec!["GET /v1/undocumented".to_string()]);
        assert!(unrouted.is_empty());
        // A documented operation the table lost.
        let routes: Vec<RouteSpec> = ROUTES
            .iter()
            .filter(|s| s.route != Route::GetThread)
            .cloned()
            .collect();
        let (undocumented, unrouted) = differences(&table(&routes), &documented(&document));
        assert!(undocumented.is_empty());
        assert_eq!(unrouted, vec!["GET /v1/threads/{threadId}".to_string()]);
    }

    #[test]
    fn routes_every_variant_has_one_row_and_its_gate() {
        for (i, spec) in ROUTES.iter().enumerate() {
            assert_eq!(
                ROUTES.iter().filter(|s| s.route == spec.route).count(),
                1,
                "{:?}",
                spec.route
            );
            assert_eq!(spec.route.gate(), spec.gate);
            assert_eq!(spec.route as usize, i, "variants follow the table");
        }
    }

    #[test]
    fn routes_match_with_params_percent_decoded() {
        let matched =
            match_route("DELETE", "/v1/admin/orgs/org_1/domains/docs%2Eexample.com").unwrap();
        assert_eq!(matched.route, Route::RemoveDomain);
        assert_eq!(
            matched.params,
            vec!["org_1".to_string(), "docs.example.com".to_string()]
        );
        assert_eq!(matched.param(1), "docs.example.com");
        assert_eq!(matched.param(2), "");
        let resume =
            match_route("GET", "/discovery/v2/assistant/a.com/message/chat_1/stream").unwrap();
        assert_eq!(
            (resume.route, resume.param(0), resume.param(1)),
            (Route::AssistantV2Resume, "a.com", "chat_1")
        );
        assert_eq!(
            match_route("GET", "/v1/admin/orgs/o").unwrap().route,
            Route::GetOrg
        );
        assert_eq!(
            match_route("PATCH", "/v1/admin/orgs/o").unwrap().route,
            Route::UpdateOrg
        );
    }

    #[test]
    fn routes_head_is_served_by_get() {
        assert_eq!(match_route("HEAD", "/health").unwrap().route, Route::Health);
        assert_eq!(
            match_route("HEAD", "/v1/static-export/bundles/j")
                .unwrap()
                .route,
            Route::DownloadBundle
        );
        assert_eq!(
            match_route("HEAD", "/v1/admin/orgs"),
            Err(RouteError::MethodNotAllowed {
                allow: "POST".into()
            })
        );
    }

    #[test]
    fn routes_method_not_allowed_lists_the_methods() {
        assert_eq!(
            match_route("DELETE", "/v1/admin/orgs/o"),
            Err(RouteError::MethodNotAllowed {
                allow: "GET, PATCH, HEAD".into()
            })
        );
        assert_eq!(
            match_route("POST", "/v1/static-export/jobs/j"),
            Err(RouteError::MethodNotAllowed {
                allow: "GET, DELETE, HEAD".into()
            })
        );
        assert_eq!(
            match_route("GET", "/discovery/v1/search/a.com"),
            Err(RouteError::MethodNotAllowed {
                allow: "POST, OPTIONS".into()
            })
        );
        assert_eq!(
            match_route("PUT", "/discovery/v1/llms/a.com/llms.txt"),
            Err(RouteError::MethodNotAllowed {
                allow: "GET, HEAD, OPTIONS".into()
            })
        );
    }

    #[test]
    fn routes_not_found() {
        for path in [
            "/",
            "",
            "/nope",
            "/health/",
            "/v1/admin/orgs//keys",
            "/v1/sites/a%zz",
            "/v1/sites/a%2",
            "/v1/sites/%FF",
            "/discovery/v1/search/a.com/extra",
        ] {
            assert_eq!(
                match_route("GET", path),
                Err(RouteError::NotFound),
                "{path:?}"
            );
        }
    }

    #[test]
    fn routes_gates_follow_the_switches() {
        let mut features = Features::default();
        assert_eq!(Route::Health.gate(), Gate::Open);
        assert_eq!(Route::Feedback.gate().refused(&features), None);
        features.set(Feature::Analytics, false);
        assert_eq!(
            Route::Feedback.gate().refused(&features),
            Some(Feature::Analytics)
        );
        assert_eq!(Route::Search.gate().refused(&features), None);
        features.set(Feature::Search, false);
        assert_eq!(
            Route::Search.gate().refused(&features),
            Some(Feature::Search)
        );
        assert_eq!(Route::Mcp.gate().refused(&features), None);
        features.set(Feature::Assistant, false);
        assert_eq!(Route::Mcp.gate().refused(&features), Some(Feature::Search));
        assert_eq!(
            Route::Feedback.gate().refused(&features),
            Some(Feature::Assistant)
        );
        assert_eq!(Route::Health.gate().refused(&features), None);
    }
}
