//! Deployment kinds and the feature switches they default, after the specification's table:
//!
//! | Feature              | cloud | client-hosted  | air-gapped     |
//! |----------------------|-------|----------------|----------------|
//! | documentation search | on    | configurable (on)  | configurable (off) |
//! | AI assistant         | on    | configurable (on)  | configurable (off) |
//! | web analytics        | on    | configurable (off) | configurable (off) |
//! | API playground       | on    | on             | configurable (off) |
//! | static export bundle | on    | on             | on             |
//!
//! The table's "no" for search and the assistant on air-gapped deployments comes from the hosted
//! service running both in its cloud; here both run locally (the offline index, the extractive
//! assistant), so an operator may switch them on. What air-gapped forbids is any outbound request:
//! see [`outbound_allowed`]. Both the worker and `docs-edge-serve` read the same variables.

use std::fmt;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeploymentKind {
    Cloud,
    ClientHosted,
    AirGapped,
}

impl DeploymentKind {
    pub fn parse(raw: &str) -> Option<Self> {
        match raw.trim().to_ascii_lowercase().as_str() {
            "cloud" => Some(Self::Cloud),
            "client-hosted" => Some(Self::ClientHosted),
            "air-gapped" => Some(Self::AirGapped),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Cloud => "cloud",
            Self::ClientHosted => "client-hosted",
            Self::AirGapped => "air-gapped",
        }
    }
}

/// One row of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    Search,
    Assistant,
    Analytics,
    Playground,
    StaticExport,
}

impl Feature {
    pub const ALL: [Feature; 5] = [
        Feature::Search,
        Feature::Assistant,
        Feature::Analytics,
        Feature::Playground,
        Feature::StaticExport,
    ];

    /// Name in `/v1/features`, the manifest and errors.
    pub fn name(self) -> &'static str {
        match self {
            Self::Search => "search",
            Self::Assistant => "assistant",
            Self::Analytics => "analytics",
            Self::Playground => "playground",
            Self::StaticExport => "staticExport",
        }
    }

    /// The variable that switches it (`"true"`/`"false"`).
    pub fn variable(self) -> &'static str {
        match self {
            Self::Search => "FEATURE_SEARCH",
            Self::Assistant => "FEATURE_ASSISTANT",
            Self::Analytics => "FEATURE_ANALYTICS",
            Self::Playground => "FEATURE_PLAYGROUND",
            Self::StaticExport => "FEATURE_STATIC_EXPORT",
        }
    }

    fn default_for(self, kind: DeploymentKind) -> bool {
        use DeploymentKind::*;
        match (self, kind) {
            (_, Cloud) | (Self::StaticExport, _) | (Self::Playground, ClientHosted) => true,
            (Self::Search | Self::Assistant, ClientHosted) => true,
            (Self::Analytics, ClientHosted) => false,
            (_, AirGapped) => false,
        }
    }
}

/// The switches of one deployment, as `/v1/features` and the bundle manifest show them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Features {
    pub search: bool,
    pub assistant: bool,
    pub analytics: bool,
    pub playground: bool,
    pub static_export: bool,
}

impl Default for Features {
    fn default() -> Self {
        Self::defaults(DeploymentKind::Cloud)
    }
}

impl Features {
    pub fn defaults(kind: DeploymentKind) -> Self {
        let mut features = Self::all_off();
        for feature in Feature::ALL {
            features.set(feature, feature.default_for(kind));
        }
        features
    }

    fn all_off() -> Self {
        Self {
            search: false,
            assistant: false,
            analytics: false,
            playground: false,
            static_export: false,
        }
    }

    pub fn enabled(&self, feature: Feature) -> bool {
        match feature {
            Feature::Search => self.search,
            Feature::Assistant => self.assistant,
            Feature::Analytics => self.analytics,
            Feature::Playground => self.playground,
            Feature::StaticExport => self.static_export,
        }
    }

    pub fn set(&mut self, feature: Feature, on: bool) {
        match feature {
            Feature::Search => self.search = on,
            Feature::Assistant => self.assistant = on,
            Feature::Analytics => self.analytics = on,
            Feature::Playground => self.playground = on,
            Feature::StaticExport => self.static_export = on,
        }
    }
}

