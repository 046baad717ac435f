//! Mermaid diagrams (```` ```mermaid ```` blocks) -> inline SVG at build time with `merman`, a Rust
//! implementation of Mermaid: no script in the page, nothing fetched. Labels are asked for as SVG
//! `<text>` (`htmlLabels: false`), never `<foreignObject>` HTML. merman's SVG is then written anew
//! through an allow-list of shapes, text and markers, because it also holds what the export never
//! ships: a `<style>` element (the export's CSP is `style-src 'self'`), `style` attributes (an
//! author's `classDef`/`style` lines among them), `click` callbacks and its theme's fixed colours.
//! A `click` link stays a link when the page's linker makes it an http(s) or relative one (a page
//! of the site becomes a link to its exported file); any other is dropped and its node stays.
//! Colours and strokes come instead from `site.css` (`.diagram …` rules over the site's colour
//! variables), so a diagram follows the light and dark themes. `active_content` checks the result
//! against its own copy of the rules.
//!
//! Builds without the `diagrams` feature (the request-serving script, the SDK) leave the blocks as
//! code. A diagram too large or that merman cannot render stays code too, with a warning.

use crate::export::html;
use crate::export::render::math::attributes;
use crate::export::render::svg_allow::svg_link_allowed;

/// Past this a block is not read as a diagram: real diagrams are a few KiB, and merman's work grows
/// with the source (its own resource limits bound the rest).
pub(crate) const MAX_SOURCE_BYTES: usize = 32 * 1024;
/// A rendered diagram past this is not put on the page.
const MAX_SVG_BYTES: usize = 1024 * 1024;

/// Elements kept as they are (with allowed attributes). Unknown containers, and an `a` (a `click`
/// link) whose link does not pass, become a plain `<g>` with the allowed attributes: their shapes
/// and text stay where they were drawn (merman places a clickable node by the `transform` of its `<a>`).
const ELEMENTS: &[&str] = &[
    "g", "defs", "marker", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
    "text", "tspan", "title", "desc",
];
/// Elements dropped with everything inside them.
const DROPPED: &[&str] = &[
    "style",
    "script",
    "foreignObject",
    "foreignobject",
    "filter",
    "image",
    "symbol",
    "use",
    "iframe",
];

/// Attributes kept when their value is plain (see [`plain_value`]); `transform`, the marker
/// references and `fill`/`stroke` are checked by their own rules.
const ATTRIBUTES: &[&str] = &[
    "id",
    "class",
    "d",
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "width",
    "height",
    "points",
    "dx",
    "dy",
    "viewBox",
    "refX",
    "refY",
    "markerWidth",
    "markerHeight",
    "markerUnits",
    "orient",
    "text-anchor",
    "dominant-baseline",
    "alignment-baseline",
    "font-style",
    "font-weight",
    "stroke-width",
];

/// Why a block stays code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NotRendered(pub(crate) String);

/// Writes `source` as `<figure class="diagram">` holding an `<svg>`; `number` makes its ids unique
/// on the page, `href` makes a `click` link what the page links to (see `Linker::href`). On `Err`
/// nothing was written and the caller shows the block as code.
pub(crate) fn write(
    out: &mut String,
    source: &str,
    number: usize,
    href: &dyn Fn(&str) -> String,
) -> Result<(), NotRendered> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(NotRendered(format!(
            "larger than {} KiB",
            MAX_SOURCE_BYTES / 1024
        )));
    }
    let svg = render(source, &format!("mermaid-{number}"))?;
    if svg.len() > MAX_SVG_BYTES {
        return Err(NotRendered("its drawing is larger than 1 MiB".into()));
    }
    let start = out.len();
    out.push_str("<figure class=\"diagram\">");
    let name = accessible_name(source, &svg);
    if !allow_listed(out, &svg, &name, href) {
        out.truncate(start);
        return Err(NotRendered("the renderer wrote no drawing".into()));
    }
    out.push_str("</figure>");
    Ok(())
}

