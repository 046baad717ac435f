//! MDX components and inline HTML tags -> semantic HTML.
//!
//! Each tag becomes an opening and a closing string; the renderer keeps a stack of the closings, so
//! children (Markdown, other components) are written in between and the output stays balanced
//! whatever the source does. Unknown capitalised components render only their children; lowercase
//! HTML goes through `sanitize`.

use crate::docs::jsx::{is_callout, AttrValue, Tag};
use crate::docs::sections::field_name;

use crate::export::html::{self, attr, class_token, element, open, Markup};
use crate::export::page::icons;
use crate::export::render::links::{Linker, Media};
use crate::export::render::sanitize;

/// Markup of a component or HTML tag. `inline` is true inside a paragraph, where block elements
/// would break the HTML: components then keep to inline markup.
pub(crate) fn markup(tag: &Tag<'_>, inline: bool, links: &Linker<'_>) -> Markup {
    if tag.name.starts_with(|c: char| c.is_ascii_lowercase()) {
        return sanitize::html_tag(tag, links);
    }
    if let Some(markup) = crate::export::render::audience::markup(tag, inline) {
        return markup;
    }
    let mut markup = component(tag, inline, links);
    with_author_classes(&mut markup.open, &sanitize::author_classes(tag));
    markup
}

/// `open` with `classes` (a component's `className` and `style` props) added to its first element,
/// as `class` words: the generated page stylesheet holds their rules, since the export's policy
/// allows no inline style.
fn with_author_classes(open: &mut String, classes: &[String]) {
    let Some(end) = open
        .find('>')
        .filter(|_| open.starts_with('<') && !classes.is_empty())
    else {
        return;
    };
    let extra = classes.join(" ");
    match open[..end].find(" class=\"") {
        Some(at) => {
            let value = at + " class=\"".len();
            let Some(close) = open[value..end].find('"') else {
                return;
            };
            let sep = if close == 0 { "" } else { " " };
            open.insert_str(value + close, &format!("{sep}{extra}"));
        }
        None => {
            let name_end = open[1..end].find([' ', '/']).map_or(end, |i| i + 1);
            open.insert_str(name_end, &format!(" class=\"{extra}\""));
        }
    }
}

