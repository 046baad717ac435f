//! A page's own stylesheet: the CSS of the Tailwind utility classes its markup uses ([`utilities`])
//! and of its authors' `style` props turned into classes ([`declarations`]). The export's CSP
//! (`style-src 'self'`) allows no inline style, so these rules live in
//! `_static/pages/<page>.css`, written with the page in its batch and linked after `site.css`
//! only by pages that have any: no state crosses batches and a page pays only for its classes.
//!
//! Both halves read the page's MDX source, where the author's classes are apart from the
//! renderer's own (`card`, `callout`, ...), which never get utility rules. The sanitizer gives an
//! element with a `style` prop the class [`style_class`] names, from the same declarations.

mod declarations;
#[cfg(feature = "utilities")]
mod readable;
#[cfg(feature = "utilities")]
mod utilities;

use std::collections::{BTreeMap, BTreeSet};

use crate::docs::jsx::{scan_tag_within, AttrValue, ScanBudget, Tag};

use crate::export::page::icons::fnv1a;

/// Where the pages' stylesheets go.
pub(crate) const DIR: &str = "_static/pages";

/// The bundle file of the stylesheet of the page at `path` (`guides/a` -> `_static/pages/guides/a.css`).
pub(crate) fn file_for(path: &str) -> String {
    format!("{DIR}/{path}.css")
}

/// The class the `style` prop of `tag` becomes (`s-` and the hash of its safe declarations), if
/// any declaration is safe.
pub(crate) fn style_class(tag: &Tag<'_>) -> Option<String> {
    declarations::from_attr(tag.attr("style")?).map(|d| class_name(&d))
}

/// The class of the swatch of a `<Color.Item value="#hex">`, whose colour is a rule of the page's
/// stylesheet like a `style` prop's.
pub(crate) fn swatch_class(tag: &Tag<'_>) -> Option<String> {
    swatch_declarations(tag).map(|d| class_name(&d))
}

fn swatch_declarations(tag: &Tag<'_>) -> Option<String> {
    let value = tag
        .text_attr("value")
        .filter(|_| tag.name == "Color.Item")?;
    crate::export::html::safe_color(value)
        .filter(|color| declarations::safe_value(color))
        .map(|color| format!("background:{color}"))
}

fn class_name(declarations: &str) -> String {
    format!("s-{:08x}", fnv1a(declarations))
}

/// The stylesheet of a page whose MDX body is `body`; `None` when it needs none.
#[cfg(feature = "utilities")]
pub(crate) fn stylesheet(body: &str) -> Option<String> {
    let mut classes = BTreeSet::new();
    let mut styles = BTreeMap::new();
    let mut budget = ScanBudget::for_text(body);
    let fenced = fenced_ranges(body);
    let mut at = 0;
    while let Some(found) = body[at..].find('<') {
        let start = at + found;
        if let Some(range) = fenced.iter().find(|r| r.contains(&start)) {
            at = range.end;
            continue;
        }
        at = start + 1;
        let Some((tag, len)) = scan_tag_within(&body[start..], &mut budget) else {
            continue;
        };
        at = start + len.max(1);
        if let Some(value) = ["className", "class"]
            .iter()
            .find_map(|name| class_text(&tag, name))
        {
            classes.extend(value.split_whitespace());
        }
        for declarations in [
            tag.attr("style").and_then(declarations::from_attr),
            swatch_declarations(&tag),
        ]
        .into_iter()
        .flatten()
        {
            styles.insert(class_name(&declarations), declarations);
        }
    }
    let mut css = utilities::generate(classes);
    if !css.is_empty() {
        // Tailwind's preflight gives every element a solid zero-width border, so that `border`
        // (a width) draws a line; here only for the author's classed elements, and at zero
        // specificity, so the site's component rules still win.
        css.insert_str(0, ":where(.custom-body, .prose) :where([class]) { border-width: 0; border-style: solid; border-color: var(--border); }\n");
    }
    for (class, declarations) in &styles {
        // Doubled, so that as inline styles did it wins over the utilities and the site's rules.
        css.push_str(&format!("\n.{class}.{class} {{ {declarations} }}"));
    }
    (!css.trim().is_empty()).then(|| css.trim_start().to_owned() + "\n")
}

