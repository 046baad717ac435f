//! Test oracle: does exported HTML hold anything a browser would run? Tokenises tags the way the
//! HTML tokenizer does (tag name, then attributes ending at whitespace, `/`, `>` or `=`; quoted or
//! unquoted values; one entity-decoding pass) and refuses script-capable elements, event handler
//! attributes and URLs with a scheme other than `http(s)`, `mailto` and `tel` (a `data:image/`
//! URL only as an `<img src>`); inline SVG and MathML pass only in the shapes the export's own
//! renderers write. It is stricter than a browser: anything it cannot read for certain
//! (an unknown entity, an unterminated tag) is a finding too.

use crate::export::render::svg_allow::{
    svg_value_allowed, SVG_LINK_ATTRIBUTES, SVG_ROOT_ATTRIBUTES, SVG_SHAPES, SVG_SHAPE_ATTRIBUTES,
};

/// Elements that run script or change where and how the page loads things.
const ACTIVE_ELEMENTS: &[&str] = &[
    "script", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "meta", "link",
    "svg", "math", "style", "form", "template", "noscript", "portal",
];

/// Attributes holding a URL the browser may navigate to or load.
const URL_ATTRIBUTES: &[&str] = &[
    "href",
    "src",
    "action",
    "formaction",
    "poster",
    "data",
    "xlink:href",
    "background",
    "cite",
    "srcset",
    "ping",
    "codebase",
    "manifest",
    "longdesc",
    "lowsrc",
    "dynsrc",
];

/// What an element inside or opening an inline SVG may not be; `None` when it is allowed.
fn svg_problem(tag: &Tag, in_svg: bool) -> Option<String> {
    let allowed = match (in_svg, tag.name.as_str()) {
        (false, "svg") => SVG_ROOT_ATTRIBUTES,
        (true, name) if SVG_SHAPES.contains(&name) => SVG_SHAPE_ATTRIBUTES,
        (true, "a") => SVG_LINK_ATTRIBUTES,
        (true, name) => return Some(format!("<{name}> inside <svg>")),
        (false, _) => return None,
    };
    let bad = tag
        .attributes
        .iter()
        .find(|(name, value)| !allowed.contains(&name.as_str()) || !svg_value_allowed(name, value));
    bad.map(|(name, value)| format!("<{} {name}={value:?}> in inline SVG", tag.name))
}

/// MathML as the export's math renderer writes it: a `<math>` holding only these presentation
/// elements with these attributes, values of plain characters. `style`, `href`, event handlers,
/// `<annotation-xml>`, `<maction>`, HTML inside (`<a>`, `<span>`) and a nested `<math>` are findings.
const MATH_ELEMENTS: &[&str] = &[
    "mrow",
    "mi",
    "mn",
    "mo",
    "ms",
    "mtext",
    "mspace",
    "msub",
    "msup",
    "msubsup",
    "munder",
    "mover",
    "munderover",
    "mfrac",
    "msqrt",
    "mroot",
    "mstyle",
    "merror",
    "mpadded",
    "mphantom",
    "mtable",
    "mtr",
    "mtd",
    "mmultiscripts",
    "mprescripts",
    "none",
    "menclose",
    "semantics",
];
const MATH_ATTRIBUTES: &[&str] = &[
    "display",
    "displaystyle",
    "scriptlevel",
    "mathvariant",
    "lspace",
    "rspace",
    "stretchy",
    "symmetric",
    "largeop",
    "movablelimits",
    "fence",
    "separator",
    "form",
    "minsize",
    "maxsize",
    "accent",
    "accentunder",
    "linethickness",
    "width",
    "height",
    "depth",
    "voffset",
    "columnspan",
    "rowspan",
    "columnalign",
    "notation",
    "class",
];

/// What an element inside or opening a `<math>` may not be; `None` when it is allowed.
fn math_problem(tag: &Tag, in_math: bool) -> Option<String> {
    match (in_math, tag.name.as_str()) {
        (false, "math") => {}
        (true, name) if MATH_ELEMENTS.contains(&name) => {}
        (true, name) => return Some(format!("<{name}> inside <math>")),
        (false, _) => return None,
    }
    let plain = |v: &str| {
        v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '.' | '-' | '%' | '#' | '_'))
    };
    let bad = tag
        .attributes
        .iter()
        .find(|(name, value)| !MATH_ATTRIBUTES.contains(&name.as_str()) || !plain(value));
    bad.map(|(name, value)| format!("<{} {name}={value:?}> in MathML", tag.name))
}

/// A page shell's `<head>` elements, checked by their attributes instead (`http-equiv` is refused).
const HEAD_ELEMENTS: &[&str] = &["meta", "link"];

/// `allowed_scripts`: exact `<script …>` openings the page shell may hold (the theme boot and the
/// site script), which also allows `<meta>` and `<link>`; the body of a page may hold none of
/// them. Returns the first finding.
pub(crate) fn find_active(html: &str, allowed_scripts: &[&str]) -> Option<String> {
    find(html, allowed_scripts, false)
}