#[cfg(feature = "diagrams")]
fn render(source: &str, id: &str) -> Result<String, NotRendered> {
    use merman::svg::SvgRenderOptions;
    use merman::{
        Engine, MermaidConfig, OperationControl, RenderOutput, RenderRequest, Renderer, SvgRequest,
    };

    let config = serde_json::json!({"htmlLabels": false, "flowchart": {"htmlLabels": false}, "securityLevel": "strict"});
    let renderer = Renderer::new()
        .with_engine(Engine::new().with_site_config(MermaidConfig::from_value(config)));
    let options = SvgRenderOptions {
        diagram_id: Some(id.to_owned()),
        ..Default::default()
    };
    let request = SvgRequest {
        options,
        ..Default::default()
    };
    let not_drawn = || {
        let kind = kind(source);
        (!DRAWN.iter().any(|family| family.contains(&kind.as_str()))).then(|| {
            let drawn: Vec<&str> = DRAWN.iter().map(|family| family[0]).collect();
            NotRendered(format!(
                "this build draws no `{kind}` diagrams (it draws {})",
                drawn.join(", ")
            ))
        })
    };
    let source = ascii_spaces(source);
    match renderer.render(RenderRequest::svg(
        &source,
        OperationControl::new(),
        request,
    )) {
        Ok(RenderOutput::Svg(Some(svg))) => Ok(svg.svg().to_owned()),
        Ok(_) => Err(not_drawn().unwrap_or_else(|| NotRendered("not a Mermaid diagram".into()))),
        Err(e) => Err(not_drawn().unwrap_or_else(|| NotRendered(first_line(&e.to_string())))),
    }
}

/// `source` with every non-ASCII space (U+2000, NBSP) written as a plain space: merman's ER lexer
/// steps one byte past a space it does not skip and panics inside the character, and a panic in
/// the Worker ends the whole build.
#[cfg(feature = "diagrams")]
fn ascii_spaces(source: &str) -> std::borrow::Cow<'_, str> {
    let unicode_space = |c: char| c.is_whitespace() && !c.is_ascii();
    if source.contains(unicode_space) {
        source.replace(unicode_space, " ").into()
    } else {
        source.into()
    }
}

/// The diagram families compiled in (merman's `diagram-*` features in core/Cargo.toml), each as the
/// keywords that open it. Chosen from the diagrams real docs repositories hold (flowcharts, sequence
/// diagrams and gitGraphs) and the families Mermaid's own docs and Mintlify's show first; each
/// family costs builder size (docs/export/fidelity.mdx has the figures).
#[cfg(feature = "diagrams")]
const DRAWN: &[&[&str]] = &[
    &["flowchart", "graph", "flowchart-elk"],
    &["sequenceDiagram"],
    &["classDiagram", "classDiagram-v2"],
    &["stateDiagram", "stateDiagram-v2"],
    &["erDiagram"],
    &["gantt"],
    &["pie"],
    &["gitGraph"],
    &["journey"],
    &["mindmap"],
    &["timeline"],
];

/// The keyword a diagram opens with (`flowchart`, `quadrantChart`), after its front matter,
/// `%%` comments and directives and blank lines.
fn kind(source: &str) -> String {
    let mut lines = source.lines().map(str::trim).peekable();
    if lines.peek() == Some(&"---") {
        lines.next();
        lines.by_ref().find(|line| *line == "---");
    }
    let line = lines
        .find(|line| !line.is_empty() && !line.starts_with("%%"))
        .unwrap_or("");
    let word = line
        .split(|c: char| c.is_whitespace() || c == ':' || c == ';')
        .next()
        .unwrap_or("");
    word.chars().take(40).collect()
}

