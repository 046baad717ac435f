//! Hosting a domain's site: the operator's setting that turns it on with its export options, and the
//! live pointer that names the export the site is served from.
//!
//! An export job of a hosted domain writes its bundle's files one object each under a prefix of its
//! own (those that differ from its base's, `super::layers`), then the pointer ([`LiveSite`]), last:
//! a request reads the pointer, then files of the one export it names (each from that export's
//! prefix or its base's), so each response comes wholly from one export, and the previous export's
//! files stay where they were for pages loaded before the switch.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::export::api::parse_start_request;
use crate::export::layers::export_holding;
use crate::export::page::widget::SAME_ORIGIN;
use crate::export::site::agent::MarkdownPages;
use crate::export::site::versions::ExportVersions;
use crate::http::validate::{object, FieldError, Path};
use crate::platform::retention::{DAY_MS, HOSTED_PREFIX, IN_FLIGHT_DAYS};
use crate::wire::ExportAssistant;

/// Most characters of a path prefix (`/docs`).
pub const MAX_PREFIX_CHARS: usize = 100;
/// First path segments the service's own routes and assets take: a prefix there would never be
/// reached, as API routes are matched before site pages.
const RESERVED_SEGMENTS: [&str; 6] = ["v1", "v2", "discovery", "health", "widget", "widget.js"];

/// `PUT /v1/admin/orgs/{orgId}/domains/{domain}/hosting`, validated: whether the domain's site is
/// served, under which path, and the options of the exports it is served from (those of
/// `POST /v1/static-export/jobs` but `paths`: a site has every page).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HostingSettings {
    pub enabled: bool,
    /// `/docs` for a site at `docs.example.com/docs`; `None`: the hostname's root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_prefix: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versions: Option<ExportVersions>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markdown: Option<MarkdownPages>,
    #[serde(default)]
    pub analytics: bool,
    /// The assistant widget, asking the site's own origin (`same-origin`) unless told otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assistant: Option<ExportAssistant>,
}

impl HostingSettings {
    /// The setting as the API shows it: `versions` as the request writes it (`"all"` or a list of
    /// names), not as it is stored.
    pub fn to_json(&self) -> Value {
        let mut json = serde_json::to_value(self).unwrap_or(Value::Null);
        if let (Some(ExportVersions::Only(names)), Some(map)) =
            (&self.versions, json.as_object_mut())
        {
            map.insert("versions".into(), Value::from(names.clone()));
        }
        json
    }
}

/// Reads the setting for `domain`: `enabled` (required), `pathPrefix`, and the export options
/// `version`, `versions`, `markdown`, `analytics`, `assistant` (`{"key"}`, `apiBase` defaulting to
/// `same-origin`), each with the export request's rule.
pub fn parse_hosting(body: &Value, domain: &str) -> Result<HostingSettings, FieldError> {
    let root = object(body, &Path::root())?;
    let enabled = root.opt_bool("enabled")?.ok_or_else(|| {
        root.field_path("enabled")
            .error("is required (true or false)")
    })?;
    if root.get("paths").is_some() || root.get("domain").is_some() {
        let field = if root.get("paths").is_some() {
            "paths"
        } else {
            "domain"
        };
        return Err(root.field_path(field).error(
            "is not a hosting setting: a hosted site has every page, at the domain in the URL",
        ));
    }
    let path_prefix = match root.opt_str("pathPrefix")? {
        None => None,
        Some(raw) => path_prefix(raw).map_err(|rule| root.field_path("pathPrefix").error(rule))?,
    };
    let mut request = body.clone();
    request["domain"] = Value::String(domain.to_string());
    if let Some(assistant) = request.get_mut("assistant").and_then(Value::as_object_mut) {
        assistant
            .entry("apiBase")
            .or_insert_with(|| Value::String(SAME_ORIGIN.to_string()));
    }
    let export = parse_start_request(&request)?;
    Ok(HostingSettings {
        enabled,
        path_prefix,
        version: export.version,
        versions: export.versions,
        markdown: export.markdown,
        analytics: export.analytics,
        assistant: export.assistant,
    })
}

