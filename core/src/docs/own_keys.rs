//! docs.json keys of this project, kept under one object, [`OWN_KEY`], so they can never collide
//! with a key of the format: `"x-docs-edge": {"support": "https://help.example.com"}`.
//!
//! - `support`: where a reader who needs more than an answer goes, an `https:` URL or a `mailto:`
//!   address. The widget shows it under an uncertain or unanswered answer and after a thumbs-down,
//!   unless the page's own `data-support-url` or `data-support-email` names another. Any other
//!   scheme, or a value that is not one, is a warning with file and line, and no link.
//!
//! Any other key under [`OWN_KEY`] is a warning too, as an unknown key of the format is.

use serde_json::Value;

use super::archive::SourceTree;
use super::keys::line_of_key;
use super::site_config::CONFIG_FILE;

/// The object of docs.json holding this project's keys.
pub const OWN_KEY: &str = "x-docs-edge";
const KEYS: [&str; 1] = ["support"];
/// Characters a support link may have at most.
pub const MAX_SUPPORT_CHARS: usize = 2048;

/// The site's support link from docs.json's [`OWN_KEY`], checked; problems go to `warnings`.
pub fn support_link(tree: &SourceTree, warnings: &mut Vec<String>) -> Option<String> {
    let bytes = tree.get(CONFIG_FILE)?;
    let root: Value = serde_json::from_slice(bytes).ok()?;
    let own = root.get(OWN_KEY)?;
    let text = String::from_utf8_lossy(bytes);
    let line = |key: &str| line_of_key(&text, key).unwrap_or(1);
    let Some(own) = own.as_object() else {
        warnings.push(format!(
            "{CONFIG_FILE}:{}: `{OWN_KEY}` must be an object; ignored",
            line(OWN_KEY)
        ));
        return None;
    };
    for key in own.keys().filter(|k| !KEYS.contains(&k.as_str())) {
        warnings.push(format!(
            "{CONFIG_FILE}:{}: unknown key `{OWN_KEY}.{key}` ignored",
            line(key)
        ));
    }
    let value = own.get("support")?;
    let link = value.as_str().map(str::trim).filter(|v| is_support_link(v));
    if link.is_none() {
        warnings.push(format!("{CONFIG_FILE}:{}: `{OWN_KEY}.support` must be an https: URL or a mailto: address; no support link is shown", line("support")));
    }
    link.map(str::to_owned)
}

/// An `https://host…` URL or a `mailto:name@host.tld` address, with nothing an HTML attribute or a
/// header would have to escape.
pub fn is_support_link(value: &str) -> bool {
    let plain = value.len() <= MAX_SUPPORT_CHARS
        && value.bytes().all(|b| {
            b.is_ascii_graphic() && !matches!(b, b'"' | b'\'' | b'<' | b'>' | b'\\' | b'`')
        });
    let https = value
        .get(..8)
        .is_some_and(|s| s.eq_ignore_ascii_case("https://"))
        && value[8..]
            .split(['/', '?', '#'])
            .next()
            .is_some_and(|host| host.contains('.') && !host.contains('@'));
    let mailto = value
        .get(..7)
        .is_some_and(|s| s.eq_ignore_ascii_case("mailto:"))
        && value[7..].split_once('@').is_some_and(|(user, host)| {
            !user.is_empty() && host.contains('.') && !host.contains('@')
        });
    plain && (https || mailto)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(json: &str) -> SourceTree {
        [(CONFIG_FILE.to_owned(), json.as_bytes().to_vec())]
            .into_iter()
            .collect()
    }

    #[test]
    fn the_support_link_is_an_https_url_or_a_mailto_address() {
        let mut warnings = Vec::new();
        for good in [
            "https://help.acme.dev/contact?from=docs",
            "mailto:help@acme.dev",
            "MAILTO:Help@Acme.dev",
        ] {
            let tree = config(&format!(
                "{{\"name\": \"A\",\n  \"x-docs-edge\": {{\"support\": \"{good}\"}}}}"
            ));
            assert_eq!(support_link(&tree, &mut warnings).as_deref(), Some(good));
        }
        assert!(warnings.is_empty(), "{warnings:?}");
        for bad in [
            "http://help.acme.dev",
            "javascript:alert(1)",
            "mailto:nobody",
            "https://",
            "https://a\\\"b.dev",
            "help@acme.dev",
            "https://user@evil.dev",
        ] {
            let tree = config(&format!(
                "{{\"name\": \"A\",\n  \"x-docs-edge\": {{\n    \"support\": \"{bad}\"}}}}"
            ));
            assert_eq!(support_link(&tree, &mut warnings), None, "{bad}");
        }
        assert_eq!(warnings.len(), 7, "{warnings:?}");
        assert_eq!(warnings[0], "docs.json:3: `x-docs-edge.support` must be an https: URL or a mailto: address; no support link is shown");
    }

    #[test]
    fn other_shapes_and_keys_are_warnings_and_no_key_is_nothing() {
        let mut warnings = Vec::new();
        assert_eq!(
            support_link(&config("{\"name\": \"A\"}"), &mut warnings),
            None
        );
        assert!(warnings.is_empty());
        assert_eq!(
            support_link(
                &config("{\n\"x-docs-edge\": \"https://a.dev\"}"),
                &mut warnings
            ),
            None
        );
        assert_eq!(
            support_link(
                &config("{\n\"x-docs-edge\": {\"support\": 3,\n \"supportt\": 1}}"),
                &mut warnings
            ),
            None
        );
        assert_eq!(warnings, [
            "docs.json:2: `x-docs-edge` must be an object; ignored",
            "docs.json:3: unknown key `x-docs-edge.supportt` ignored",
            "docs.json:2: `x-docs-edge.support` must be an https: URL or a mailto: address; no support link is shown",
        ]);
    }
}