/// What a reader's assistive technology calls the diagram: its `accTitle` (merman writes it as the
/// chart's `<title>`), else its front matter's `title`, else what kind of diagram it is.
fn accessible_name(source: &str, svg: &str) -> String {
    let chart_title = svg.find("<title id=\"chart-title").and_then(|start| {
        let rest = &svg[start..];
        let open_end = rest.find('>')?;
        let close = rest.find("</title>")?;
        Some(decode(rest.get(open_end + 1..close)?))
    });
    let front_matter_title = || {
        let mut lines = source.lines().map(str::trim);
        if lines.next() != Some("---") {
            return None;
        }
        let title = lines
            .take_while(|line| *line != "---")
            .find_map(|line| line.strip_prefix("title:"))?;
        Some(title.trim().trim_matches(['"', '\'']).to_owned())
    };
    let name = chart_title
        .filter(|t| !t.trim().is_empty())
        .or_else(|| front_matter_title().filter(|t| !t.is_empty()));
    let name = name.unwrap_or_else(|| family_name(&kind(source)).to_owned());
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(200)
        .collect()
}

/// A diagram family in words, by the keyword that opens it.
fn family_name(kind: &str) -> &'static str {
    match kind {
        "flowchart" | "graph" | "flowchart-elk" => "Flowchart",
        "sequenceDiagram" => "Sequence diagram",
        "classDiagram" | "classDiagram-v2" => "Class diagram",
        "stateDiagram" | "stateDiagram-v2" => "State diagram",
        "erDiagram" => "Entity relationship diagram",
        "gantt" => "Gantt chart",
        "pie" => "Pie chart",
        "gitGraph" => "Git graph",
        "journey" => "User journey diagram",
        "mindmap" => "Mind map",
        "timeline" => "Timeline",
        _ => "Diagram",
    }
}

#[cfg(not(feature = "diagrams"))]
fn render(_source: &str, _id: &str) -> Result<String, NotRendered> {
    Err(NotRendered("this build renders no diagrams".into()))
}

/// Whether this build renders diagrams (without it, blocks stay code and nobody is warned).
pub(crate) const ENABLED: bool = cfg!(feature = "diagrams");

#[cfg(feature = "diagrams")]
fn first_line(reason: &str) -> String {
    let line = reason.lines().next().unwrap_or("").trim();
    line.chars().take(200).collect()
}

/// merman's SVG written anew: an `<svg>` with its `viewBox` and size named `name`, then allowed
/// elements with allowed attributes, text decoded and escaped again; everything else dropped.
/// Assumes the library's well-formed output and stays balanced when it is not. False when there was
/// no root `<svg>`.
fn allow_listed(out: &mut String, svg: &str, name: &str, href: &dyn Fn(&str) -> String) -> bool {
    let label = name;
    let mut rest = svg;
    let mut root = false;
    // Open elements, innermost last, each with the name it was written as (none: not written).
    let mut open: Vec<(String, Option<&'static str>)> = Vec::new();
    // Depth in `open` of a dropped element whose content is skipped.
    let mut dropping: Option<usize> = None;
    while let Some(lt) = rest.find('<') {
        if dropping.is_none() && root {
            text(out, &rest[..lt]);
        }
        rest = &rest[lt..];
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
            continue;
        }
        if let Some(after) = rest.strip_prefix("<![CDATA[") {
            rest = after.find("]]>").map_or("", |end| &after[end + 3..]);
            continue;
        }
        let Some(gt) = rest.find('>') else { break };
        let inside = &rest[1..gt];
        rest = &rest[gt + 1..];
        if inside.starts_with('?') || inside.starts_with('!') {
            continue;
        }
        if let Some(name) = inside.strip_prefix('/') {
            let name = name.trim();
            if let Some(depth) = open.iter().rposition(|(n, _)| n == name) {
                while open.len() > depth {
                    if let Some((_, Some(written))) = open.pop() {
                        close(out, written);
                    }
                }
                if dropping.is_some_and(|d| d >= open.len()) {
                    dropping = None;
                }
            }
            if root && open.is_empty() {
                return true;
            }
            continue;
        }
        let self_closing = inside.ends_with('/');
        let inside = inside.trim_end_matches('/');
        let name_end = inside
            .find(|c: char| c.is_ascii_whitespace())
            .unwrap_or(inside.len());
        let name = &inside[..name_end];
        let attrs = &inside[name_end..];
        if !root {
            if name != "svg" {
                continue;
            }
            root = true;
            let linked = svg.match_indices("<a ").any(|(at, _)| {
                let tag = &svg[at + 3..];
                link(&tag[..tag.find('>').unwrap_or(tag.len())], href).is_some()
            });
            open_root(out, attrs, label, linked);
            open.push(("svg".into(), Some("svg")));
            continue;
        }
        if dropping.is_some() {
            if !self_closing {
                open.push((name.to_owned(), None));
            }
            continue;
        }
        if DROPPED.contains(&name) || name == "svg" {
            if !self_closing {
                dropping = Some(open.len());
                open.push((name.to_owned(), None));
            }
            continue;
        }
        let link = (name == "a").then(|| link(attrs, href)).flatten();
        let written = if link.is_some() {
            "a"
        } else {
            written_name(name)
        };
        out.push('<');
        out.push_str(written);
        if let Some(link) = &link {
            html::attr(out, "href", link);
        }
        write_attributes(out, attrs);
        out.push('>');
        if self_closing {
            close(out, written);
        } else {
            open.push((name.to_owned(), Some(written)));
        }
    }
    while let Some((_, written)) = open.pop() {
        if let Some(written) = written {
            close(out, written);
        }
    }
    root
}