fn component(tag: &Tag<'_>, inline: bool, links: &Linker<'_>) -> Markup {
    if inline {
        return inline_component(tag, links);
    }
    let mut out = String::new();
    let close = match tag.name {
        name if is_callout(name) => {
            callout(&mut out, tag, links);
            "</div></div>"
        }
        "Card" | "Tile" | "HeroCard" | "FeatureCard" | "ThemeCard" => {
            return card(tag, links);
        }
        "CardGroup" | "Columns" => {
            let cols = number_attr(tag, "cols").unwrap_or(2).clamp(1, 4);
            open(&mut out, "div", &format!("grid cols-{cols}"));
            "</div>"
        }
        "Tabs" => {
            out.push_str("<div class=\"tabs\" data-tabs");
            if tag.shown_value("sync") == Some("false") {
                out.push_str(" data-nosync");
            }
            out.push('>');
            "</div>"
        }
        "Tab" => {
            let title = tag.text_attr("title").unwrap_or("Tab");
            out.push_str("<section class=\"tab-panel\"");
            attr(&mut out, "data-title", title);
            out.push('>');
            element(&mut out, "p", "tab-title", title);
            "</section>"
        }
        "CodeGroup" => {
            out.push_str("<div class=\"code-group\" data-tabs");
            if tag.flag("dropdown") {
                out.push_str(" data-dropdown");
            }
            out.push('>');
            "</div>"
        }
        "RequestExample" | "ResponseExample" => {
            let title = if tag.name == "RequestExample" {
                "Request example"
            } else {
                "Response example"
            };
            // `api_page` finds them by these classes and moves them beside the reference.
            let kind = if tag.name == "RequestExample" {
                "request-example"
            } else {
                "response-example"
            };
            out.push_str(&format!("<div class=\"example {kind}\" data-tabs>"));
            element(&mut out, "p", "example-title", title);
            "</div>"
        }
        "Steps" => {
            open(&mut out, "ol", "steps");
            "</ol>"
        }
        "Step" => {
            open(&mut out, "li", "step");
            icon(&mut out, tag, links);
            if let Some(title) = tag.text_attr("title") {
                element(&mut out, "p", "step-title", title);
            }
            open(&mut out, "div", "step-body");
            "</div></li>"
        }
        "AccordionGroup" => {
            open(&mut out, "div", "accordion-group");
            "</div>"
        }
        "Accordion" | "Expandable" => {
            let class = if tag.name == "Accordion" {
                "accordion"
            } else {
                "expandable"
            };
            out.push_str("<details");
            attr(&mut out, "class", class);
            if tag.flag("defaultOpen") {
                out.push_str(" open");
            }
            out.push_str("><summary>");
            icon(&mut out, tag, links);
            let fallback = if tag.name == "Accordion" {
                "Details"
            } else {
                "Properties"
            };
            html::text(&mut out, tag.text_attr("title").unwrap_or(fallback));
            if let Some(description) = tag.text_attr("description") {
                element(&mut out, "span", "summary-description", description);
            }
            out.push_str("</summary>");
            open(&mut out, "div", "details-body");
            "</div></details>"
        }
        "Frame" => {
            open(&mut out, "figure", "frame");
            let mut close = String::new();
            if let Some(caption) = tag.text_attr("caption") {
                element(&mut close, "figcaption", "", caption);
            }
            if let Some(hint) = tag.text_attr("hint") {
                element(&mut close, "p", "frame-hint", hint);
            }
            close.push_str("</figure>");
            return Markup {
                open: out,
                close,
                ..Markup::default()
            };
        }
        "Update" => {
            open(&mut out, "div", "update");
            open(&mut out, "div", "update-meta");
            if let Some(label) = tag.text_attr("label") {
                element(&mut out, "span", "update-label", label);
            }
            if let Some(description) = tag.text_attr("description") {
                element(&mut out, "p", "update-description", description);
            }
            out.push_str("</div>");
            open(&mut out, "div", "update-body");
            "</div></div>"
        }
        "ParamField" | "ResponseField" => {
            field(&mut out, tag);
            "</div></div>"
        }
        "Panel" => {
            open(&mut out, "aside", "panel");
            "</aside>"
        }
        "Prompt" => {
            open(&mut out, "div", "prompt");
            if let Some(description) = tag.text_attr("description") {
                element(&mut out, "p", "prompt-title", description);
            }
            "</div>"
        }
        "Tree" | "FileTree" => {
            open(&mut out, "ul", "tree");
            "</ul>"
        }
        "Tree.Folder" => {
            open(&mut out, "li", "tree-folder");
            out.push_str("<details");
            if tag.flag("defaultOpen") {
                out.push_str(" open");
            }
            out.push_str("><summary>");
            html::text(&mut out, tag.text_attr("name").unwrap_or(""));
            out.push_str("</summary><ul>");
            "</ul></details></li>"
        }
        "Tree.File" => {
            element(
                &mut out,
                "li",
                "tree-file",
                tag.text_attr("name").unwrap_or(""),
            );
            ""
        }
        "Color" => {
            open(&mut out, "div", "colors");
            "</div>"
        }
        "Color.Row" => {
            open(&mut out, "div", "color-row");
            if let Some(title) = tag.text_attr("title") {
                element(&mut out, "p", "color-row-title", title);
            }
            "</div>"
        }
        "Color.Item" => {
            color_item(&mut out, tag);
            ""
        }
        "Column" => {
            open(&mut out, "div", "column");
            "</div>"
        }
        _ => return inline_component(tag, links),
    };
    Markup::pair(out, close)
}