/// `/docs`, `/docs/` → `Some("/docs")`; `/` and `` → `None` (the root).
fn path_prefix(raw: &str) -> Result<Option<String>, String> {
    let trimmed = raw.trim().trim_end_matches('/');
    if trimmed.is_empty() {
        return Ok(None);
    }
    const RULE: &str = "must be a path such as \"/docs\": segments of letters, digits, '.', '-' or '_', at most 100 characters";
    if trimmed.len() > MAX_PREFIX_CHARS || !trimmed.starts_with('/') {
        return Err(RULE.into());
    }
    for segment in trimmed[1..].split('/') {
        let plain = segment
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
        if segment.is_empty() || segment == "." || segment == ".." || !plain {
            return Err(RULE.into());
        }
    }
    let first = trimmed[1..].split('/').next().unwrap_or("");
    if RESERVED_SEGMENTS.contains(&first) {
        return Err(format!(
            "cannot start with /{first}: the service's own routes are there"
        ));
    }
    Ok(Some(trimmed.to_string()))
}

/// The live pointer of a hosted domain: the export its site is served from, with what every
/// response of it carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LiveSite {
    /// The export job whose files are served.
    pub export_id: String,
    /// The published version it rendered.
    pub publish_id: String,
    pub created_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_prefix: Option<String>,
    /// The bundle's policy (its manifest's `contentSecurityPolicy`).
    pub content_security_policy: String,
    /// The export written whole whose files this one did not write (`crate::export::layers`);
    /// `None`: this one was written whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// With a base: the paths this export holds itself, sorted (every other file is the base's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<String>,
    /// The export served before this one: a rollback restores it, and its files answer what this
    /// export lacks, so a page loaded before the switch still finds its assets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous: Option<Box<LiveSite>>,
    /// Exports switched away from in the last [`KEEP_RETIRED_MS`], which the sweep keeps.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retired: Vec<Retired>,
    /// When the last export's switch was (a rollback is none): every export whose files were
    /// written since is still being written, one at a time for an organization.
    #[serde(default)]
    pub since_ms: u64,
    /// A preview's pointer (`crate::publish::preview`): the domain it previews. Its responses carry
    /// `noindex`, and another domain's export never replaces it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview_of: Option<String>,
    /// When a preview stops being served: the daily sweep deletes its pointer from then on (0: never).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub expires_ms: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// How long an export's files stay after the site was switched away from it, at least.
pub const KEEP_RETIRED_MS: u64 = 10 * 60 * 1000;

/// An export the site was switched away from, and when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Retired {
    pub export_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    pub at_ms: u64,
}

impl LiveSite {
    /// The pointer that switches the site from `current` to `self` at `now_ms`: `current` becomes
    /// the previous export and is recorded as switched away from.
    pub fn switched_from(mut self, current: Option<LiveSite>, now_ms: u64) -> LiveSite {
        let Some(mut current) = current else {
            return self;
        };
        let mut retired = std::mem::take(&mut current.retired);
        retired.push(Retired {
            export_id: current.export_id.clone(),
            base: current.base.clone(),
            at_ms: now_ms,
        });
        retired.retain(|r| {
            r.export_id != self.export_id && now_ms.saturating_sub(r.at_ms) < KEEP_RETIRED_MS
        });
        current.previous = None;
        self.previous = Some(Box::new(current));
        self.retired = retired;
        self.since_ms = now_ms;
        self
    }

    /// The pointer a rollback writes: the previous export live again, this one its previous;
    /// `None` when there is no previous export.
    pub fn rolled_back(mut self, now_ms: u64) -> Option<LiveSite> {
        let previous = *self.previous.take()?;
        let retired = std::mem::take(&mut self.retired);
        let since_ms = self.since_ms;
        let mut back = previous.switched_from(Some(self), now_ms);
        back.since_ms = since_ms;
        back.retired.extend(retired.into_iter().filter(|r| {
            r.export_id != back.export_id && now_ms.saturating_sub(r.at_ms) < KEEP_RETIRED_MS
        }));
        Some(back)
    }

    /// Whether a preview's pointer has expired at `now_ms` (the sweep deletes it then).
    pub fn expired(&self, now_ms: u64) -> bool {
        self.expires_ms != 0 && now_ms >= self.expires_ms
    }

    /// Whether the files of export `export_id` must stay at `now_ms`: the live one, the previous
    /// one, and those switched away from in the last `keep_retired_ms` ([`KEEP_RETIRED_MS`]), and
    /// the base of each.
    pub fn keeps(&self, export_id: &str, now_ms: u64, keep_retired_ms: u64) -> bool {
        let is =
            |id: &str, base: &Option<String>| id == export_id || base.as_deref() == Some(export_id);
        is(&self.export_id, &self.base)
            || self
                .previous
                .as_ref()
                .is_some_and(|p| is(&p.export_id, &p.base))
            || self.retired.iter().any(|r| {
                is(&r.export_id, &r.base) && now_ms.saturating_sub(r.at_ms) < keep_retired_ms
            })
    }
}