/// The link of merman's `<a>` (`xlink:href` or `href`) as the page links to it, when it is one an
/// inline SVG may hold (http(s) or relative); `None` for a callback, `javascript:`, `mailto:`, ….
fn link(attrs: &str, href: &dyn Fn(&str) -> String) -> Option<String> {
    let raw = attributes(attrs)
        .find(|(k, _)| matches!(*k, "xlink:href" | "href"))
        .map(|(_, v)| decode(v))?;
    let link = href(&raw);
    (link != "#" && svg_link_allowed(&link)).then_some(link)
}

/// The root `<svg>`: merman's `viewBox`, its size as `width`/`height` (merman sizes it by an inline
/// `max-width`, which the export cannot carry; `site.css` lets it shrink to the column) and its
/// name. An image to assistive technology, or a group when it holds links (an image's content is
/// not read, and its links could not be reached).
fn open_root(out: &mut String, attrs: &str, label: &str, linked: bool) {
    let view_box = attributes(attrs)
        .find(|(k, _)| *k == "viewBox")
        .map(|(_, v)| v)
        .filter(|v| numbers(v));
    out.push_str("<svg class=\"diagram-svg\"");
    html::attr(out, "role", if linked { "group" } else { "img" });
    if let Some(view_box) = view_box {
        html::attr(out, "viewBox", view_box);
        let mut parts = view_box.split_ascii_whitespace().skip(2);
        if let (Some(w), Some(h)) = (parts.next(), parts.next()) {
            html::attr(out, "width", w);
            html::attr(out, "height", h);
        }
    }
    html::attr(out, "aria-label", label);
    out.push('>');
}

fn write_attributes(out: &mut String, attrs: &str) {
    for (key, value) in attributes(attrs) {
        let keep = match key {
            "transform" => transform_value(value),
            "marker-start" | "marker-end" | "marker-mid" => fragment_url(value),
            // Theme colours are left to site.css; "none" still says a shape is not filled.
            "fill" | "stroke" => value == "none",
            _ => ATTRIBUTES.contains(&key) && plain_value(value),
        };
        if keep {
            html::attr(out, key, value);
        }
    }
}

fn close(out: &mut String, written: &str) {
    out.push_str("</");
    out.push_str(written);
    out.push('>');
}

/// The element an allowed-list element is written as: itself, the root `svg`, else a group.
fn written_name(name: &str) -> &'static str {
    match name {
        "svg" => "svg",
        _ => ELEMENTS
            .iter()
            .find(|e| **e == name)
            .copied()
            .unwrap_or("g"),
    }
}