/// Components as they may appear inside a line of text.
fn inline_component(tag: &Tag<'_>, links: &Linker<'_>) -> Markup {
    let mut out = String::new();
    let close = match tag.name {
        "Icon" => {
            icon(&mut out, tag, links);
            ""
        }
        "Tooltip" => {
            out.push_str("<span class=\"tooltip\" tabindex=\"0\"");
            let tip = [tag.text_attr("headline"), tag.text_attr("tip")]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(": ");
            attr(&mut out, "title", &tip);
            out.push('>');
            "</span>"
        }
        "Badge" => {
            let color = tag.text_attr("color").map(class_token).unwrap_or_default();
            let class = if color.is_empty() {
                "badge".to_owned()
            } else {
                format!("badge badge-{color}")
            };
            open(&mut out, "span", &class);
            icon(&mut out, tag, links);
            "</span>"
        }
        "Card" | "Tile" => {
            let title = tag.text_attr("title").unwrap_or("");
            match tag.text_attr("href") {
                Some(href) => {
                    out.push_str("<a");
                    attr(&mut out, "href", &links.href(href));
                    out.push('>');
                    html::text(&mut out, title);
                    out.push_str("</a> ");
                }
                None if !title.is_empty() => {
                    element(&mut out, "strong", "", title);
                    out.push(' ');
                }
                None => {}
            }
            ""
        }
        // Unknown components (and block ones inside a line) show their children only.
        _ => "",
    };
    Markup::pair(out, close)
}

fn callout(out: &mut String, tag: &Tag<'_>, links: &Linker<'_>) {
    let kind = match tag.name {
        "Callout" => "note",
        name => match name {
            "Note" => "note",
            "Warning" => "warning",
            "Info" => "info",
            "Tip" => "tip",
            "Check" => "check",
            _ => "danger",
        },
    };
    open(out, "div", &format!("callout callout-{kind}"));
    // The format's own icons for each kind; a `Callout` names its own.
    let name = match kind {
        "warning" => "triangle-exclamation",
        "danger" => "ban",
        "tip" => "lightbulb",
        "check" => "check",
        _ => "circle-info",
    };
    out.push_str("<span class=\"callout-icon\" aria-hidden=\"true\">");
    match tag.text_attr("icon").filter(|_| tag.name == "Callout") {
        Some(_) => icon(out, tag, links),
        None => icons::marker(out, name, Some("solid"), "icon", links.source()),
    }
    out.push_str("</span>");
    open(out, "div", "callout-body");
    if let Some(title) = tag.text_attr("title") {
        element(out, "p", "callout-title", title);
    }
}

fn card(tag: &Tag<'_>, links: &Linker<'_>) -> Markup {
    let href = tag.text_attr("href").map(|h| links.href(h));
    let mut out = String::new();
    open(
        &mut out,
        "div",
        if href.is_some() {
            "card card-link"
        } else {
            "card"
        },
    );
    if let Some(src) = tag.text_attr("img") {
        if let Media::Local(src) | Media::ImageOnly { src, .. } = links.media(src) {
            out.push_str("<img class=\"card-img\" loading=\"lazy\" alt=\"\"");
            attr(&mut out, "src", &src);
            out.push('>');
        }
    }
    icon(&mut out, tag, links);
    let title = tag.text_attr("title").unwrap_or("");
    let mut close = "</div>".to_owned();
    match &href {
        Some(href) => {
            // The title is the link; CSS stretches it over the card, so links inside stay valid.
            out.push_str("<p class=\"card-title\"><a");
            attr(&mut out, "href", href);
            out.push('>');
            html::text(&mut out, if title.is_empty() { "Open" } else { title });
            out.push_str("</a></p>");
        }
        None if !title.is_empty() => element(&mut out, "p", "card-title", title),
        None => {}
    }
    open(&mut out, "div", "card-body");
    if let Some(cta) = tag.text_attr("cta") {
        let mut c = String::new();
        element(&mut c, "p", "card-cta", cta);
        close.insert_str(0, &c);
    }
    close.push_str("</div>");
    Markup::pair(out, &close)
}

