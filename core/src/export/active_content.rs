//! Test oracle: does exported HTML hold anything a browser would run? Tokenises tags the way the
//! HTML tokenizer does (tag name, then attributes ending at whitespace, `/`, `>` or `=`; quoted or
//! unquoted values; one entity-decoding pass) and refuses script-capable elements, event handler
//! attributes and URLs with a scheme other than `http(s)`, `mailto` and `tel` (a `data:image/`
//! URL only as an `<img src>`). It is stricter than a browser: anything it cannot read for certain
//! (an unknown entity, an unterminated tag) is a finding too.

/// Elements that run script or change where and how the page loads things.
const ACTIVE_ELEMENTS: &[&str] = &[
    "script", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "meta", "link",
    "svg", "math", "style", "form", "template", "noscript", "portal",
];

/// Attributes holding a URL the browser may navigate to or load.
const URL_ATTRIBUTES: &[&str] = &[
    "href", "src", "action", "formaction", "poster", "data", "xlink:href", "background", "cite",
    "srcset", "ping", "codebase", "manifest", "longdesc", "lowsrc", "dynsrc",
];

/// A page shell's `<head>` elements, checked by their attributes instead (`http-equiv` is refused).
const HEAD_ELEMENTS: &[&str] = &["meta", "link"];

/// `allowed_scripts`: exact `<script …>` openings the page shell may hold (the theme boot and the
/// site script), which also allows `<meta>` and `<link>`; the body of a page may hold none of
/// them. Returns the first finding.
pub(crate) fn find_active(html: &str, allowed_scripts: &[&str]) -> Option<String> {
    let bytes = html.as_bytes();
    let mut i = 0;
    while let Some(offset) = html[i..].find('<') {
        let start = i + offset;
        let rest = &html[start + 1..];
        if rest.starts_with("!--") {
            match rest.find("-->") {
                Some(end) => {
                    i = start + 1 + end + 3;
                    continue;
                }
                None => return Some("unterminated comment".into()),
            }
        }
        let is_end = rest.starts_with('/');
        let name_start = start + 1 + usize::from(is_end);
        if rest.get(..14).is_some_and(|d| d.eq_ignore_ascii_case("!doctype html>")) {
            i = start + 15;
            continue;
        }
        if !bytes.get(name_start).is_some_and(u8::is_ascii_alphabetic) {
            if rest.starts_with('!') || rest.starts_with('?') {
                return Some(format!("markup declaration at {start}"));
            }
            i = start + 1;
            continue;
        }
        let (tag, end) = match read_tag(html, name_start) {
            Ok(tag) => tag,
            Err(problem) => return Some(problem),
        };
        i = end;
        if is_end {
            continue;
        }
        let opening = &html[start..end];
        if tag.name == "script" {
            if !allowed_scripts.contains(&opening) {
                return Some(format!("script element: {opening}"));
            }
            continue;
        }
        let head = !allowed_scripts.is_empty() && HEAD_ELEMENTS.contains(&tag.name.as_str());
        if ACTIVE_ELEMENTS.contains(&tag.name.as_str()) && !head {
            return Some(format!("<{}> element", tag.name));
        }
        for (name, value) in &tag.attributes {
            if let Some(problem) = attribute_problem(&tag.name, name, value) {
                return Some(format!("<{} {name}={value:?}>: {problem}", tag.name));
            }
        }
    }
    None
}

struct Tag {
    name: String,
    attributes: Vec<(String, String)>,
}

/// Reads a start or end tag from its name; returns it and the index after its `>`.
fn read_tag(html: &str, name_start: usize) -> Result<(Tag, usize), String> {
    let b = html.as_bytes();
    let mut i = name_start;
    while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'/' && b[i] != b'>' {
        i += 1;
    }
    let name = html[name_start..i].to_ascii_lowercase();
    let mut attributes = Vec::new();
    loop {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'/') {
            i += 1;
        }
        match b.get(i) {
            None => return Err(format!("unterminated tag <{name}")),
            Some(b'>') => return Ok((Tag { name, attributes }, i + 1)),
            Some(_) => {}
        }
        let attr_start = i;
        // The first character may be `=`; the name runs to whitespace, `/`, `>` or `=`.
        i += 1;
        while i < b.len() && !b[i].is_ascii_whitespace() && !matches!(b[i], b'/' | b'>' | b'=') {
            i += 1;
        }
        let attr_name = html[attr_start..i].to_ascii_lowercase();
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value = String::new();
        if b.get(i) == Some(&b'=') {
            i += 1;
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            let raw = match b.get(i) {
                Some(&q @ (b'"' | b'\'')) => {
                    let close = html[i + 1..]
                        .find(q as char)
                        .ok_or_else(|| format!("unterminated attribute value in <{name}"))?;
                    let raw = &html[i + 1..i + 1 + close];
                    i += close + 2;
                    raw
                }
                _ => {
                    let from = i;
                    while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' {
                        i += 1;
                    }
                    &html[from..i]
                }
            };
            value = decode_entities(raw).ok_or_else(|| format!("unknown entity in <{name} {attr_name}>"))?;
        }
        attributes.push((attr_name, value));
    }
}

