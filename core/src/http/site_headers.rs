//! The headers a served file of an exported site carries, whoever serves it (docs-edge-serve from a
//! folder, the worker from R2): the security headers with the site's `Content-Security-Policy`,
//! `Cache-Control`, the validator's comparison, `noindex` where the hostname is not the site's own,
//! and a file's content type.

/// The `Link` a page answered as HTML for a Markdown request carries when the bundle has no `.md`
/// beside it: every page's Markdown is in `llms-full.txt`.
pub const MARKDOWN_ALTERNATE_LINK: &str =
    "</llms-full.txt>; rel=\"alternate\"; type=\"text/markdown\"";

/// The security headers of every response of a served site, `Content-Security-Policy` last.
pub fn security_headers(content_security_policy: &str) -> [(&'static str, String); 4] {
    [
        ("x-content-type-options", "nosniff".to_string()),
        (
            "referrer-policy",
            "strict-origin-when-cross-origin".to_string(),
        ),
        ("x-frame-options", "SAMEORIGIN".to_string()),
        (
            "content-security-policy",
            content_security_policy.to_string(),
        ),
    ]
}

/// A year for a hashed file that is there; everything else is revalidated with its validator (a
/// page, an unhashed asset, the 404 of a missing hashed file: a newer part may appear there).
pub fn cache_control(path: &str, html: bool, found: bool) -> &'static str {
    if found && !html && is_fingerprinted(path) {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    }
}

/// A file name with a content hash in it (`panel.3f9a2c1b.js`): safe to cache for a year.
pub fn is_fingerprinted(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or("");
    let parts: Vec<&str> = name.split('.').collect();
    parts.len() >= 3
        && parts[1..parts.len() - 1]
            .iter()
            .any(|p| p.len() >= 8 && p.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Whether `If-None-Match` (a list, or `*`) names `etag`; weak and strong forms compare equal.
pub fn etag_matches(if_none_match: &str, etag: &str) -> bool {
    let bare = |tag: &str| tag.trim().trim_start_matches("W/").to_string();
    if_none_match
        .split(',')
        .any(|tag| tag.trim() == "*" || bare(tag) == bare(etag))
}

/// A hostname that is not a site's own, whose pages search engines must not index: the platform's
/// `*.workers.dev` and its preview URLs.
pub fn noindex_host(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host == "workers.dev" || host.ends_with(".workers.dev")
}

/// The content type of a bundle file, by its extension (what the export writes; anything else is
/// bytes).
pub fn content_type(path: &str) -> &'static str {
    let extension = path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "html" => "text/html; charset=utf-8",
        "md" => "text/markdown; charset=utf-8",
        "txt" | "license" => "text/plain; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" | "map" => "application/json",
        "xml" => "application/xml",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "avif" => "image/avif",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "ttf" => "font/ttf",
        "wasm" => "application/wasm",
        "pdf" => "application/pdf",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        "mp3" => "audio/mpeg",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn site_headers_carry_the_sites_policy_and_the_fixed_three() {
        let headers = security_headers("default-src 'self'");
        assert_eq!(
            headers[3],
            ("content-security-policy", "default-src 'self'".to_string())
        );
        let names: Vec<&str> = headers.iter().map(|(name, _)| *name).collect();
        assert_eq!(
            names,
            [
                "x-content-type-options",
                "referrer-policy",
                "x-frame-options",
                "content-security-policy"
            ]
        );
    }

    #[test]
    fn site_headers_cache_hashed_files_that_exist_for_a_year_only() {
        assert!(is_fingerprinted("/_static/app.3f9a2c1b.js"));
        assert!(!is_fingerprinted("/_static/site.css"));
        assert!(!is_fingerprinted("/_static/search/en/t/12.json"));
        assert!(!is_fingerprinted("/deadbeefcafe.js"));
        assert_eq!(
            cache_control("_static/widget/panel.0123456789.js", false, true),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(
            cache_control("_static/widget/panel.0123456789.js", false, false),
            "no-cache"
        );
        assert_eq!(cache_control("index.html", true, true), "no-cache");
    }

    #[test]
    fn site_headers_compare_validators_weakly_and_in_lists() {
        assert!(etag_matches("W/\"abc\"", "\"abc\""));
        assert!(etag_matches("\"x\", \"abc\"", "W/\"abc\""));
        assert!(etag_matches("*", "\"abc\""));
        assert!(!etag_matches("\"abd\"", "\"abc\""));
    }

    #[test]
    fn site_headers_noindex_on_platform_hostnames_only() {
        assert!(noindex_host("docs-edge.acme.workers.dev"));
        assert!(noindex_host("Preview-123.Docs.Acme.Workers.Dev."));
        assert!(!noindex_host("docs.example.com"));
        assert!(!noindex_host("notworkers.dev"));
    }

    #[test]
    fn site_headers_content_types_by_extension() {
        assert_eq!(content_type("a/b.html"), "text/html; charset=utf-8");
        assert_eq!(content_type("a/b.md"), "text/markdown; charset=utf-8");
        assert_eq!(
            content_type("_static/widget/sdk.0123456789.wasm"),
            "application/wasm"
        );
        assert_eq!(content_type("README"), "application/octet-stream");
    }
}