/// A deployment's kind and switches, read from variables through `lookup` (worker vars, process
/// environment or a config file): `DEPLOYMENT_KIND` and the `FEATURE_*` of [`Feature::variable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Deployment {
    pub kind: DeploymentKind,
    pub features: Features,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeploymentError {
    pub variable: &'static str,
    pub rule: String,
}

impl fmt::Display for DeploymentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.variable, self.rule)
    }
}

impl std::error::Error for DeploymentError {}

impl Deployment {
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, DeploymentError> {
        let kind = match lookup("DEPLOYMENT_KIND").filter(|v| !v.trim().is_empty()) {
            None => DeploymentKind::Cloud,
            Some(raw) => DeploymentKind::parse(&raw).ok_or_else(|| DeploymentError {
                variable: "DEPLOYMENT_KIND",
                rule: format!("must be cloud, client-hosted or air-gapped, not `{raw}`"),
            })?,
        };
        let mut features = Features::defaults(kind);
        for feature in Feature::ALL {
            let Some(raw) = lookup(feature.variable()).filter(|v| !v.trim().is_empty()) else {
                continue;
            };
            let on = parse_switch(&raw).ok_or_else(|| DeploymentError {
                variable: feature.variable(),
                rule: format!("must be true or false, not `{raw}`"),
            })?;
            features.set(feature, on);
        }
        Ok(Self { kind, features })
    }
}

pub fn parse_switch(raw: &str) -> Option<bool> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// Whether the assistant may use `backend` (`ASSISTANT_BACKEND`) in this deployment: the
/// extractive backend always (it makes no request); in an air-gapped one an LLM backend only at an
/// `LLM_BASE_URL` declared internal, and never `workers-ai`, whose binding runs the model on
/// Cloudflare's network whatever `LLM_BASE_URL` says.
pub fn backend_allowed(
    kind: DeploymentKind,
    backend: &str,
    llm_base_url: Option<&str>,
    internal_hosts: &str,
) -> Result<(), String> {
    if backend == "extractive" {
        return Ok(());
    }
    if kind == DeploymentKind::AirGapped && backend == "workers-ai" {
        return Err("ASSISTANT_BACKEND=workers-ai: the Workers AI binding always calls Cloudflare's network (it never uses LLM_BASE_URL), which an air-gapped deployment forbids; use openai or anthropic with an internal LLM_BASE_URL, or extractive".into());
    }
    outbound_allowed(kind, "LLM_BASE_URL", llm_base_url, internal_hosts)
        .map_err(|rule| format!("ASSISTANT_BACKEND={backend}: {rule}"))
}

/// Whether an air-gapped deployment may send requests to `url` (`setting` names where it came from,
/// such as `LLM_BASE_URL`): only when its host is one of `internal_hosts` (the operator's
/// `INTERNAL_HOSTS`, comma-separated host names or `host:port`). Other kinds may call anything.
pub fn outbound_allowed(
    kind: DeploymentKind,
    setting: &str,
    url: Option<&str>,
    internal_hosts: &str,
) -> Result<(), String> {
    if kind != DeploymentKind::AirGapped {
        return Ok(());
    }
    let Some(url) = url.map(str::trim).filter(|u| !u.is_empty()) else {
        return Err(format!("an air-gapped deployment makes no outbound request: set {setting} to an internal address listed in INTERNAL_HOSTS"));
    };
    let authority = url
        .split_once("://")
        .map(|(_, rest)| rest)
        .unwrap_or(url)
        .split(['/', '?', '#'])
        .next()
        .unwrap_or("")
        .rsplit('@')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let host = host_of(&authority);
    let declared = internal_hosts
        .split(',')
        .map(|h| h.trim().to_ascii_lowercase())
        .filter(|h| !h.is_empty())
        .any(|h| h == authority || h == host);
    if declared {
        Ok(())
    } else {
        Err(format!(
            "{setting} host `{host}` is not declared internal (INTERNAL_HOSTS); an air-gapped deployment makes no outbound request"
        ))
    }
}