/// For the pages that only lead elsewhere (the root page, redirect stubs): no script at all,
/// `<meta>` and `<link>` as in a page shell, and one `<meta http-equiv="refresh">` whose URL is
/// relative or http(s), which no other page may hold.
pub(crate) fn find_active_in_stub(html: &str) -> Option<String> {
    find(html, &[], true)
}

fn find(html: &str, allowed_scripts: &[&str], stub: bool) -> Option<String> {
    let mut refreshes = 0;
    let mut in_svg = false;
    let mut in_math = false;
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
        if rest
            .get(..14)
            .is_some_and(|d| d.eq_ignore_ascii_case("!doctype html>"))
        {
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
            if tag.name == "svg" {
                in_svg = false;
            }
            if tag.name == "math" {
                in_math = false;
            }
            continue;
        }
        let opening = &html[start..end];
        if in_math || tag.name == "math" {
            if let Some(problem) = math_problem(&tag, in_math) {
                return Some(problem);
            }
            in_math = in_math || !opening.ends_with("/>");
            continue;
        }
        if in_svg || tag.name == "svg" {
            if let Some(problem) = svg_problem(&tag, in_svg) {
                return Some(problem);
            }
            in_svg = in_svg || !opening.ends_with("/>");
            continue;
        }
        if tag.name == "script" {
            if !allowed_scripts.contains(&opening) {
                return Some(format!("script element: {opening}"));
            }
            continue;
        }
        let head =
            (stub || !allowed_scripts.is_empty()) && HEAD_ELEMENTS.contains(&tag.name.as_str());
        if ACTIVE_ELEMENTS.contains(&tag.name.as_str()) && !head {
            return Some(format!("<{}> element", tag.name));
        }
        let refresh = stub
            && tag.name == "meta"
            && tag.attributes.iter().any(|(name, _)| name == "http-equiv");
        if refresh {
            refreshes += 1;
            if let Some(problem) = refresh_problem(&tag.attributes, refreshes) {
                return Some(format!("<meta http-equiv>: {problem}"));
            }
        }
        for (name, value) in tag
            .attributes
            .iter()
            .filter(|(name, _)| !(refresh && name == "http-equiv"))
        {
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
            value = decode_entities(raw)
                .ok_or_else(|| format!("unknown entity in <{name} {attr_name}>"))?;
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
                Some(hex) if hex.starts_with(['x', 'X']) => u32::from_str_radix(&hex[1..], 16)
                    .ok()
                    .and_then(char::from_u32),
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

/// A stub's refresh: the first and only one, `http-equiv` exactly `refresh` (once), and a `content`
/// of a delay and a URL that [`url_problem`] passes.
fn refresh_problem(attributes: &[(String, String)], nth: usize) -> Option<&'static str> {
    if nth > 1 {
        return Some("more than one refresh");
    }
    let equivs: Vec<&str> = attributes
        .iter()
        .filter(|(name, _)| name == "http-equiv")
        .map(|(_, v)| v.as_str())
        .collect();
    if equivs.len() != 1 || !equivs[0].eq_ignore_ascii_case("refresh") {
        return Some("only a refresh may be an http-equiv");
    }
    let contents: Vec<&str> = attributes
        .iter()
        .filter(|(name, _)| name == "content")
        .map(|(_, v)| v.as_str())
        .collect();
    let [content] = contents[..] else {
        return Some("a refresh needs one content");
    };
    let (delay, rest) = content
        .trim_start()
        .split_once([';', ','])
        .unwrap_or((content, ""));
    let url = rest.trim_start();
    let named = url.get(..3).is_some_and(|u| u.eq_ignore_ascii_case("url"))
        && url[3..].trim_start().starts_with('=');
    if !delay.trim().bytes().all(|b| b.is_ascii_digit()) || delay.trim().is_empty() || !named {
        return Some("a refresh's content must be a delay and url=");
    }
    let url = url[3..].trim_start()[1..].trim_start();
    if url.starts_with(['\'', '"']) {
        return Some("a quoted refresh URL");
    }
    url_problem("meta", "content", url).map(|_| "a refresh URL with a scheme that can run script")
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
        if lower.contains("url(")
            || lower.contains("expression")
            || lower.contains("javascript")
            || lower.contains('\\')
        {
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
    let (scheme, _) = first.split_once(':')?;
    let scheme = scheme.to_ascii_lowercase();
    match scheme.as_str() {
        "http" | "https" | "mailto" | "tel" => None,
        "data"
            if tag == "img"
                && name == "src"
                && cleaned.to_ascii_lowercase().starts_with("data:image/") =>
        {
            None
        }
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
            "<svg><foreignObject><p>x</p></foreignObject></svg>",
            "<svg><style>p{}</style></svg>",
            "<svg onload=\"x\"></svg>",
            "<svg><path d=\"M0\" onclick=\"x\"/></svg>",
            "<svg><a href=\"javascript:x\"><path d=\"M0\"/></a></svg>",
            "<svg><a href=\"java&#x09;script:x\"><path d=\"M0\"/></a></svg>",
            "<svg><a href=\"mailto:a@b\"><path d=\"M0\"/></a></svg>",
            "<svg><a href=\"//evil.example/x\"><path d=\"M0\"/></a></svg>",
            "<svg><a href=\"https://x.dev\" target=\"_top\"><path d=\"M0\"/></a></svg>",
            "<svg><a xlink:href=\"https://x.dev\"><path d=\"M0\"/></a></svg>",
            "<svg><use href=\"#x\"/></svg>",
            "<svg style=\"x\"></svg>",
            "<svg><svg></svg></svg>",
            "<svg><path/></svg><svg><image href=\"x.png\"/></svg>",
            "<svg><path fill=\"url(javascript:x)\"/></svg>",
            "<math><mi style=\"color:red\">x</mi></math>",
            "<math href=\"javascript:x\"><mi>x</mi></math>",
            "<math><mtext><a href=\"https://x.dev\">x</a></mtext></math>",
            "<math><maction actiontype=\"toggle\"><mi>x</mi></maction></math>",
            "<math><mi onclick=\"x\">x</mi></math>",
            "<math><annotation-xml encoding=\"text/html\"><script>x</script></annotation-xml></math>",
            "<math><math></math></math>",
            "<math><mo lspace=\"url(x)\">+</mo></math>",
            "<math><mi>x</mi><svg></svg></math>",
        ] {
            assert!(find_active(bad, &[]).is_some(), "missed {bad:?}");
        }
    }

    #[test]
    fn only_a_stub_may_refresh_and_only_to_a_harmless_url() {
        use super::find_active_in_stub;
        let stub = |url: &str| {
            format!("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><link rel=\"canonical\" href=\"a.html\"><meta http-equiv=\"refresh\" content=\"0; url={url}\"></head><body><a href=\"a.html\">a</a></body></html>")
        };
        for ok in [
            "../en/home.html",
            "a.html#x",
            "https://docs.example.com/x",
            "./javascript:x.html",
        ] {
            assert_eq!(find_active_in_stub(&stub(ok)), None, "{ok}");
            assert!(
                find_active(&stub(ok), &["<script src=\"x.js\">"]).is_some(),
                "a page may not refresh: {ok}"
            );
            assert!(
                find_active(&stub(ok), &[]).is_some(),
                "a body may not refresh: {ok}"
            );
        }
        for bad in [
            "javascript:alert(1)",
            "JaVaScRiPt:x",
            "data:text/html,x",
            "'javascript:x'",
            " java\tscript:x",
            "&#106;avascript:x",
        ] {
            assert!(find_active_in_stub(&stub(bad)).is_some(), "missed {bad:?}");
        }
        for bad in [
            "<meta http-equiv=\"refresh\" content=\"0; url=a.html\"><meta http-equiv=\"refresh\" content=\"0; url=b.html\">",
            "<meta http-equiv=\"set-cookie\" content=\"a=b\">",
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src *\">",
            "<meta http-equiv=\"refresh\" http-equiv=\"refresh\" content=\"0; url=a.html\">",
            "<meta http-equiv=\"refresh\" content=\"0; url=a.html\" content=\"0; url=javascript:x\">",
            "<meta http-equiv=\"refresh\" content=\"0\">",
            "<meta http-equiv=\"refresh\" content=\"0; url=a.html\" onload=\"x\">",
            "<script>x</script>",
            "<meta http-equiv=\"refresh\" content=\"0; url=a.html\"><base href=\"javascript:x\">",
        ] {
            assert!(find_active_in_stub(bad).is_some(), "missed {bad:?}");
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
            "<svg class=\"icon\" viewBox=\"0 0 24 24\" width=\"1em\" height=\"1em\" aria-hidden=\"true\" focusable=\"false\" fill=\"none\" stroke=\"currentColor\"><path d=\"M12 15v5s3.03-.55 4-2\"/><circle cx=\"12\" cy=\"12\" r=\"3\"/></svg><p>after</p>",
            "<svg class=\"diagram-svg\" role=\"group\" aria-label=\"Flow: a (b) &amp; c\"><a href=\"https://x.dev/a?b=1\" transform=\"translate(1,2)\"><rect/></a><a href=\"../guides/intro.html#x\"><text>x</text></a></svg>",
            "<math display=\"block\"><mfrac><mi>a</mi><mi>b</mi></mfrac><mtable class=\"math-wide\"><mtr><mtd><mo lspace=\"0.2778em\">=</mo></mtd></mtr></mtable></math><p>after</p>",
        ] {
            assert_eq!(find_active(ok, &[]), None, "{ok:?}");
        }
    }
}
