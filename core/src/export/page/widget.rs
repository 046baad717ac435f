//! The assistant widget in an export whose start request asks for it (`assistant`): every page
//! loads `_static/widget.js`, the launcher, as an external script (the pages keep no inline script
//! but the theme boot), and the launcher loads the panel and the SDK's wasm from `_static/widget/`
//! when the reader opens it. scripts/build-widget.mjs builds those files; the worker's export job
//! copies them from its static assets into the bundle, so neither script carries them. The pages'
//! policy then allows wasm and the one origin the widget asks ([`api_origin`]).

use crate::platform::deployment::{host_of, is_loopback};
use crate::security::signing::is_well_formed_key;
use crate::wire::{ExportAssistant, KeyKind};

use std::collections::BTreeMap;

use crate::export::html::attr;
use crate::export::render::links::{encode_path, Linker};

/// The launcher, in the bundle.
pub const WIDGET_SCRIPT: &str = "_static/widget.js";
/// The folder of the parts the launcher loads (their names carry their content's hash).
pub const WIDGET_DIR: &str = "_static/widget";
/// `apiBase` for a bundle whose own server answers the assistant (docs-edge-serve).
pub const SAME_ORIGIN: &str = "same-origin";
pub const MAX_API_BASE_CHARS: usize = 2048;

/// `apiBase` as the pages get it: `same-origin`, or an https URL (http only on a loopback host)
/// without credentials, query or fragment, scheme and host in lower case, trailing slashes
/// removed. `None` for anything else.
pub fn api_base(raw: &str) -> Option<String> {
    let raw = raw.trim();
    if raw == SAME_ORIGIN {
        return Some(SAME_ORIGIN.to_owned());
    }
    let (scheme, rest) = raw.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let authority = rest[..authority_end].to_ascii_lowercase();
    let path = rest[authority_end..].trim_end_matches('/');
    let host = host_of(&authority);
    let plain_authority = !host.is_empty()
        && authority
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'));
    // The base ends up in an HTML attribute and the policy header: no quote, space or separator.
    let plain_path = path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'.' | b'_' | b'~' | b'%'));
    let secure = scheme == "https" || (scheme == "http" && is_loopback(host));
    (plain_authority && plain_path && secure).then(|| format!("{scheme}://{authority}{path}"))
}

/// The origin the widget calls, as a policy source: `None` for `same-origin`, which `'self'` covers.
pub fn api_origin(api_base: &str) -> Option<&str> {
    let (_, rest) = api_base.split_once("://")?;
    let authority_end = rest.find('/').unwrap_or(rest.len());
    Some(&api_base[..api_base.len() - rest.len() + authority_end])
}

/// A public assistant key: it is on every page, so an admin key (`svc_…`) never is.
pub fn is_public_key(key: &str) -> bool {
    is_well_formed_key(key) && KeyKind::of_key(key) == Some(KeyKind::Assistant)
}

/// Where the widget's file at `asset` goes in the bundle: `widget.js` and `widget/<name>` (as
/// scripts/build-widget.mjs lays them out among the worker's assets) under `_static/`. `None` for
/// any other path, which a bundle never takes from there.
pub fn bundle_path(asset: &str) -> Option<String> {
    let name = asset.strip_prefix("widget/").unwrap_or(asset);
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
    (asset == "widget.js" || (asset.starts_with("widget/") && plain))
        .then(|| format!("{}/{asset}", crate::export::render::links::STATIC_DIR))
}

/// The launcher's script tag, the widget's settings in its `data-*` attributes. `data-link-base`
/// (the bundle's root, relative to the page) and `data-link-index` ([`folder_pages`]) let the widget
/// turn a citation of the live site (`https://<domain>/a/b#x`) into the bundle's own page
/// (`a/b.html#x`), as the pages' own links are: a self-hosted or air-gapped bundle keeps its
/// readers in it. docs.json's support link (`crate::docs::own_keys`) becomes `data-support-url`, or
/// for a `mailto:` one `data-support-email`.
pub(crate) fn script_tag(
    out: &mut String,
    assistant: &ExportAssistant,
    domain: &str,
    (folders, support): (&str, Option<&str>),
    links: &Linker<'_>,
) {
    out.push_str("<script defer");
    attr(out, "src", &links.file(WIDGET_SCRIPT));
    attr(out, "data-api", &assistant.api_base);
    attr(out, "data-domain", domain);
    attr(out, "data-key", &assistant.key);
    if let Some(site_key) = &assistant.turnstile_site_key {
        attr(out, "data-turnstile", site_key);
    }
    match support.map(|link| {
        (
            link.get(..7)
                .is_some_and(|s| s.eq_ignore_ascii_case("mailto:")),
            link,
        )
    }) {
        Some((true, link)) => attr(out, "data-support-email", &link[7..]),
        Some((false, link)) => attr(out, "data-support-url", link),
        None => {}
    }
    let base = links.file("");
    attr(
        out,
        "data-link-base",
        if base.is_empty() { "./" } else { &base },
    );
    if !folders.is_empty() {
        attr(out, "data-link-index", folders);
    }
    out.push_str("></script>");
}