/// What serving a hosted site reads of its live pointer ([`LiveSite`]'s JSON): the export it
/// serves, and the one before it for assets a page loaded before the switch asks for. Read from
/// the JSON value rather than through a derived reader, which would carry the pointer's rollback
/// and sweep fields into the request-serving script for nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServedSite {
    pub export_id: String,
    pub publish_id: String,
    pub path_prefix: Option<String>,
    pub content_security_policy: String,
    /// The export written whole that holds the files this one did not write, and the paths this
    /// one holds (sorted): [`ServedSite::export_holding`].
    pub base: Option<String>,
    pub changed: Vec<String>,
    /// The export served before, read the same way.
    pub previous: Option<Box<ServedSite>>,
    /// A preview's: every response says `noindex`.
    pub noindex: bool,
}

impl ServedSite {
    /// The served part of a pointer's JSON; an error when a field it needs is missing.
    pub fn from_json(bytes: &[u8]) -> Result<ServedSite, serde_json::Error> {
        Self::from_value(&serde_json::from_slice(bytes)?)
    }

    fn from_value(pointer: &Value) -> Result<ServedSite, serde_json::Error> {
        let text = |name: &'static str| {
            pointer
                .get(name)
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        let required =
            |name: &'static str| text(name).ok_or_else(|| serde::de::Error::missing_field(name));
        let previous = match pointer.get("previous") {
            Some(previous) => Some(Box::new(Self::from_value(previous)?)),
            None => None,
        };
        Ok(ServedSite {
            export_id: required("exportId")?,
            publish_id: required("publishId")?,
            path_prefix: text("pathPrefix"),
            content_security_policy: required("contentSecurityPolicy")?,
            base: text("base"),
            changed: pointer
                .get("changed")
                .and_then(Value::as_array)
                .map(|paths| {
                    paths
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
            previous,
            noindex: pointer.get("previewOf").is_some(),
        })
    }

    /// The export whose prefix holds `path` of this one.
    pub fn export_holding(&self, path: &str) -> &str {
        export_holding(&self.export_id, self.base.as_deref(), &self.changed, path)
    }

    /// Heap the pointer takes, about: what a byte-bounded cache counts for it.
    pub fn approx_bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.export_id.len()
            + self.publish_id.len()
            + self.path_prefix.as_ref().map_or(0, String::len)
            + self.content_security_policy.len()
            + self.base.as_ref().map_or(0, String::len)
            + self.changed.iter().map(|p| p.len() + 24).sum::<usize>()
            + self.previous.as_ref().map_or(0, |p| p.approx_bytes())
    }

    /// The part of `url_path` inside the site (`/docs/a` → `/a`, `/docs` → `/`); `None` outside it.
    pub fn site_path<'a>(&self, url_path: &'a str) -> Option<&'a str> {
        let Some(prefix) = self.path_prefix.as_deref() else {
            return Some(url_path);
        };
        match url_path.strip_prefix(prefix)? {
            "" => Some("/"),
            rest if rest.starts_with('/') => Some(rest),
            _ => None,
        }
    }

    /// The site's root as a URL path, with its slash (`/`, `/docs/`): the 404 page's base.
    pub fn root(&self) -> String {
        format!("{}/", self.path_prefix.as_deref().unwrap_or(""))
    }
}

/// The domain and export of a hosted site's file key (`hosted/{domain}/{exportId}/{path}`); `None`
/// for the pointer (`hosted/{domain}/live.json`) and any other key.
pub fn hosted_export_of(key: &str) -> Option<(&str, &str)> {
    let mut parts = key.strip_prefix(HOSTED_PREFIX)?.splitn(3, '/');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(domain), Some(export), Some(path))
            if !domain.is_empty() && !export.is_empty() && !path.is_empty() =>
        {
            Some((domain, export))
        }
        _ => None,
    }
}

/// The hostname of a hosted site's pointer key (`hosted/{host}/live.json`); `None` for any other key.
pub fn hosted_pointer_of(key: &str) -> Option<&str> {
    let host = key
        .strip_prefix(HOSTED_PREFIX)?
        .strip_suffix("/live.json")?;
    (!host.is_empty() && !host.contains('/')).then_some(host)
}

