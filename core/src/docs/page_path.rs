//! The one rule for page paths (`guides/setup`): a plain relative path that no browser reads as a
//! scheme (`javascript:`), a host (`//evil.example`) or a climb out of the site (`..`). Page paths
//! become file names and relative links of the static export, so a path that breaks the rule is
//! refused at publish instead of escaped later.

/// Why `path` (as written in docs.json, or a page file's path without its extension) is not a
/// plain relative page path; `None` when it is one. One leading `/` is allowed: docs.json writes
/// `/guides/x` for `guides/x`.
pub fn page_path_problem(path: &str) -> Option<&'static str> {
    let path = path.trim();
    if path.chars().any(char::is_control) {
        return Some("contains a control character");
    }
    if path.contains('\\') {
        return Some("contains a backslash");
    }
    if path.starts_with("//") {
        return Some("starts with `//`, which a browser reads as a host");
    }
    if path.contains(':') {
        return Some("contains `:`, which a browser reads as a URL scheme");
    }
    if path.contains(['?', '#']) {
        return Some("contains `?` or `#`, which end a URL path");
    }
    let inner = path.trim_start_matches('/').trim_end_matches('/');
    for segment in inner.split('/') {
        match segment {
            "." | ".." => return Some("contains a `.` or `..` segment"),
            "" if !inner.is_empty() => return Some("contains an empty segment (`//`)"),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::page_path_problem;

    #[test]
    fn plain_relative_paths_pass() {
        for ok in [
            "index",
            "guides/setup",
            "/guides/x.mdx",
            "es/guía rápida",
            "a/b/",
            "v2.1/api",
        ] {
            assert_eq!(page_path_problem(ok), None, "{ok}");
        }
    }

    #[test]
    fn schemes_hosts_climbs_and_control_characters_are_refused() {
        for bad in [
            "javascript:alert(document.domain)",
            "./javascript:alert(1)",
            "JaVaScRiPt:x",
            "data:text/html,x",
            "//evil.example/x",
            "a\\b",
            "../secret",
            "a/./b",
            "a//b",
            "a\nb",
            "tab\there",
            "x?y",
            "x#y",
        ] {
            assert!(page_path_problem(bad).is_some(), "{bad:?} passed");
        }
    }
}