/// `ParamField` (`path`/`query`/`body`/`header` name the parameter) and `ResponseField` (`name`).
fn field(out: &mut String, tag: &Tag<'_>) {
    let param = tag.name == "ParamField";
    let (name, location) = field_name(tag);
    open(
        out,
        "div",
        if param {
            "field param-field"
        } else {
            "field response-field"
        },
    );
    open(out, "div", "field-head");
    element(out, "code", "field-name", name);
    if let Some(kind) = tag.text_attr("type") {
        element(out, "span", "field-type", kind);
    }
    if let Some(location) = location {
        element(out, "span", "field-in", location);
    }
    if tag.flag("required") {
        element(out, "span", "field-required", "required");
    }
    if tag.flag("deprecated") {
        element(out, "span", "field-deprecated", "deprecated");
    }
    if let Some(default) = tag.shown_value("default") {
        out.push_str("<span class=\"field-default\">default: ");
        element(out, "code", "", default);
        out.push_str("</span>");
    }
    out.push_str("</div>");
    open(out, "div", "field-body");
}

fn color_item(out: &mut String, tag: &Tag<'_>) {
    let value = tag.text_attr("value").unwrap_or("");
    open(out, "span", "color-item");
    // The colour is a rule of the page's stylesheet: the CSP allows no inline style.
    if let Some(class) = crate::export::page::style::swatch_class(tag) {
        open(out, "span", &format!("swatch {class}"));
        out.push_str("</span>");
    }
    if let Some(name) = tag.text_attr("name") {
        element(out, "span", "color-name", name);
    }
    element(out, "code", "", value);
    out.push_str("</span>");
}

/// The icon a component's `icon` (and `iconType`) names, as inline SVG once filled (see `icons`).
pub(crate) fn icon(out: &mut String, tag: &Tag<'_>, links: &Linker<'_>) {
    icons::component_icon(out, tag.text_attr("icon"), tag.text_attr("iconType"), links);
}