/// Text between tags, its entities decoded and escaped again (an entity not known is kept as text).
fn text(out: &mut String, raw: &str) {
    html::text(out, &decode(raw));
}

/// Text or an attribute value with its entities decoded (an entity not known is kept as text).
fn decode(raw: &str) -> String {
    let mut decoded = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        decoded.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let entity = rest
            .find(';')
            .filter(|&end| end <= 10)
            .map(|end| (&rest[1..end], end));
        match entity.and_then(|(name, end)| decode_entity(name).map(|c| (c, end))) {
            Some((c, end)) => {
                decoded.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                decoded.push('&');
                rest = &rest[1..];
            }
        }
    }
    decoded.push_str(rest);
    decoded
}

fn decode_entity(name: &str) -> Option<char> {
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "nbsp" => Some('\u{a0}'),
        _ => {
            let code = match name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => name.strip_prefix('#')?.parse().ok()?,
            };
            char::from_u32(code).filter(|c| !c.is_control() || c.is_whitespace())
        }
    }
}

/// Letters, digits, spaces and `.`, `-`, `%`, `#`, `_`, `,`: nothing a URL, a style or markup needs.
pub(crate) fn plain_value(value: &str) -> bool {
    value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '.' | '-' | '%' | '#' | '_' | ','))
}

fn numbers(value: &str) -> bool {
    !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ' ' | '.' | '-' | ',' | 'e' | 'E' | '+'))
}

/// `translate(…)`, `scale(…)`, `rotate(…)`, `matrix(…)` of numbers, one or more.
pub(crate) fn transform_value(value: &str) -> bool {
    let mut rest = value.trim();
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let Some(open) = rest.find('(') else {
            return false;
        };
        let Some(close) = rest.find(')') else {
            return false;
        };
        if close < open
            || !matches!(
                rest[..open].trim(),
                "translate" | "scale" | "rotate" | "matrix"
            )
            || !(rest[open + 1..close].is_empty() || numbers(&rest[open + 1..close]))
        {
            return false;
        }
        rest = rest[close + 1..].trim_start_matches([' ', ',']);
    }
    true
}

/// `url(#id)` of a plain id: a reference inside the page, never a fetch.
pub(crate) fn fragment_url(value: &str) -> bool {
    value
        .strip_prefix("url(#")
        .and_then(|v| v.strip_suffix(')'))
        .is_some_and(|id| {
            !id.is_empty()
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        })
}

#[cfg(all(test, feature = "diagrams"))]
mod tests {
    use super::*;
    use crate::export::render::active_content::find_active;

    fn diagram(source: &str) -> Result<String, NotRendered> {
        let mut out = String::new();
        // As a page's linker does: http(s) kept, a site path made relative, other schemes "#".
        let href = |url: &str| match url {
            u if u.starts_with("https://") || u.starts_with("http://") => u.to_owned(),
            u if u.starts_with('/') => format!("..{u}.html"),
            _ => "#".to_owned(),
        };
        write(&mut out, source, 0, &href).map(|()| out)
    }

    #[test]
    fn unicode_spaces_in_an_er_attribute_block_do_not_panic_the_renderer() {
        // Found by fuzz_mermaid_diagrams: merman's ER lexer sliced inside U+2000.
        for source in [
            "erDiagram\n{\u{2000}\n",
            "erDiagram\nA {\u{a0}string name\u{2003}}\n",
        ] {
            let _ = diagram(source);
        }
        let drawn = diagram("erDiagram\nCUSTOMER {\u{2000}string\u{a0}name\n}\n").unwrap();
        assert!(drawn.contains("name"), "{drawn}");
    }