/// One pass of character references, as in an attribute value; `None` for a named reference this
/// oracle does not know (the renderer writes only these five and numeric ones).
fn decode_entities(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp + 1..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        if name.is_empty() {
            out.push('&');
            continue;
        }
        let decoded = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => match name.strip_prefix('#') {
                Some(hex) if hex.starts_with(['x', 'X']) => u32::from_str_radix(&hex[1..], 16).ok().and_then(char::from_u32),
                Some(dec) => dec.parse().ok().and_then(char::from_u32),
                None => return None,
            },
        };
        out.push(decoded?);
        rest = &rest[end..];
        rest = rest.strip_prefix(';').unwrap_or(rest);
    }
    out.push_str(rest);
    Some(out)
}

fn attribute_problem(tag: &str, name: &str, value: &str) -> Option<&'static str> {
    if name.starts_with("on") {
        return Some("event handler attribute");
    }
    if matches!(name, "srcdoc" | "formaction" | "action" | "http-equiv") {
        return Some("attribute that loads or runs content");
    }
    if name == "style" {
        let lower = value.to_ascii_lowercase();
        if lower.contains("url(") || lower.contains("expression") || lower.contains("javascript") || lower.contains('\\') {
            return Some("style attribute that loads or runs content");
        }
    }
    if URL_ATTRIBUTES.contains(&name) {
        return url_problem(tag, name, value);
    }
    None
}

/// The scheme a browser reads in `url`: it strips leading and trailing C0 controls and spaces and
/// every tab and newline before parsing.
fn url_problem(tag: &str, name: &str, value: &str) -> Option<&'static str> {
    let cleaned: String = value
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let first = cleaned.split(['/', '?', '#']).next().unwrap_or("");
    let Some((scheme, _)) = first.split_once(':') else {
        return None;
    };
    let scheme = scheme.to_ascii_lowercase();
    match scheme.as_str() {
        "http" | "https" | "mailto" | "tel" => None,
        "data" if tag == "img" && name == "src" && cleaned.to_ascii_lowercase().starts_with("data:image/") => None,
        _ => Some("URL with a scheme that can run script"),
    }
}

#[cfg(test)]
mod tests {
    use super::find_active;

    #[test]
    fn finds_what_a_browser_would_run() {
        for bad in [
            "<script>x</script>",
            "<SCRIPT src=x></SCRIPT>",
            "<a href=\"javascript:alert(1)\">x</a>",
            "<a href=\"JaVa&#x09;Script:alert(1)\">x</a>",
            "<a href=\"  javascript:x\">x</a>",
            "<a href='java\nscript:x'>x</a>",
            "<a href=javascript:x>x</a>",
            "<a href=\"javascript:alert(1).html\">x</a>",
            "<a href=\"&#106;avascript:x\">x</a>",
            "<a href=\"javascript&colon;x\">x</a>",
            "<img src=x onerror=alert(1)>",
            "<img/src=\"x\"/onerror=alert(1)>",
            "<div ONCLICK=\"x\">",
            "<a href=\"data:text/html,x\">x</a>",
            "<a href=\"vbscript:x\">x</a>",
            "<iframe src=\"https://x\">",
            "<svg><script>x</script></svg>",
            "<video poster=\"javascript:x\">",
            "<div style=\"background:url(javascript:x)\">",
            "<a href=\"x",
        ] {
            assert!(find_active(bad, &[]).is_some(), "missed {bad:?}");
        }
    }

    #[test]
    fn passes_plain_markup() {
        for ok in [
            "<p>a &lt;script&gt; b</p>",
            "<a href=\"./javascript:alert(1).html\">x</a>",
            "<a href=\"a/b.html#x\">x</a>",
            "<a href=\"https://x.dev\">x</a>",
            "<a href=\"mailto:a@b\">x</a>",
            "<img src=\"data:image/png;base64,AA==\" alt=\"x\">",
            "<!-- <script> -->",
            "<code>onclick=x</code>",
            "<a href=\"//cdn.example/x\">x</a>",
        ] {
            assert_eq!(find_active(ok, &[]), None, "{ok:?}");
        }
    }
}
