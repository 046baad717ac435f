//! Escaping, base64 and the few markup helpers every part of the export writes with: the leaf the
//! renderer's modules share (it imports none of them). Everything that came from the uploaded docs goes
//! through these, so no input can open a tag or leave an attribute.

/// Appends `text` escaped for an HTML text node.
pub(crate) fn text(out: &mut String, text: &str) {
    escape_into(out, text, |b| match b {
        b'&' => Some("&amp;"),
        b'<' => Some("&lt;"),
        b'>' => Some("&gt;"),
        _ => None,
    });
}

/// Appends `text` with each byte `entity` names replaced, the runs between copied whole (the
/// escaped characters are ASCII, so a run never splits a character).
fn escape_into(out: &mut String, text: &str, entity: impl Fn(u8) -> Option<&'static str>) {
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        if let Some(replacement) = entity(b) {
            out.push_str(&text[start..i]);
            out.push_str(replacement);
            start = i + 1;
        }
    }
    out.push_str(&text[start..]);
}

/// Appends ` name="value"` with the value escaped for a double-quoted attribute.
pub(crate) fn attr(out: &mut String, name: &str, value: &str) {
    out.push(' ');
    out.push_str(name);
    out.push_str("=\"");
    escape_into(out, value, |b| match b {
        b'&' => Some("&amp;"),
        b'<' => Some("&lt;"),
        b'>' => Some("&gt;"),
        b'"' => Some("&quot;"),
        b'\'' => Some("&#39;"),
        _ => None,
    });
    out.push('"');
}

/// `<tag class="class">` (class omitted when empty).
pub(crate) fn open(out: &mut String, tag: &str, class: &str) {
    out.push('<');
    out.push_str(tag);
    if !class.is_empty() {
        attr(out, "class", class);
    }
    out.push('>');
}

/// `<tag class="class">text</tag>` with the text escaped.
pub(crate) fn element(out: &mut String, tag: &str, class: &str, content: &str) {
    open(out, tag, class);
    text(out, content);
    out.push_str("</");
    out.push_str(tag);
    out.push('>');
}

/// A CSS colour from docs.json or a component, or `None` when it holds anything but a plain colour
/// (no `url(`, no `;`): the value lands in a style attribute and must not fetch or break out.
pub(crate) fn safe_color(value: &str) -> Option<&str> {
    let v = value.trim();
    let plain = !v.is_empty()
        && v.len() <= 64
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || "#(),.% ".contains(c))
        && !v.to_ascii_lowercase().contains("url");
    plain.then_some(v)
}

/// A token safe inside a class name (`language-xx`, `method-post`): ASCII letters, digits, `-`, `_`, `+`.
pub(crate) fn class_token(value: &str) -> String {
    value
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+'))
        .take(40)
        .collect::<String>()
        .to_ascii_lowercase()
}

/// What a tag writes.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Markup {
    pub(crate) open: String,
    /// Written when the tag closes (or right after `open` for a self-closing tag).
    pub(crate) close: String,
    /// Content up to the matching close is dropped (`<script>`, `<style>`).
    pub(crate) suppress: bool,
    /// HTML void element (`<img>`, `<br>`): nothing to close, even when written without `/>`.
    pub(crate) void: bool,
}

impl Markup {
    pub(crate) fn pair(open: String, close: &str) -> Self {
        Self {
            open,
            close: close.to_owned(),
            ..Self::default()
        }
    }
}

/// Standard base64 with padding: `data:` URLs (links) and the CSP hash of the inline boot script (layout).
pub(crate) fn base64_std(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_text_and_attributes() {
        let mut out = String::new();
        text(&mut out, "a < b & <Card>");
        assert_eq!(out, "a &lt; b &amp; &lt;Card&gt;");
        let mut out = String::new();
        attr(&mut out, "title", "say \"hi\" & 'bye' <x>");
        assert_eq!(
            out,
            " title=\"say &quot;hi&quot; &amp; &#39;bye&#39; &lt;x&gt;\""
        );
    }

    #[test]
    fn colours_that_could_fetch_or_escape_are_refused() {
        assert_eq!(safe_color(" #166E3F "), Some("#166E3F"));
        assert_eq!(safe_color("rgb(1, 2, 3)"), Some("rgb(1, 2, 3)"));
        assert_eq!(safe_color("url(https://x/y.png)"), None);
        assert_eq!(safe_color("red;background:blue"), None);
        assert_eq!(safe_color(""), None);
    }

    #[test]
    fn class_tokens_keep_only_safe_characters() {
        assert_eq!(class_token("C++ \"x\""), "c++x");
        assert_eq!(class_token("Type-Script"), "type-script");
    }
}