    #[test]
    fn a_flowchart_is_an_svg_with_text_labels() {
        let out =
            diagram("flowchart TD\n  S[POST jobs] --> O[ExportOrg]\n  O -->|start| J{ExportJob}\n")
                .unwrap();
        assert!(
            out.starts_with(
                "<figure class=\"diagram\"><svg class=\"diagram-svg\" role=\"img\" viewBox=\""
            ),
            "{out}"
        );
        assert!(
            out.contains(">POST</tspan>") && out.contains("ExportOrg"),
            "{out}"
        );
        assert!(out.contains("marker-end=\"url(#mermaid-0"), "{out}");
        for banned in [
            "<style",
            " style=",
            "foreignObject",
            "<use",
            "#28253D",
            "<script",
        ] {
            assert!(!out.contains(banned), "{banned}: {out}");
        }
        assert_eq!(find_active(&out, &[]), None, "{out}");
    }

    #[test]
    fn a_sequence_diagram_renders_and_passes_the_checker() {
        let source = "sequenceDiagram\n  participant W as Widget\n  participant E as Edge\n  W->>E: POST /ask\n  E-->>W: answer <b>stream</b>\n  Note over W,E: SSE\n";
        let out = diagram(source).unwrap();
        assert!(out.contains("Widget") && out.contains("POST /ask"), "{out}");
        assert_eq!(find_active(&out, &[]), None, "{out}");
    }

    #[test]
    fn hostile_labels_links_and_styles_never_reach_the_page() {
        let sources = [
            "flowchart LR\n  A[\"<script>alert(1)</script>\"] --> B[\"<img src=x onerror=alert(1)>\"]\n",
            "flowchart LR\n  A --> B\n  click A \"javascript:alert(1)\" \"tip\"\n  click B href \"https://example.com\"\n",
            "flowchart LR\n  A --> B\n  style A fill:#f00,stroke:url(https://evil.example/x)\n  classDef c fill:url(javascript:x)\n  class B c\n",
            "%%{init: {\"securityLevel\": \"loose\", \"htmlLabels\": true, \"themeCSS\": \"svg{background:url(https://evil.example)}\"}}%%\nflowchart LR\n  A[\"<b onclick=x>b</b>\"] --> B\n",
            "---\nconfig:\n  htmlLabels: true\n---\nflowchart LR\n  A[\"<a href='javascript:x'>x</a>\"] --> B\n",
            "sequenceDiagram\n  A->>B: <script>x</script>\n  link A: Evil @ javascript:alert(1)\n",
            "classDiagram\n  class A\n  click A href \"javascript:alert(1)\"\n",
        ];
        for source in sources {
            let Ok(out) = diagram(source) else { continue };
            assert_eq!(find_active(&out, &[]), None, "{source}\n{out}");
            for banned in [
                "<script",
                "javascript:",
                "evil.example",
                "onclick",
                "onerror",
                "foreignObject",
                " style=",
                "xlink",
                "target=",
            ] {
                assert!(!out.contains(banned), "{banned} from {source}: {out}");
            }
            let links: Vec<&str> = out
                .match_indices("<a ")
                .map(|(at, _)| &out[at..at + out[at..].find('>').unwrap()])
                .collect();
            assert!(
                links
                    .iter()
                    .all(|a| a.starts_with("<a href=\"https://example.com")),
                "{links:?} from {source}"
            );
        }
    }

    #[test]
    fn a_clickable_node_is_a_link_where_it_was_drawn() {
        let plain = diagram("flowchart LR\n  A --> B --> C\n").unwrap();
        let clicked = diagram("flowchart LR\n  A --> B --> C\n  click A href \"https://example.com/a?x=1&y=2\" \"Tip\"\n  click B \"/guides/intro\"\n  click C call alert(1)\n").unwrap();
        assert!(
            clicked
                .contains("<a href=\"https://example.com/a?x=1&amp;y=2\" transform=\"translate("),
            "{clicked}"
        );
        assert!(
            clicked.contains("<a href=\"../guides/intro.html\" transform=\"translate("),
            "a page of the site, through the linker: {clicked}"
        );
        assert_eq!(
            clicked.matches("<a ").count(),
            2,
            "a callback is no link: {clicked}"
        );
        assert!(
            clicked.contains("role=\"group\"") && plain.contains("role=\"img\""),
            "links inside are reachable: {clicked}"
        );
        let moves = |svg: &str| svg.matches("transform=\"translate(").count();
        assert_eq!(
            moves(&clicked),
            moves(&plain),
            "the nodes are placed as before: {clicked}"
        );
        assert_eq!(find_active(&clicked, &[]), None, "{clicked}");
        let mailto =
            diagram("flowchart LR\n  A --> B\n  click A href \"mailto:a@b.dev\"\n").unwrap();
        assert!(
            !mailto.contains("<a ") && mailto.contains("role=\"img\""),
            "{mailto}"
        );
    }

