//! The static export API's own rules, apart from rendering: the start request, job ids, how far a
//! job has come, and the name a bundle downloads under.

use serde_json::Value;

use super::page::widget::{self, MAX_API_BASE_CHARS};
use super::site::agent::MarkdownPages;
use super::site::versions::ExportVersions;
use crate::http::domain::validate_domain;
use crate::http::validate::{max_chars, max_items, object, string, FieldError, Obj, Path};
use crate::security::turnstile::{is_site_key, MAX_SITE_KEY_CHARS};
use crate::wire::ExportAssistant;

pub const MAX_PATHS: usize = 10_000;
pub const MAX_PATH_CHARS: usize = 512;
pub const MAX_VERSION_CHARS: usize = 100;
/// Progress a job reports once every page is rendered; the rest is the search index and assets.
pub const PAGES_PROGRESS_SHARE: f64 = 95.0;

/// `POST /v1/static-export/jobs`, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartRequest {
    pub domain: String,
    pub version: Option<String>,
    pub paths: Option<Vec<String>>,
    /// `"versions": "all"` or a list of version labels: more versions than `version` alone.
    pub versions: Option<ExportVersions>,
    /// `"pages"` or `"llms-full"`; `None`: the default for the export's size.
    pub markdown: Option<MarkdownPages>,
    /// The assistant widget on every page, `apiBase` normalized (`widget::api_base`).
    pub assistant: Option<ExportAssistant>,
    /// `"analytics": true`: the pages carry the analytics beacon, which reports page views and
    /// searches to this service. Off unless asked: a bundle is its owner's, hosted where its readers
    /// should not be reported to a third party and where no outside host may be reachable.
    pub analytics: bool,
}

pub fn parse_start_request(body: &Value) -> Result<StartRequest, FieldError> {
    let root = object(body, &Path::root())?;
    let raw_domain = root.req_str("domain")?;
    let domain =
        validate_domain(raw_domain).map_err(|rule| root.field_path("domain").error(rule))?;
    let version = root
        .opt_str_max("version", MAX_VERSION_CHARS)?
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_string);
    let paths = match root.opt_array("paths")? {
        None => None,
        Some(items) => {
            let path = root.field_path("paths");
            if items.is_empty() {
                return Err(
                    path.error("must list at least one page path (omit it to export every page)")
                );
            }
            max_items(items, MAX_PATHS, &path)?;
            let mut paths = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let item_path = path.index(i);
                let value = string(item, &item_path)?;
                max_chars(value, MAX_PATH_CHARS, &item_path)?;
                let normalized = normalize_page_path(value).ok_or_else(|| {
                    item_path.error("must be a page path such as \"guides/quickstart\" (no scheme, query or \"..\")")
                })?;
                paths.push(normalized);
            }
            Some(paths)
        }
    };
    let versions = parse_versions(&root)?;
    let markdown = match root.opt_str("markdown")? {
        None => None,
        Some(name) => Some(MarkdownPages::from_name(name).ok_or_else(|| {
            root.field_path("markdown")
                .error("must be \"pages\" or \"llms-full\"")
        })?),
    };
    let analytics = root.opt_bool("analytics")?.unwrap_or(false);
    let assistant = parse_assistant(&root)?;
    Ok(StartRequest {
        domain,
        version,
        paths,
        versions,
        markdown,
        analytics,
        assistant,
    })
}

/// Most versions a request may name (sites have a handful).
pub const MAX_VERSIONS: usize = 100;

fn parse_versions(root: &Obj<'_>) -> Result<Option<ExportVersions>, FieldError> {
    const RULE: &str = "must be \"all\" or a list of version labels such as [\"v2\", \"v1\"]";
    let path = root.field_path("versions");
    match root.get("versions") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(all)) if all == "all" => Ok(Some(ExportVersions::All)),
        Some(Value::Array(items)) => {
            if items.is_empty() {
                return Err(path.error(
                    "must list at least one version (omit it to export the default version)",
                ));
            }
            max_items(items, MAX_VERSIONS, &path)?;
            let mut names = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let item_path = path.index(i);
                let value = string(item, &item_path)?.trim();
                max_chars(value, MAX_VERSION_CHARS, &item_path)?;
                if value.is_empty() {
                    return Err(item_path.error("must be a version label"));
                }
                names.push(value.to_owned());
            }
            Ok(Some(ExportVersions::Only(names)))
        }
        Some(_) => Err(path.error(RULE)),
    }
}

