//! The SVG the bundle may hold, one list for everything that writes or checks it: the export's
//! own inline SVG (icons, Mermaid diagrams), SVG files of the upload sanitised into the bundle
//! (`svg_file`), and the active-content checker the tests hold both to.
//!
//! An `<svg>` of the root attributes holding only shapes, paint servers (gradients, clip paths,
//! masks), markers and text of the shape attributes; inline SVG (never a file) may also hold links,
//! `<a href>` to an http(s) URL or a relative one (a diagram's clickable node). Anything else
//! (`<script>`, `<foreignObject>`, `<style>`, other links, `<use href>`, `<image>`, event handlers,
//! `style`, a nested `<svg>`) is refused. Names are lowercase (HTML reads them so); an SVG file keeps
//! its own case.

pub(crate) const SVG_NAMESPACE: &str = "http://www.w3.org/2000/svg";

pub(crate) const SVG_ROOT_ATTRIBUTES: &[&str] = &[
    "class",
    "viewbox",
    "width",
    "height",
    "aria-hidden",
    "focusable",
    "role",
    "aria-label",
    "fill",
    "stroke",
    "stroke-width",
    "stroke-linecap",
    "stroke-linejoin",
    "xmlns",
    "preserveaspectratio",
];
pub(crate) const SVG_SHAPES: &[&str] = &[
    "path",
    "circle",
    "rect",
    "line",
    "ellipse",
    "polyline",
    "polygon",
    "g",
    "defs",
    "marker",
    "text",
    "tspan",
    "title",
    "desc",
    "lineargradient",
    "radialgradient",
    "stop",
    "clippath",
    "mask",
];
pub(crate) const SVG_SHAPE_ATTRIBUTES: &[&str] = &[
    "d",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "width",
    "height",
    "points",
    "fill-rule",
    "clip-rule",
    "opacity",
    "fill",
    "stroke",
    "stroke-width",
    "id",
    "class",
    "dx",
    "dy",
    "viewbox",
    "refx",
    "refy",
    "markerwidth",
    "markerheight",
    "markerunits",
    "orient",
    "text-anchor",
    "dominant-baseline",
    "alignment-baseline",
    "font-style",
    "font-weight",
    "transform",
    "marker-start",
    "marker-mid",
    "marker-end",
    "offset",
    "stop-color",
    "stop-opacity",
    "gradientunits",
    "gradienttransform",
    "fx",
    "fy",
    "fr",
    "spreadmethod",
    "clip-path",
    "mask",
    "clippathunits",
    "maskunits",
    "maskcontentunits",
    "fill-opacity",
    "stroke-opacity",
    "stroke-dasharray",
    "stroke-dashoffset",
    "stroke-miterlimit",
    "stroke-linecap",
    "stroke-linejoin",
    "font-size",
    "letter-spacing",
];

/// The attributes of a link in inline SVG, for the checker (the diagram renderer writes only these);
/// its `href` is checked by [`svg_link_allowed`].
#[cfg(test)]
pub(crate) const SVG_LINK_ATTRIBUTES: &[&str] = &["href", "transform", "class"];

/// A link an inline SVG may hold, as the browser reads it (tabs and newlines removed, leading and
/// trailing spaces and controls trimmed): http(s), or relative (no scheme at all).
pub(crate) fn svg_link_allowed(href: &str) -> bool {
    let cleaned: String = href
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let before_path = cleaned.split(['/', '?', '#']).next().unwrap_or("");
    match before_path.split_once(':') {
        None => !cleaned.is_empty() && !cleaned.starts_with("//") && !cleaned.contains('\\'),
        Some((scheme, _)) => matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https"),
    }
}

/// A value an SVG attribute may hold: plain characters, except that a transform may hold its
/// functions of numbers, a paint, clip path, mask or marker may be `url(#id)` (a reference inside
/// the same document), and `xmlns` is the SVG namespace (which a file needs to be drawn at all).
pub(crate) fn svg_value_allowed(name: &str, value: &str) -> bool {
    let plain = |v: &str| !v.contains(['(', ')', ':', '<', '>', '"', '\\', '&']);
    let local_url = |v: &str| {
        v.trim()
            .strip_prefix("url(#")
            .and_then(|v| v.strip_suffix(')'))
            .is_some_and(|id| !id.is_empty() && plain(id) && !id.contains(' '))
    };
    match name {
        "xmlns" => value == SVG_NAMESPACE,
        "transform" | "gradienttransform" => value.split_inclusive(')').all(|f| {
            let f = f.trim_start_matches([' ', ',', '\n', '\t']);
            let Some((func, args)) = f.strip_suffix(')').and_then(|f| f.split_once('(')) else {
                return false;
            };
            matches!(
                func.trim(),
                "translate" | "scale" | "rotate" | "matrix" | "skewX" | "skewY"
            ) && args
                .chars()
                .all(|c| c.is_ascii_digit() || " .,-+eE\n\t".contains(c))
        }),
        "marker-start" | "marker-mid" | "marker-end" | "clip-path" | "mask" => local_url(value),
        "fill" | "stroke" => plain(value) || local_url(value),
        "href" => svg_link_allowed(value),
        // A name for assistive technology (a diagram's title): text, nothing a browser runs.
        "aria-label" => true,
        _ => plain(value),
    }
}
