//! An SVG file of the upload as the bundle carries it: rewritten through the allow-list of
//! `svg_allow`, so the file holds nothing that runs even when opened as a document (pages load it
//! through `<img>`, which runs none anyway). A `style` attribute's declarations become the
//! presentation attributes the list allows. Scripts, metadata, filters and editors' own elements
//! are left out; a file that draws with anything else the list refuses (`<image>`, `<use>`,
//! `<pattern>`, a `<style>` sheet) would lose part of its picture, so it is not sanitised at all
//! (`None`) and the page keeps its link to the live site.

use crate::export::render::svg_allow::{
    svg_value_allowed, SVG_NAMESPACE, SVG_ROOT_ATTRIBUTES, SVG_SHAPES, SVG_SHAPE_ATTRIBUTES,
};

/// Largest SVG file sanitised (its parsed tree is held while it is rewritten).
pub(crate) const MAX_SVG_FILE_BYTES: usize = 1 << 20;

/// Elements whose leaving out changes nothing a reader needs: they run script, describe the file,
/// or soften an effect (`filter`).
const DROPPED: &[&str] = &["script", "metadata", "filter", "sodipodi:namedview"];

/// The file rewritten to the allow-list, `None` when it is no SVG, too large, or would lose part
/// of its picture.
#[cfg(feature = "utilities")]
pub(crate) fn sanitise(bytes: &[u8]) -> Option<String> {
    if bytes.len() > MAX_SVG_FILE_BYTES {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(text, options).ok()?;
    let root = doc.root_element();
    if root.tag_name().name() != "svg" || root.tag_name().namespace() != Some(SVG_NAMESPACE) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    out.push_str("<svg xmlns=\"");
    out.push_str(SVG_NAMESPACE);
    out.push('"');
    attributes(root, SVG_ROOT_ATTRIBUTES, &mut out);
    out.push('>');
    for child in root.children() {
        node(child, &mut out)?;
    }
    out.push_str("</svg>\n");
    Some(out)
}

/// Without page rendering (the request-serving script) no SVG file is carried.
#[cfg(not(feature = "utilities"))]
pub(crate) fn sanitise(_bytes: &[u8]) -> Option<String> {
    None
}

#[cfg(feature = "utilities")]
fn node(node: roxmltree::Node, out: &mut String) -> Option<()> {
    if node.is_text() {
        if node
            .parent_element()
            .is_some_and(|p| matches!(p.tag_name().name(), "text" | "tspan" | "title" | "desc"))
        {
            crate::export::html::text(out, node.text().unwrap_or(""));
        }
        return Some(());
    }
    if !node.is_element() {
        return Some(());
    }
    let tag = node.tag_name();
    let name = tag.name();
    let lower = name.to_ascii_lowercase();
    let svg = tag.namespace() == Some(SVG_NAMESPACE);
    if !svg || DROPPED.contains(&lower.as_str()) {
        // Another namespace's element (an editor's) draws nothing in a browser.
        return Some(());
    }
    if !SVG_SHAPES.contains(&lower.as_str()) {
        return None;
    }
    out.push('<');
    out.push_str(name);
    attributes(node, SVG_SHAPE_ATTRIBUTES, out);
    if !node.has_children() {
        out.push_str("/>");
        return Some(());
    }
    out.push('>');
    for child in node.children() {
        self::node(child, out)?;
    }
    out.push_str("</");
    out.push_str(name);
    out.push('>');
    Some(())
}

/// The element's attributes the list allows, in its own case, then the allowed declarations of its
/// `style` attribute that no attribute of it already sets.
#[cfg(feature = "utilities")]
fn attributes(node: roxmltree::Node, allowed: &[&str], out: &mut String) {
    let mut written: Vec<String> = Vec::new();
    let mut write = |name: &str, value: &str, out: &mut String| {
        let lower = name.to_ascii_lowercase();
        if lower == "xmlns" || written.contains(&lower) || !allowed.contains(&lower.as_str()) {
            return;
        }
        let value = value.trim();
        if !svg_value_allowed(&lower, value) {
            return;
        }
        out.push(' ');
        out.push_str(name);
        out.push_str("=\"");
        out.push_str(value);
        out.push('"');
        written.push(lower);
    };
    for attribute in node.attributes().filter(|a| a.namespace().is_none()) {
        write(attribute.name(), attribute.value(), out);
    }
    if let Some(style) = node.attribute("style") {
        for declaration in style.split(';') {
            if let Some((name, value)) = declaration.split_once(':') {
                write(name.trim(), value, out);
            }
        }
    }
}

#[cfg(all(test, feature = "utilities"))]
mod tests {
    use super::*;
    use crate::export::render::active_content::find_active;

    #[test]
    fn keeps_the_picture_and_drops_what_runs() {
        let file = r##"<?xml version="1.0"?>
<!DOCTYPE svg>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)" style="fill:red">
  <metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata>
  <script>alert(document.domain)</script>
  <defs><linearGradient id="g" x1="0" gradientUnits="userSpaceOnUse" gradientTransform="rotate(45)"><stop offset="0" stop-color="#fff"/><stop offset="1" style="stop-color:#000;stop-opacity:0.5;behavior:url(x.htc)"/></linearGradient>
  <clipPath id="c"><rect width="5" height="5"/></clipPath></defs>
  <g clip-path="url(#c)" filter="url(#f)" onclick="alert(1)"><path d="M0 0h10v10z" fill="url(#g)" fill-rule="evenodd"/>
  <path d="M1 1" fill="url(javascript:alert(1))" stroke="url(https://evil.example/#x)"/></g>
  <filter id="f"><feGaussianBlur stdDeviation="2"/></filter>
  <text x="1" y="9">a &lt; b</text>
</svg>"##;
        let out = sanitise(file.as_bytes()).unwrap();
        assert_eq!(find_active(&out, &[]), None, "{out}");
        assert_eq!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\" fill=\"red\"><defs><linearGradient id=\"g\" x1=\"0\" \
             gradientUnits=\"userSpaceOnUse\" gradientTransform=\"rotate(45)\"><stop offset=\"0\" stop-color=\"#fff\"/><stop offset=\"1\" \
             stop-color=\"#000\" stop-opacity=\"0.5\"/></linearGradient><clipPath id=\"c\"><rect width=\"5\" height=\"5\"/></clipPath></defs>\
             <g clip-path=\"url(#c)\"><path d=\"M0 0h10v10z\" fill=\"url(#g)\" fill-rule=\"evenodd\"/><path d=\"M1 1\"/></g>\
             <text x=\"1\" y=\"9\">a &lt; b</text></svg>\n"
        );
    }

    #[test]
    fn a_picture_the_list_cannot_draw_stays_a_link() {
        for file in [
            r#"<svg xmlns="http://www.w3.org/2000/svg"><image href="data:image/png;base64,AAAA"/></svg>"#,
            r#"<svg xmlns="http://www.w3.org/2000/svg"><style>.a{fill:red}</style><path class="a" d="M0"/></svg>"#,
            r##"<svg xmlns="http://www.w3.org/2000/svg"><use href="#a"/></svg>"##,
            r#"<svg><path d="M0"/></svg>"#,
            "<html><body>x</body></html>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><path d=\"M0\">",
        ] {
            assert_eq!(sanitise(file.as_bytes()), None, "{file}");
        }
    }
}