/// Whether the sweep deletes a file of export `export_id`, written at `uploaded_ms`, of a domain
/// whose pointer is `live` (`None`: its site is not live): an export the pointer does not keep,
/// written before the last switch; with no pointer (or a preview's, expired), once a day old (an
/// export in flight is not).
pub fn hosted_file_swept(
    export_id: &str,
    uploaded_ms: u64,
    now_ms: u64,
    live: Option<&LiveSite>,
    keep_retired_ms: u64,
) -> bool {
    match live.filter(|live| !live.expired(now_ms)) {
        Some(live) => {
            !live.keeps(export_id, now_ms, keep_retired_ms) && uploaded_ms < live.since_ms
        }
        None => uploaded_ms.saturating_add(IN_FLIGHT_DAYS * DAY_MS) <= now_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hosting_settings_take_the_export_options_with_the_widget_same_origin() {
        let key = format!("svc_dsc_{}", "a".repeat(32));
        let body = json!({"enabled": true, "pathPrefix": "/docs/", "markdown": "pages", "versions": "all", "analytics": true, "assistant": {"key": key}});
        let settings = parse_hosting(&body, "docs.example.com").unwrap();
        assert!(settings.enabled && settings.analytics);
        assert_eq!(settings.path_prefix.as_deref(), Some("/docs"));
        assert_eq!(settings.markdown, Some(MarkdownPages::Pages));
        assert_eq!(settings.versions, Some(ExportVersions::All));
        assert_eq!(
            settings.assistant,
            Some(ExportAssistant {
                api_base: "same-origin".into(),
                key,
                turnstile_site_key: None
            })
        );
        let stored: HostingSettings =
            serde_json::from_str(&serde_json::to_string(&settings).unwrap()).unwrap();
        assert_eq!(stored, settings);
        let off = parse_hosting(&json!({"enabled": false}), "docs.example.com").unwrap();
        assert_eq!(off, HostingSettings::default());
    }

    #[test]
    fn the_api_shows_versions_as_the_request_writes_them() {
        let named =
            parse_hosting(&json!({"enabled": true, "versions": ["v2", "v1"]}), "d.io").unwrap();
        assert_eq!(named.to_json()["versions"], json!(["v2", "v1"]));
        let all = parse_hosting(&json!({"enabled": true, "versions": "all"}), "d.io").unwrap();
        assert_eq!(all.to_json()["versions"], json!("all"));
        assert!(HostingSettings::default()
            .to_json()
            .get("versions")
            .is_none());
    }

    #[test]
    fn hosting_settings_refuse_what_a_site_cannot_be_with_the_field() {
        let refused = |body: Value| parse_hosting(&body, "docs.example.com").unwrap_err();
        assert_eq!(refused(json!({})).path, "enabled");
        assert_eq!(refused(json!({"enabled": "yes"})).path, "enabled");
        assert_eq!(
            refused(json!({"enabled": true, "paths": ["a"]})).path,
            "paths"
        );
        assert_eq!(
            refused(json!({"enabled": true, "markdown": "all"})).path,
            "markdown"
        );
        assert_eq!(
            refused(json!({"enabled": true, "assistant": {"key": "svc_abc"}})).path,
            "assistant.key"
        );
        for prefix in ["docs", "/a b", "/a/../b", "/v1", "/discovery/x", "/a//b"] {
            assert_eq!(
                refused(json!({"enabled": true, "pathPrefix": prefix})).path,
                "pathPrefix",
                "{prefix}"
            );
        }
        assert_eq!(
            parse_hosting(&json!({"enabled": true, "pathPrefix": "/"}), "a.com")
                .unwrap()
                .path_prefix,
            None
        );
    }

    #[test]
    fn hosting_served_site_paths_stay_under_the_prefix() {
        let mut served = ServedSite {
            export_id: "se_1".into(),
            publish_id: "p".into(),
            path_prefix: None,
            content_security_policy: "x".into(),
            base: None,
            changed: Vec::new(),
            previous: None,
            noindex: false,
        };
        assert_eq!(served.site_path("/a/b"), Some("/a/b"));
        assert_eq!(served.root(), "/");
        served.path_prefix = Some("/docs".into());
        assert_eq!(served.site_path("/docs/a"), Some("/a"));
        assert_eq!(served.site_path("/docs"), Some("/"));
        assert_eq!(served.site_path("/docsx/a"), None);
        assert_eq!(served.site_path("/a"), None);
        assert_eq!(served.root(), "/docs/");
    }

    #[test]
    fn hosting_served_site_reads_what_the_pointer_wrote() {
        let mut second = export("se_b");
        second.path_prefix = Some("/docs".into());
        let live = second.switched_from(Some(export("se_a")), 1_000);
        let served = ServedSite::from_json(&serde_json::to_vec(&live).unwrap()).unwrap();
        let previous =
            ServedSite::from_json(&serde_json::to_vec(&export("se_a")).unwrap()).unwrap();
        assert_eq!(
            served,
            ServedSite {
                export_id: "se_b".into(),
                publish_id: "p_se_b".into(),
                path_prefix: Some("/docs".into()),
                content_security_policy: "csp se_b".into(),
                base: None,
                changed: Vec::new(),
                previous: Some(Box::new(previous)),
                noindex: false,
            }
        );
        let alone = ServedSite::from_json(&serde_json::to_vec(&export("se_c")).unwrap()).unwrap();
        assert_eq!(alone.previous, None);
        assert_eq!(alone.export_holding("a.html"), "se_c");
        // Layered on se_a: what it wrote is its own, the rest se_a's; its previous resolves alike.
        let mut layered = export("se_d");
        layered.base = Some("se_a".into());
        layered.changed = vec!["a.html".into(), "z.css".into()];
        let mut next = export("se_e");
        next.base = Some("se_a".into());
        next.changed = vec!["b.html".into()];
        let pointer = next.switched_from(Some(layered), 5);
        let served = ServedSite::from_json(&serde_json::to_vec(&pointer).unwrap()).unwrap();
        assert_eq!(served.export_holding("b.html"), "se_e");
        assert_eq!(served.export_holding("a.html"), "se_a");
        let previous = served.previous.as_deref().unwrap();
        assert_eq!(previous.export_holding("a.html"), "se_d");
        assert_eq!(previous.export_holding("b.html"), "se_a");
        let error = ServedSite::from_json(br#"{"exportId": "se_a", "publishId": "p"}"#)
            .unwrap_err()
            .to_string();
        assert!(error.contains("contentSecurityPolicy"), "{error}");
        assert!(ServedSite::from_json(b"[]").is_err());
    }

    fn export(id: &str) -> LiveSite {
        LiveSite {
            export_id: id.into(),
            publish_id: format!("p_{id}"),
            created_at: "t".into(),
            path_prefix: None,
            content_security_policy: format!("csp {id}"),
            base: None,
            changed: Vec::new(),
            previous: None,
            retired: Vec::new(),
            since_ms: 0,
            preview_of: None,
            expires_ms: 0,
        }
    }

    #[test]
    fn hosting_a_preview_pointer_says_noindex_and_is_swept_once_expired() {
        let mut preview = export("se_p");
        preview.preview_of = Some("docs.example.com".into());
        preview.expires_ms = 10 * DAY_MS;
        let json = serde_json::to_vec(&preview).unwrap();
        assert!(ServedSite::from_json(&json).unwrap().noindex);
        assert!(
            !ServedSite::from_json(&serde_json::to_vec(&export("se_a")).unwrap())
                .unwrap()
                .noindex
        );
        let read: LiveSite = serde_json::from_slice(&json).unwrap();
        assert_eq!(read, preview);
        // Before it expires its files are kept as a live site's are; after, as a site's with no pointer.
        assert!(!preview.expired(10 * DAY_MS - 1) && preview.expired(10 * DAY_MS));
        assert!(
            !export("se_a").expired(u64::MAX),
            "a live site never expires"
        );
        assert!(!hosted_file_swept(
            "se_p",
            0,
            10 * DAY_MS - 1,
            Some(&preview),
            KEEP_RETIRED_MS
        ));
        assert!(hosted_file_swept(
            "se_p",
            0,
            10 * DAY_MS,
            Some(&preview),
            KEEP_RETIRED_MS
        ));
        assert!(
            !hosted_file_swept(
                "se_p",
                10 * DAY_MS - 5,
                10 * DAY_MS,
                Some(&preview),
                KEEP_RETIRED_MS
            ),
            "a file written in the last day stays (an export in flight)"
        );
    }

    #[test]
    fn hosting_a_switch_keeps_the_previous_export_and_a_rollback_restores_it() {
        let first = export("se_a").switched_from(None, 0);
        assert_eq!(first.previous, None);
        let second = export("se_b").switched_from(Some(first.clone()), 1_000);
        assert_eq!(
            second.previous.as_deref().map(|p| p.export_id.as_str()),
            Some("se_a")
        );
        let third = export("se_c").switched_from(Some(second.clone()), 2_000);
        assert_eq!(
            third.previous.as_deref().map(|p| p.export_id.as_str()),
            Some("se_b")
        );
        assert!(
            third.previous.as_ref().unwrap().previous.is_none(),
            "one previous, not a chain"
        );
        // Switched away from a second ago: kept; ten minutes later only the live and the previous.
        let keeps = |site: &LiveSite, id: &str, at: u64| site.keeps(id, at, KEEP_RETIRED_MS);
        assert!(
            keeps(&third, "se_a", 2_000)
                && keeps(&third, "se_b", 2_000)
                && keeps(&third, "se_c", 2_000)
        );
        let later = 1_000 + KEEP_RETIRED_MS;
        assert!(
            !keeps(&third, "se_a", later)
                && keeps(&third, "se_b", later)
                && !keeps(&third, "se_x", 0)
        );
        assert_eq!(third.since_ms, 2_000);

        let back = third.clone().rolled_back(3_000).unwrap();
        assert_eq!(back.export_id, "se_b");
        assert_eq!(
            back.content_security_policy, "csp se_b",
            "the previous pointer whole"
        );
        assert_eq!(
            back.previous.as_deref().map(|p| p.export_id.as_str()),
            Some("se_c")
        );
        assert!(
            keeps(&back, "se_a", 3_000),
            "still within ten minutes of its switch"
        );
        assert_eq!(back.since_ms, 2_000, "a rollback is no export's switch");
        let forth = back.rolled_back(4_000).unwrap();
        assert_eq!(forth.export_id, "se_c");
        assert_eq!(export("se_a").rolled_back(0), None);
        let read: LiveSite = serde_json::from_str(&serde_json::to_string(&third).unwrap()).unwrap();
        assert_eq!(read, third);
    }

    #[test]
    fn hosting_the_sweep_keeps_the_base_of_every_export_it_keeps() {
        let layered = |id: &str, base: &str| LiveSite {
            base: Some(base.into()),
            changed: vec!["index.html".into()],
            ..export(id)
        };
        // se_a written whole; se_b and se_c each its changes over se_a; then se_d written whole.
        let live = layered("se_c", "se_a").switched_from(
            Some(layered("se_b", "se_a").switched_from(Some(export("se_a")), 1_000)),
            2_000,
        );
        let now = 2_000 + KEEP_RETIRED_MS;
        let swept =
            |live: &LiveSite, id: &str| hosted_file_swept(id, 10, now, Some(live), KEEP_RETIRED_MS);
        assert!(
            !swept(&live, "se_a"),
            "the base of the live and the previous exports"
        );
        assert!(!swept(&live, "se_b") && !swept(&live, "se_c"));
        let whole = export("se_d").switched_from(Some(live), now);
        let later = now + 1;
        let kept = |id: &str| whole.keeps(id, later, KEEP_RETIRED_MS);
        assert!(
            kept("se_a"),
            "the base of the export just switched away from"
        );
        assert!(kept("se_c") && kept("se_d") && !kept("se_b"));
        assert!(
            whole.keeps("se_a", later + KEEP_RETIRED_MS, KEEP_RETIRED_MS),
            "as long as the export layered on it is the previous one"
        );
        let back = whole.rolled_back(later).unwrap();
        assert_eq!(
            back.base.as_deref(),
            Some("se_a"),
            "a rollback restores the layers"
        );
        assert!(back.keeps("se_a", later + KEEP_RETIRED_MS, KEEP_RETIRED_MS));
    }

    #[test]
    fn hosting_the_sweep_takes_exports_neither_kept_nor_in_flight() {
        assert_eq!(
            hosted_export_of("hosted/d.com/se_a/_static/x.css"),
            Some(("d.com", "se_a"))
        );
        assert_eq!(hosted_export_of("hosted/d.com/live.json"), None);
        assert_eq!(hosted_pointer_of("hosted/d.com/live.json"), Some("d.com"));
        assert_eq!(hosted_pointer_of("hosted/d.com/se_a/live.json"), None);
        assert_eq!(hosted_pointer_of("hosted//live.json"), None);
        assert_eq!(hosted_export_of("sites/d.com/se_a/x"), None);
        let live = export("se_c").switched_from(
            Some(export("se_b").switched_from(Some(export("se_a")), 1_000)),
            2_000,
        );
        let now = 2_000 + KEEP_RETIRED_MS;
        let swept = |id: &str, uploaded: u64| {
            hosted_file_swept(id, uploaded, now, Some(&live), KEEP_RETIRED_MS)
        };
        assert!(
            swept("se_a", 500),
            "switched away from over ten minutes ago"
        );
        assert!(
            !swept("se_b", 500) && !swept("se_c", 1_500),
            "the previous and the live"
        );
        assert!(swept("se_old", 10), "an export long replaced");
        assert!(
            !swept("se_next", 2_500),
            "written since the last switch: in flight"
        );
        assert!(
            !hosted_file_swept("se_a", 500, 2_500, Some(&live), KEEP_RETIRED_MS),
            "switched away from moments ago"
        );
        assert!(!hosted_file_swept(
            "se_a",
            0,
            DAY_MS - 1,
            None,
            KEEP_RETIRED_MS
        ));
        assert!(
            hosted_file_swept("se_a", 0, DAY_MS, None, KEEP_RETIRED_MS),
            "no site: a day later"
        );
    }

    #[test]
    fn hosting_a_copy_of_the_bundle_gets_a_large_text_file_in_pieces() {
        use crate::docs::unpack::Entry;
        use crate::docs::{ArchiveLimits, Unpacker};
        use crate::export::{tar_gz_member, ExportFile};
        let member = tar_gz_member(
            &[
                ExportFile::new("a.html".into(), "<p>hi</p>".into()),
                ExportFile::new("llms-full.txt".into(), "x".repeat(3000)),
            ],
            0,
        );
        let mut seen = Vec::new();
        let mut unpacker = Unpacker::streaming_from(&ArchiveLimits::default(), 1000);
        unpacker
            .push(&member, &mut |entry| {
                seen.push(match entry {
                    Entry::File(path, bytes) => format!("file {path} {}", bytes.len()),
                    Entry::MediaStart { path, size } => format!("start {path} {size}"),
                    Entry::MediaData(data) => format!("data {}", data.len()),
                    Entry::MediaEnd => "end".into(),
                    Entry::Link { .. } => "link".into(),
                })
            })
            .unwrap();
        assert_eq!(seen.first().map(String::as_str), Some("file a.html 9"));
        assert_eq!(
            seen.get(1).map(String::as_str),
            Some("start llms-full.txt 3000")
        );
        assert_eq!(seen.last().map(String::as_str), Some("end"));
        let data: usize = seen
            .iter()
            .filter_map(|s| s.strip_prefix("data ")?.parse::<usize>().ok())
            .sum();
        assert_eq!(data, 3000);
    }

    #[test]
    fn hosting_a_bundles_parts_read_back_file_by_file_stop_only_between_entries() {
        use crate::docs::unpack::Entry;
        use crate::docs::{ArchiveLimits, Unpacker};
        use crate::export::{tar_gz_entry_piece, tar_gz_member, ExportFile};
        let pages = tar_gz_member(
            &[ExportFile::new("index.html".into(), "<p>hi</p>".into())],
            0,
        );
        let text = "x".repeat(1500);
        let head =
            tar_gz_entry_piece("llms-full.txt", 1500, 0, 0, &text.as_bytes()[..1000]).unwrap();
        let tail =
            tar_gz_entry_piece("llms-full.txt", 1500, 0, 1000, &text.as_bytes()[1000..]).unwrap();
        let mut unpacker = Unpacker::new(&ArchiveLimits::default());
        let mut files = Vec::new();
        let mut collect = |entry: Entry| {
            if let Entry::File(path, bytes) = entry {
                files.push((path, bytes.len()));
            }
        };
        assert!(!unpacker.between_entries(), "nothing read yet");
        unpacker.push(&pages, &mut collect).unwrap();
        assert!(unpacker.between_entries());
        unpacker.push(&head, &mut collect).unwrap();
        assert!(
            !unpacker.between_entries(),
            "inside llms-full.txt: a step may not stop here"
        );
        unpacker.push(&tail, &mut collect).unwrap();
        assert!(unpacker.between_entries());
        assert_eq!(
            files,
            vec![
                ("index.html".to_string(), 9),
                ("llms-full.txt".to_string(), 1500)
            ]
        );
    }
}