/// Whether a publish may fetch `url` (a remote dependency the upload lacks): https only, at a public
/// address (no loopback, private, link-local or unqualified host: the builder runs beside the
/// operator's other services); air-gapped, only a host listed in `internal_hosts`.
/// `allow_loopback_http` is for tests, which serve from loopback without TLS.
pub fn publish_fetch_allowed(
    air_gapped: bool,
    url: &str,
    internal_hosts: &str,
    allow_loopback_http: bool,
) -> Result<(), String> {
    let (scheme, rest) = url.trim().split_once("://").ok_or("not an absolute URL")?;
    let authority = rest
        .split(['/', '?', '#'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    if authority.contains('@') {
        return Err("a URL with credentials is not fetched".into());
    }
    let host = host_of(&authority);
    let loopback = is_loopback(host);
    match scheme.to_ascii_lowercase().as_str() {
        "https" => {}
        "http" if allow_loopback_http && loopback => return Ok(()),
        _ => return Err("only https addresses are fetched".into()),
    }
    if air_gapped {
        return outbound_allowed(
            DeploymentKind::AirGapped,
            "the URL",
            Some(url),
            internal_hosts,
        );
    }
    if host.is_empty() || loopback || !is_public_host(host) {
        return Err(format!("host `{host}` is not a public address"));
    }
    Ok(())
}

pub(crate) fn is_loopback(host: &str) -> bool {
    host == "localhost" || host.ends_with(".localhost") || host == "::1" || host.starts_with("127.")
}

/// A host name with a public suffix, or an IP address outside the private, loopback, link-local,
/// shared and reserved ranges.
fn is_public_host(host: &str) -> bool {
    if let Ok(ip) = host.parse::<std::net::Ipv4Addr>() {
        let [a, b, ..] = ip.octets();
        return !(ip.is_private()
            || ip.is_loopback()
            || ip.is_link_local()
            || ip.is_unspecified()
            || ip.is_broadcast()
            || ip.is_documentation()
            || a == 0
            || (a == 100 && (64..128).contains(&b))
            || a >= 224);
    }
    if let Ok(ip) = host.parse::<std::net::Ipv6Addr>() {
        let first = ip.segments()[0];
        return !(ip.is_loopback()
            || ip.is_unspecified()
            || (first & 0xfe00) == 0xfc00
            || (first & 0xffc0) == 0xfe80
            || ip.to_ipv4_mapped().is_some());
    }
    let internal_suffix = [".local", ".internal", ".lan", ".home", ".corp", ".intranet"]
        .iter()
        .any(|s| host.ends_with(s));
    host.contains('.')
        && !internal_suffix
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
}

pub(crate) fn host_of(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or("");
    }
    authority.split(':').next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    #[test]
    fn a_publish_fetches_only_public_https_addresses_or_declared_internal_ones_air_gapped() {
        assert!(
            publish_fetch_allowed(false, "https://api.example.com/openapi.json", "", false).is_ok()
        );
        for refused in [
            "http://api.example.com/openapi.json",
            "ftp://x.example.com/a",
            "https://localhost/a",
            "https://127.0.0.1/a",
            "https://10.1.2.3/a",
            "https://192.168.0.1/a",
            "https://169.254.169.254/latest",
            "https://[::1]/a",
            "https://[fd00::1]/a",
            "https://intranet/a",
            "https://svc.internal/a",
            "https://100.64.0.1/a",
            "https://user:pw@example.com/a",
            "openapi.json",
        ] {
            assert!(
                publish_fetch_allowed(false, refused, "", false).is_err(),
                "{refused}"
            );
        }
        assert!(publish_fetch_allowed(true, "https://api.example.com/a", "", false).is_err());
        assert!(
            publish_fetch_allowed(true, "https://specs.corp/a.json", "specs.corp", false).is_ok()
        );
        assert!(publish_fetch_allowed(false, "http://127.0.0.1:9000/a.json", "", true).is_ok());
        assert!(publish_fetch_allowed(false, "http://10.0.0.1:9000/a.json", "", true).is_err());
    }

    fn read(vars: &[(&str, &str)]) -> Result<Deployment, DeploymentError> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Deployment::from_lookup(|name| map.get(name).cloned())
    }

    #[test]
    fn defaults_follow_the_table() {
        let cloud = read(&[]).unwrap();
        assert_eq!(cloud.kind, DeploymentKind::Cloud);
        assert!(Feature::ALL.iter().all(|f| cloud.features.enabled(*f)));
        let client = read(&[("DEPLOYMENT_KIND", "client-hosted")])
            .unwrap()
            .features;
        assert!(client.search && client.assistant && client.playground && client.static_export);
        assert!(!client.analytics);
        let gapped = read(&[("DEPLOYMENT_KIND", "Air-Gapped")]).unwrap().features;
        assert!(!gapped.search && !gapped.assistant && !gapped.analytics && !gapped.playground);
        assert!(gapped.static_export);
    }

    #[test]
    fn switches_override_the_defaults_and_bad_values_name_the_variable() {
        let d = read(&[
            ("DEPLOYMENT_KIND", "air-gapped"),
            ("FEATURE_SEARCH", "true"),
            ("FEATURE_STATIC_EXPORT", "off"),
        ])
        .unwrap();
        assert!(d.features.search && !d.features.static_export);
        assert_eq!(
            read(&[("FEATURE_ASSISTANT", "maybe")])
                .unwrap_err()
                .variable,
            "FEATURE_ASSISTANT"
        );
        assert_eq!(
            read(&[("DEPLOYMENT_KIND", "edge")]).unwrap_err().variable,
            "DEPLOYMENT_KIND"
        );
        let json = serde_json::to_value(d).unwrap();
        assert_eq!(json["kind"], "air-gapped");
        assert_eq!(json["features"]["staticExport"], false);
    }

    #[test]
    fn air_gapped_llm_only_on_declared_internal_hosts() {
        use DeploymentKind::*;
        assert!(outbound_allowed(Cloud, "LLM_BASE_URL", None, "").is_ok());
        assert!(outbound_allowed(AirGapped, "LLM_BASE_URL", None, "llm.internal").is_err());
        assert!(outbound_allowed(
            AirGapped,
            "LLM_BASE_URL",
            Some("https://api.openai.com/v1"),
            "llm.internal"
        )
        .is_err());
        assert!(outbound_allowed(
            AirGapped,
            "LLM_BASE_URL",
            Some("http://llm.internal:8000/v1"),
            "llm.internal"
        )
        .is_ok());
        assert!(outbound_allowed(
            AirGapped,
            "LLM_BASE_URL",
            Some("http://10.0.0.5:8000/v1"),
            "10.0.0.5:8000"
        )
        .is_ok());
        assert!(outbound_allowed(
            AirGapped,
            "LLM_BASE_URL",
            Some("http://10.0.0.5:9000/v1"),
            "10.0.0.5:8000"
        )
        .is_err());
        // Userinfo cannot smuggle a declared name in front of another host.
        assert!(outbound_allowed(
            AirGapped,
            "LLM_BASE_URL",
            Some("http://llm.internal@evil.com/v1"),
            "llm.internal"
        )
        .is_err());
    }

    #[test]
    fn air_gapped_backends_extractive_always_workers_ai_never() {
        use DeploymentKind::*;
        for kind in [Cloud, ClientHosted, AirGapped] {
            assert!(backend_allowed(kind, "extractive", None, "").is_ok());
        }
        assert!(backend_allowed(Cloud, "workers-ai", None, "").is_ok());
        assert!(backend_allowed(ClientHosted, "workers-ai", None, "").is_ok());
        let refused = backend_allowed(
            AirGapped,
            "workers-ai",
            Some("http://llm.internal/v1"),
            "llm.internal",
        )
        .unwrap_err();
        assert!(
            refused.contains("Workers AI binding always calls Cloudflare's network"),
            "{refused}"
        );
        assert!(backend_allowed(
            AirGapped,
            "openai",
            Some("http://llm.internal/v1"),
            "llm.internal"
        )
        .is_ok());
        let outside = backend_allowed(
            AirGapped,
            "anthropic",
            Some("https://api.anthropic.com/v1"),
            "llm.internal",
        )
        .unwrap_err();
        assert!(
            outside.starts_with("ASSISTANT_BACKEND=anthropic: "),
            "{outside}"
        );
    }
}
