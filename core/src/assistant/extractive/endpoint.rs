//! The method-and-path line that opens an API reference page, so a quote of its operation names the
//! call it belongs to.

use crate::assistant::passage::Passage;

/// `` `GET /users/{id}` `` or `` `WEBHOOK order.created` ``: a line naming one operation, as the
/// reference of a page with `openapi:` frontmatter opens.
/// The endpoint line opening `passage`, if it opens an API reference page's intro.
pub(super) fn endpoint_line(passage: &Passage) -> Option<&str> {
    passage
        .text
        .lines()
        .next()
        .map(str::trim)
        .filter(|line| is_endpoint_line(line))
}

/// A section an API reference page holds for its operation's parameters, body or responses.
pub(super) fn is_operation_section(passage: &Passage) -> bool {
    use crate::docs::endpoint::{PARAMETERS_ANCHOR, REQUEST_BODY_ANCHOR, RESPONSES_ANCHOR};
    [PARAMETERS_ANCHOR, REQUEST_BODY_ANCHOR, RESPONSES_ANCHOR].contains(&passage.anchor.as_str())
}

pub(super) fn is_endpoint_line(text: &str) -> bool {
    let Some(inner) = text
        .trim()
        .strip_prefix('`')
        .and_then(|t| t.strip_suffix('`'))
    else {
        return false;
    };
    let Some((method, path)) = inner.split_once(' ') else {
        return false;
    };
    let methods = [
        "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "WEBHOOK",
    ];
    methods.contains(&method)
        && !path.is_empty()
        && !path.contains(char::is_whitespace)
        && (method == "WEBHOOK" || path.starts_with('/'))
}

/// The identifier a reference section is headed with (`RateLimitingMiddleware`, `update_log_tags`,
/// `client.search()`): its sentences describe it without naming it ("Uses a token bucket
/// algorithm by default"), so a quote of them opens with the name.
pub(super) fn named_heading(passage: &Passage) -> Option<&str> {
    let name = passage.heading.trim().trim_matches('`');
    let mut chars = name.chars();
    let first = chars.next()?;
    // CamelCase, not an acronym (`FAQ`, `API`).
    let camel =
        chars.any(|c| c.is_ascii_uppercase()) && name.chars().any(|c| c.is_ascii_lowercase());
    let shaped = name.contains(['_', '.', '(']) || camel;
    let word = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_.()".contains(c));
    // Three letters at least: a version (`v2.14`) is no name.
    let letters = name.chars().filter(char::is_ascii_alphabetic).count();
    (first.is_ascii_alphabetic() && letters >= 3 && shaped && word).then_some(name)
}