/// `cols={3}` or `cols="3"`.
fn number_attr(tag: &Tag<'_>, name: &str) -> Option<u32> {
    match tag.attr(name)? {
        AttrValue::Str(s) => s.trim().parse().ok(),
        AttrValue::Expr(e) => e.trim().parse().ok(),
        AttrValue::Flag => None,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::docs::archive::tree;
    use crate::docs::jsx::scan_tag;

    fn render(src: &str, inline: bool) -> Markup {
        let pages: BTreeMap<String, String> = [
            ("a/b".to_string(), "a/b.html".to_string()),
            ("c".into(), "c.html".into()),
        ]
        .into();
        let tree = tree(&[("images/x.png", "png")]);
        let links = Linker::new("a/b", "a/b.mdx", &pages, &tree, "d.io");
        let (tag, _) = scan_tag(src).expect("tag");
        markup(&tag, inline, &links)
    }

    fn both(src: &str) -> String {
        let m = render(src, false);
        format!("{}|{}", m.open, m.close)
    }

    #[test]
    fn callouts_are_labelled_blocks() {
        let out = both("<Warning>");
        assert!(
            out.starts_with("<div class=\"callout callout-warning\">"),
            "{out}"
        );
        assert!(out.ends_with("|</div></div>"), "{out}");
        assert!(both("<Check>").contains("callout-check"));
        assert!(both("<Danger>").contains("callout-danger"));
    }

    #[test]
    fn card_with_href_links_its_title_relatively() {
        let out = both("<Card title=\"Start\" icon=\"rocket\" href=\"/c\">");
        assert!(out.contains("<a href=\"../c.html\">Start</a>"), "{out}");
        assert!(out.contains("class=\"icon\""), "{out}");
        let plain = both("<Card title=\"T\">");
        assert!(plain.contains("<p class=\"card-title\">T</p>"), "{plain}");
    }

    #[test]
    fn grids_tabs_steps_and_accordions() {
        assert!(both("<CardGroup cols={3}>").contains("grid cols-3"));
        assert!(both("<Columns cols=\"9\">").contains("cols-4"));
        let tab = both("<Tab title=\"npm & yarn\">");
        assert!(tab.contains("data-title=\"npm &amp; yarn\""), "{tab}");
        assert!(both("<Tabs>").contains("data-tabs"));
        assert!(both("<CodeGroup>").contains("code-group"));
        let step = both("<Step title=\"Install\">");
        assert!(
            step.starts_with("<li class=\"step\"><p class=\"step-title\">Install</p>"),
            "{step}"
        );
        let acc = both("<Accordion title=\"More\" defaultOpen>");
        assert!(
            acc.starts_with("<details class=\"accordion\" open><summary>More"),
            "{acc}"
        );
        assert!(acc.ends_with("</div></details>"));
        assert!(both("<Expandable title=\"child\">").contains("<details class=\"expandable\">"));
    }

    #[test]
    fn frame_caption_comes_at_the_close() {
        let out = both("<Frame caption=\"A <b> view\">");
        assert_eq!(
            out,
            "<figure class=\"frame\">|<figcaption>A &lt;b&gt; view</figcaption></figure>"
        );
    }

    #[test]
    fn fields_show_name_location_type_required_and_default() {
        let out = both("<ParamField query=\"limit\" type=\"integer\" required default={10}>");
        for part in [
            "<code class=\"field-name\">limit</code>",
            "<span class=\"field-type\">integer</span>",
            "<span class=\"field-in\">query</span>",
            "field-required",
            "default: <code>10</code>",
        ] {
            assert!(out.contains(part), "{part} in {out}");
        }
        let resp = both("<ResponseField name=\"id\" type=\"string\">");
        assert!(
            resp.contains("response-field") && resp.contains(">id</code>"),
            "{resp}"
        );
    }

    #[test]
    fn inline_components_stay_inline() {
        let tip = render("<Tooltip tip=\"Hi\">", true);
        assert_eq!(
            tip.open,
            "<span class=\"tooltip\" tabindex=\"0\" title=\"Hi\">"
        );
        let badge = render("<Badge color=\"green\">", true);
        assert_eq!(badge.open, "<span class=\"badge badge-green\">");
        let icon = render("<Icon icon=\"check\" color=\"#16a34a\" />", true);
        assert!(
            icon.open.starts_with("<svg data-icon=\"check\"") && icon.close.is_empty(),
            "{}",
            icon.open
        );
        let note = render("<Note>", true);
        assert!(
            note.open.is_empty(),
            "block components in a line keep only their children"
        );
        let update = both("<Update label=\"2024-06\" description=\"v2\">");
        assert!(update.contains("update-label\">2024-06<"), "{update}");
    }

    /// A component's `className` and `style` props reach its outer element as classes (the style's
    /// rules are the page stylesheet's), never as an inline `style` attribute.
    #[test]
    fn component_class_names_and_style_props_become_classes() {
        let card = render(
            "<Card title=\"T\" className=\"mt-8 x;y\" style={{ marginTop: 24 }}>",
            false,
        );
        let style = crate::export::page::style::style_class(
            &scan_tag("<Card style={{ marginTop: 24 }}>").unwrap().0,
        )
        .unwrap();
        assert!(
            card.open
                .starts_with(&format!("<div class=\"card mt-8 xy {style}\">")),
            "{}",
            card.open
        );
        let note = render("<Note className=\"wide\">", false);
        assert!(
            note.open
                .starts_with("<div class=\"callout callout-note wide\""),
            "{}",
            note.open
        );
        assert!(!card.open.contains("style=") && !note.open.contains("style="));
        assert_eq!(
            render("<Note>", false).open,
            render("<Note className=\"\">", false).open
        );
    }

    #[test]
    fn unknown_components_render_only_children() {
        assert_eq!(
            render("<Visibility for=\"humans\">", false),
            Markup::default()
        );
        assert_eq!(render("<SomethingElse x={1} />", true), Markup::default());
    }
}