/// Longer than any key we issue; a key on every page is checked for its shape, not looked up.
const MAX_KEY_CHARS: usize = 200;

fn parse_assistant(root: &Obj<'_>) -> Result<Option<ExportAssistant>, FieldError> {
    let Some(assistant) = root.opt_object("assistant")? else {
        return Ok(None);
    };
    let raw = assistant.req_str_max("apiBase", MAX_API_BASE_CHARS)?;
    let api_base = widget::api_base(raw).ok_or_else(|| {
        assistant.field_path("apiBase").error(
            "must be \"same-origin\" (the server hosting the bundle answers) or an https URL such as \"https://api.example.com\" (http only for localhost), without credentials, query or fragment",
        )
    })?;
    let key = assistant.req_str_max("key", MAX_KEY_CHARS)?;
    if !widget::is_public_key(key) {
        return Err(assistant
            .field_path("key")
            .error("must be a public assistant key (svc_dsc_ and 32 letters or digits): every reader of the pages sees it"));
    }
    let turnstile_site_key = match assistant.opt_str_max("turnstileSiteKey", MAX_SITE_KEY_CHARS)? {
        Some(site_key) if is_site_key(site_key) => Some(site_key.to_owned()),
        Some(_) => {
            return Err(assistant
                .field_path("turnstileSiteKey")
                .error("must be a Cloudflare Turnstile site key (letters, digits, _ and -)"))
        }
        None => None,
    };
    Ok(Some(ExportAssistant {
        api_base,
        key: key.to_owned(),
        turnstile_site_key,
    }))
}

/// `/guides/x`, `guides/x/`, `guides/x.mdx` → `guides/x`; `/` and `` → `index`. `None` when the value
/// cannot name a page.
pub fn normalize_page_path(raw: &str) -> Option<String> {
    let trimmed = raw.trim();
    if trimmed.contains("://") || trimmed.contains(['?', '#', '\\']) {
        return None;
    }
    let mut path = trimmed.trim_matches('/');
    for ext in [".mdx", ".md", ".html"] {
        if let Some(stripped) = path.strip_suffix(ext) {
            path = stripped;
        }
    }
    if path.split('/').any(|seg| seg == ".." || seg == ".") || path.contains("//") {
        return None;
    }
    Some(if path.is_empty() {
        "index".to_string()
    } else {
        path.to_string()
    })
}