/// The folders whose page is their `index` (`guides` for `guides/index.html`, when there is no
/// `guides.html`), URL-encoded and space-separated: the live site serves both at `/guides`, and the
/// widget cannot tell which file a bundle has without them.
pub(crate) fn folder_pages(files: &BTreeMap<String, String>) -> String {
    let folders: Vec<String> = files
        .keys()
        .filter_map(|path| path.strip_suffix("/index"))
        .filter(|folder| !files.contains_key(*folder))
        .map(encode_path)
        .collect();
    folders.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_base_takes_same_origin_and_secure_urls_only() {
        assert_eq!(api_base(" same-origin ").as_deref(), Some("same-origin"));
        assert_eq!(
            api_base("HTTPS://Api.Example.com/").as_deref(),
            Some("https://api.example.com")
        );
        assert_eq!(
            api_base("https://api.example.com:8443/docs//").as_deref(),
            Some("https://api.example.com:8443/docs")
        );
        assert_eq!(
            api_base("http://localhost:8787").as_deref(),
            Some("http://localhost:8787")
        );
        assert_eq!(
            api_base("http://127.0.0.1:8787").as_deref(),
            Some("http://127.0.0.1:8787")
        );
        for refused in [
            "http://api.example.com",
            "https://user:pw@api.example.com",
            "https://api.example.com/?x=1",
            "https://api.example.com/#x",
            "https://api.example.com/a\"b",
            "https://api.example.com; script-src *",
            "https:///x",
            "javascript:alert(1)",
            "api.example.com",
            "Same-Origin",
            "",
        ] {
            assert_eq!(api_base(refused), None, "{refused}");
        }
    }

    #[test]
    fn the_origin_is_what_the_policy_names() {
        assert_eq!(
            api_origin("https://api.example.com:8443/docs"),
            Some("https://api.example.com:8443")
        );
        assert_eq!(
            api_origin("http://localhost:8787"),
            Some("http://localhost:8787")
        );
        assert_eq!(api_origin(SAME_ORIGIN), None);
    }

    #[test]
    fn the_files_go_under_the_static_folder() {
        assert_eq!(bundle_path("widget.js").as_deref(), Some(WIDGET_SCRIPT));
        assert_eq!(
            bundle_path("widget/panel.0123456789.js"),
            Some(format!("{WIDGET_DIR}/panel.0123456789.js"))
        );
        for refused in [
            "widget/../site.js",
            "widget/",
            "widget/a/b.js",
            "other.js",
            "/widget.js",
            "widget/.x",
        ] {
            assert_eq!(bundle_path(refused), None, "{refused}");
        }
    }

    #[test]
    fn folder_pages_are_the_index_pages_without_a_page_of_their_own() {
        let files: BTreeMap<String, String> = [
            "index",
            "guides/index",
            "guides/a",
            "api",
            "api/index",
            "zh/快速 开始/index",
        ]
        .iter()
        .map(|p| (p.to_string(), format!("{p}.html")))
        .collect();
        assert_eq!(
            folder_pages(&files),
            "guides zh/%E5%BF%AB%E9%80%9F%20%E5%BC%80%E5%A7%8B"
        );
        assert_eq!(
            folder_pages(&BTreeMap::from([(
                "index".to_string(),
                "index.html".to_string()
            )])),
            ""
        );
    }

    #[test]
    fn only_a_public_key_goes_on_pages() {
        let public = format!("svc_dsc_{}", "a1".repeat(16));
        assert!(is_public_key(&public));
        assert!(
            !is_public_key(&format!("svc_{}", "a1".repeat(16))),
            "an admin key"
        );
        assert!(!is_public_key("svc_dsc_short"));
        assert!(!is_public_key(&format!("svc_dsc_{}\"", "a1".repeat(16))));
    }
}