/// `className="a b"`, `className={"a b"}` or a template literal without substitutions.
fn class_text<'a>(tag: &Tag<'a>, name: &str) -> Option<&'a str> {
    if let Some(text) = tag.text_attr(name) {
        return Some(text);
    }
    match tag.attr(name)? {
        AttrValue::Expr(e) => e
            .trim()
            .strip_prefix('`')?
            .strip_suffix('`')
            .filter(|t| !t.contains("${")),
        _ => None,
    }
}

/// Byte ranges of fenced code blocks, whose text is code, not markup.
fn fenced_ranges(body: &str) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    let mut open: Option<(usize, &str)> = None;
    let mut offset = 0;
    for line in body.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let fence = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f));
        match (open, fence) {
            (None, Some(f)) => open = Some((offset, f)),
            (Some((start, f)), Some(g))
                if f == g
                    && trimmed
                        .trim_end()
                        .trim_start_matches(g.chars().next().unwrap_or('`'))
                        .is_empty() =>
            {
                ranges.push(start..offset + line.len());
                open = None;
            }
            _ => {}
        }
        offset += line.len();
    }
    if let Some((start, _)) = open {
        ranges.push(start..body.len());
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::jsx::scan_tag;

    #[test]
    fn a_landing_page_gets_rules_for_its_classes_and_styles_only() {
        let body = "<div className=\"grid grid-cols-2 gap-4\">\n<div class=\"p-4 card\" style={{ borderColor: '#e5e7eb', gap: 8 }}>x</div>\n<span className={`md:flex`} style=\"color: red\">y</span>\n</div>\n\n```html\n<div className=\"grid-cols-9\">\n```\n";
        let css = stylesheet(body).unwrap();
        assert!(
            css.contains("repeat(2, minmax(0, 1fr))")
                && css.contains("gap: 1rem")
                && css.contains("padding: 1rem"),
            "{css}"
        );
        assert!(css.contains(".md\\:flex"), "{css}");
        assert!(
            !css.contains("repeat(9"),
            "classes in code blocks are code: {css}"
        );
        let (tag, _) =
            scan_tag("<div class=\"p-4 card\" style={{ borderColor: '#e5e7eb', gap: 8 }}>")
                .unwrap();
        let class = style_class(&tag).unwrap();
        assert!(
            css.contains(&format!(
                ".{class}.{class} {{ border-color:#e5e7eb;gap:8px }}"
            )),
            "{css}"
        );
        assert!(css.contains("{ color:red }"), "{css}");
        assert_eq!(stylesheet("# Title\n\n<Card title=\"x\">y</Card>\n"), None);
    }

    #[test]
    fn a_colour_swatch_is_a_rule_not_an_inline_style() {
        let body = "<Color>\n<Color.Item name=\"Primary\" value=\"#0060FF\" />\n<Color.Item name=\"Bad\" value=\"red;}body{x\" />\n</Color>\n";
        let css = stylesheet(body).unwrap();
        let (tag, _) = scan_tag("<Color.Item name=\"Primary\" value=\"#0060FF\" />").unwrap();
        let class = swatch_class(&tag).unwrap();
        assert!(
            css.contains(&format!(".{class}.{class} {{ background:#0060FF }}")),
            "{css}"
        );
        assert!(!css.contains("body{"), "{css}");
        let (pages, tree) = (Default::default(), crate::docs::SourceTree::new());
        let links = crate::export::render::links::Linker::new("a", "a.mdx", &pages, &tree, "d.io");
        let html = crate::export::render::components::markup(&tag, false, &links).open;
        assert!(
            html.contains(&format!("<span class=\"swatch {class}\"></span>"))
                && !html.contains("style="),
            "{html}"
        );
    }

    #[test]
    fn hostile_styles_and_classes_stay_inside_their_rules() {
        let body = "<div style={{ color: 'red;}</style><script>x</script>', background: 'url(javascript:alert(1))' }} className=\"w-[1px;}body{display:none] bg-[url(javascript:x)]\">a</div>\n<p style=\"@import url(x); color: blue; width: expression(alert(1))\" className=\"p-1\">b</p>";
        let css = stylesheet(body).unwrap();
        for bad in [
            "</style",
            "javascript",
            "@import",
            "expression",
            "body{",
            "url(",
        ] {
            assert!(!css.contains(bad), "{bad} in {css}");
        }
        assert!(
            css.contains("color:blue") && css.contains("padding: 0.25rem"),
            "{css}"
        );
        assert_eq!(css.matches('{').count(), css.matches('}').count(), "{css}");
    }
}