    #[test]
    fn a_diagram_is_named_by_its_title_or_its_kind() {
        let name = |out: &str| {
            let at = out.find("aria-label=\"").unwrap() + 12;
            out[at..at + out[at..].find('"').unwrap()].to_owned()
        };
        assert_eq!(
            name(&diagram("flowchart TD\n  A --> B\n").unwrap()),
            "Flowchart"
        );
        assert_eq!(
            name(&diagram("sequenceDiagram\n  A->>B: hi\n").unwrap()),
            "Sequence diagram"
        );
        let titled =
            diagram("---\ntitle: \"Publish: the pipeline\"\n---\nflowchart TD\n  A --> B\n")
                .unwrap();
        assert_eq!(name(&titled), "Publish: the pipeline");
        let acc = diagram("flowchart TD\n  accTitle: Jobs: the queue (v2)\n  accDescr: How a job runs\n  A --> B\n").unwrap();
        assert_eq!(name(&acc), "Jobs: the queue (v2)");
        assert!(
            !acc.contains("flowchart-v2 diagram") && !acc.contains("aria-roledescription"),
            "{acc}"
        );
        assert_eq!(find_active(&acc, &[]), None, "{acc}");
        assert_eq!(find_active(&titled, &[]), None, "{titled}");
    }

    #[test]
    fn too_large_or_broken_sources_stay_code() {
        let huge = format!(
            "flowchart TD\n{}",
            "  A --> B\n".repeat(MAX_SOURCE_BYTES / 8)
        );
        assert!(diagram(&huge).unwrap_err().0.contains("larger than"));
        assert!(diagram("this is not a diagram").is_err());
        assert!(
            diagram("flowchart TD\n  A --> \n  ((((").is_err()
                || diagram("flowchart TD\n  A --> \n  ((((").is_ok()
        );
    }

    #[test]
    fn a_family_not_compiled_in_is_named() {
        let reason = diagram("---\ntitle: Q\n---\n%% a comment\nquadrantChart\n  title Reach\n  Campaign A: [0.3, 0.6]\n").unwrap_err().0;
        assert!(reason.starts_with("this build draws no `quadrantChart` diagrams (it draws flowchart, sequenceDiagram,"), "{reason}");
        let reason = diagram("// Your mermaid diagram code here\n")
            .unwrap_err()
            .0;
        assert!(reason.contains("no `//` diagrams"), "{reason}");
        assert_eq!(
            kind("%%{init: {'flowchart': {'defaultRenderer': 'elk'}}}%%\nflowchart LR\n  A --> B"),
            "flowchart"
        );
        assert!(diagram(
            "gitGraph\n  commit\n  branch dev\n  commit\n  checkout main\n  merge dev\n"
        )
        .is_ok());
    }

    #[test]
    fn values_are_checked_by_their_own_rules() {
        assert!(transform_value("translate(84,30.5)"));
        assert!(transform_value("translate(-60, -10.5) scale(1)"));
        assert!(!transform_value("translate(url(x))"));
        assert!(!transform_value("expression(alert(1))"));
        assert!(fragment_url("url(#mermaid-0_flowchart-v2-pointEnd)"));
        assert!(!fragment_url("url(https://x/y#a)"));
        let mut out = String::new();
        text(&mut out, "a &lt;b&gt; &amp; &#60;script&#62; &bogus; &");
        assert_eq!(out, "a &lt;b&gt; &amp; &lt;script&gt; &amp;bogus; &amp;");
    }
}