/// `se_` and 16 lowercase hex digits, as the hosted service's job ids.
pub fn is_job_id(value: &str) -> bool {
    value.strip_prefix("se_").is_some_and(|hex| {
        hex.len() == 16
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// Progress after `done` of `total` pages: pages fill 0–95, finishing takes it to 100 (never here).
pub fn pages_progress(done: u32, total: u32) -> f64 {
    if total == 0 {
        return PAGES_PROGRESS_SHARE;
    }
    let share = f64::from(done.min(total)) / f64::from(total) * PAGES_PROGRESS_SHARE;
    (share * 10.0).floor() / 10.0
}

/// `{domain}-export-{YYYY-MM-DD}.tar.gz`, the date taken from the job's ISO 8601 creation time.
pub fn bundle_file_name(domain: &str, created_at: &str) -> String {
    let date = created_at
        .get(..10)
        .filter(|d| d.bytes().all(|b| b.is_ascii_digit() || b == b'-'))
        .unwrap_or("undated");
    format!("{domain}-export-{date}.tar.gz")
}

/// The code of the 409 for a stored version that today's rules refuse.
pub const REPUBLISH_REQUIRED: &str = "republish_required";

/// The message of that 409: a version published before a rule (the page-path rule, the `$ref` and
/// YAML alias bounds) is still stored as it was, but can no longer be built; the client's fix is to
/// publish again (which checks the rules and names the file and rule to change). `refusal` is what
/// building the stored source answered.
pub fn republish_message(refusal: &impl std::fmt::Display) -> String {
    format!(
        "the live version was published before a rule it breaks, so it cannot be exported: {refusal}; \
         fix the docs and publish them again, then start the export"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_version_published_before_the_page_path_rule_needs_a_republish() {
        let stored = crate::docs::archive::tree(&[
            (
                "docs.json",
                r#"{"navigation": {"pages": ["index", "javascript:alert(1)"]}}"#,
            ),
            ("index.mdx", "# Home"),
            ("javascript:alert(1).mdx", "# x"),
        ]);
        let refusal = crate::docs::site::build_site(&stored).unwrap_err();
        let message = republish_message(&refusal);
        assert!(message.contains("publish them again"), "{message}");
        assert!(
            message.contains("docs.json navigation.pages[1]"),
            "{message}"
        );
        assert_eq!(REPUBLISH_REQUIRED, "republish_required");
    }

    fn err(body: Value) -> String {
        parse_start_request(&body).unwrap_err().to_string()
    }

    #[test]
    fn start_request_reads_domain_version_and_paths() {
        let request = parse_start_request(&json!({
            "domain": "Docs.Example.com", "version": " v2 ", "paths": ["/guides/x/", "index", "/", "api/y.mdx"]
        }))
        .unwrap();
        assert_eq!(request.domain, "docs.example.com");
        assert_eq!(request.version.as_deref(), Some("v2"));
        assert_eq!(
            request.paths.unwrap(),
            ["guides/x", "index", "index", "api/y"]
        );
        assert_eq!(request.markdown, None);
        assert!(!request.analytics, "no beacon unless asked");
        let asked =
            parse_start_request(&json!({"domain": "docs.example.com", "analytics": true})).unwrap();
        assert!(asked.analytics);
        let llms =
            parse_start_request(&json!({"domain": "docs.example.com", "markdown": "llms-full"}))
                .unwrap();
        assert_eq!(llms.markdown, Some(MarkdownPages::LlmsFull));
        assert_eq!(request.versions, None);
        let all =
            parse_start_request(&json!({"domain": "docs.example.com", "versions": "all"})).unwrap();
        assert_eq!(all.versions, Some(ExportVersions::All));
        let named =
            parse_start_request(&json!({"domain": "docs.example.com", "versions": [" v1 ", "v2"]}))
                .unwrap();
        assert_eq!(
            named.versions,
            Some(ExportVersions::Only(vec!["v1".into(), "v2".into()]))
        );
    }

    #[test]
    fn start_request_errors_name_the_field() {
        assert!(err(json!({})).starts_with("domain: "));
        assert!(err(json!({"domain": "https://docs.example.com"})).starts_with("domain: "));
        assert!(err(json!({"domain": "docs.example.com/docs"})).starts_with("domain: "));
        assert!(err(json!({"domain": "docs.example.com", "version": 3})).starts_with("version: "));
        assert!(err(json!({"domain": "docs.example.com", "paths": "index"})).starts_with("paths: "));
        assert!(err(json!({"domain": "docs.example.com", "paths": []})).starts_with("paths: "));
        assert!(
            err(json!({"domain": "docs.example.com", "paths": ["a", 1]})).starts_with("paths[1]: ")
        );
        assert!(
            err(json!({"domain": "docs.example.com", "paths": ["../etc"]}))
                .starts_with("paths[0]: ")
        );
        assert!(
            err(json!({"domain": "docs.example.com", "paths": ["https://x.com/a"]}))
                .starts_with("paths[0]: ")
        );
        assert!(
            err(json!({"domain": "docs.example.com", "markdown": "all"})).starts_with("markdown: ")
        );
        assert!(
            err(json!({"domain": "docs.example.com", "versions": "every"}))
                .starts_with("versions: ")
        );
        assert!(
            err(json!({"domain": "docs.example.com", "versions": []})).starts_with("versions: ")
        );
        assert!(
            err(json!({"domain": "docs.example.com", "versions": ["v1", 2]}))
                .starts_with("versions[1]: ")
        );
        assert!(
            err(json!({"domain": "docs.example.com", "markdown": true})).starts_with("markdown: ")
        );
        assert_eq!(
            err(json!({"domain": "docs.example.com", "analytics": "yes"})),
            "analytics: must be a boolean"
        );
    }

    #[test]
    fn start_request_reads_the_assistant() {
        let key = format!("svc_dsc_{}", "Ab1".repeat(11));
        let request = parse_start_request(&json!({
            "domain": "docs.example.com", "assistant": {"apiBase": "https://API.example.com/", "key": key}
        }))
        .unwrap();
        let assistant = request.assistant.unwrap();
        assert_eq!(
            (assistant.api_base.as_str(), assistant.key.as_str()),
            ("https://api.example.com", key.as_str())
        );
        let same = parse_start_request(&json!({"domain": "docs.example.com", "assistant": {"apiBase": "same-origin", "key": key}})).unwrap();
        assert_eq!(same.assistant.unwrap().api_base, "same-origin");
        assert_eq!(
            parse_start_request(&json!({"domain": "docs.example.com"}))
                .unwrap()
                .assistant,
            None
        );
        assert_eq!(
            parse_start_request(&json!({"domain": "docs.example.com", "assistant": null}))
                .unwrap()
                .assistant,
            None
        );

        let with =
            |assistant: Value| err(json!({"domain": "docs.example.com", "assistant": assistant}));
        assert!(with(json!(true)).starts_with("assistant: "));
        assert!(with(json!({"key": key})).starts_with("assistant.apiBase: is required"));
        assert!(
            with(json!({"apiBase": "http://api.example.com", "key": key}))
                .starts_with("assistant.apiBase: must be \"same-origin\"")
        );
        assert!(with(json!({"apiBase": "same-origin"})).starts_with("assistant.key: is required"));
        let admin = format!("svc_{}", "Ab1".repeat(11));
        assert!(with(json!({"apiBase": "same-origin", "key": admin}))
            .starts_with("assistant.key: must be a public assistant key"));

        // Turnstile only when asked, with a plain site key.
        assert_eq!(parse_start_request(&json!({"domain": "docs.example.com", "assistant": {"apiBase": "same-origin", "key": key}})).unwrap().assistant.unwrap().turnstile_site_key, None);
        let asked = json!({"domain": "docs.example.com", "assistant": {"apiBase": "same-origin", "key": key, "turnstileSiteKey": "0x4AAAAAAAsite"}});
        assert_eq!(
            parse_start_request(&asked)
                .unwrap()
                .assistant
                .unwrap()
                .turnstile_site_key
                .as_deref(),
            Some("0x4AAAAAAAsite")
        );
        assert!(with(
            json!({"apiBase": "same-origin", "key": key, "turnstileSiteKey": "a\" onload=\"x"})
        )
        .starts_with("assistant.turnstileSiteKey: must be a Cloudflare Turnstile site key"));
        assert!(
            with(json!({"apiBase": "same-origin", "key": key, "turnstileSiteKey": 7}))
                .starts_with("assistant.turnstileSiteKey: ")
        );
    }

    #[test]
    fn job_ids() {
        assert!(is_job_id("se_3f9a2c1b8e7d4a06"));
        assert!(!is_job_id("se_3f9a2c1b8e7d4a0"));
        assert!(!is_job_id("se_3F9A2C1B8E7D4A06"));
        assert!(!is_job_id("xx_3f9a2c1b8e7d4a06"));
    }

    #[test]
    fn progress_grows_to_the_pages_share() {
        assert_eq!(pages_progress(0, 1057), 0.0);
        assert_eq!(pages_progress(100, 1057), 8.9);
        assert_eq!(pages_progress(1057, 1057), 95.0);
        assert_eq!(pages_progress(0, 0), 95.0);
    }

    #[test]
    fn file_name_uses_the_creation_date() {
        assert_eq!(
            bundle_file_name("docs.example.com", "2026-11-22T10:00:00.000Z"),
            "docs.example.com-export-2026-11-22.tar.gz"
        );
    }
}
