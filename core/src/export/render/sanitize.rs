//! The HTML sanitizer: lowercase HTML written in MDX -> the markup the export writes for it.
//!
//! An allow-list, not a filter: a tag the list does not name writes nothing but its children, and an
//! allowed tag is written anew from the few attributes it may keep (class, id, title, table spans,
//! `a href` through the link rewriter, media `src` only when the upload holds the file), every value
//! escaped. Event handlers, `style`, and any other attribute never reach the page; `<script>`,
//! `<style>` and `<template>` are dropped with their content; images and frames from other hosts
//! become click-to-load placeholders (`embeds`), other media plain links, so nothing loads from
//! another host before the reader asks. `active_content` is the independent
//! checker the tests and the fuzzers hold this output to.

use crate::docs::jsx::{AttrValue, Tag, TagKind};

use crate::export::html::{self, attr, Markup};
use crate::export::page::style;
use crate::export::render::links::{Linker, Media};

/// Lowercase HTML written in MDX: allowed tags keep their safe attributes; media from other hosts
/// and embeds become placeholders or links; scripts and styles are dropped with their content.
pub(crate) fn html_tag(tag: &Tag<'_>, links: &Linker<'_>) -> Markup {
    const CONTAINERS: &[&str] = &[
        "a",
        "abbr",
        "b",
        "blockquote",
        "caption",
        "center",
        "code",
        "dd",
        "del",
        "details",
        "div",
        "dl",
        "dt",
        "em",
        "figcaption",
        "figure",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "i",
        "ins",
        "kbd",
        "li",
        "mark",
        "ol",
        "p",
        "pre",
        "q",
        "s",
        "samp",
        "small",
        "span",
        "strong",
        "sub",
        "summary",
        "sup",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "u",
        "ul",
    ];
    let name = tag.name.to_ascii_lowercase();
    let mut out = String::new();
    match name.as_str() {
        "script" | "style" | "template" => Markup {
            suppress: tag.kind == TagKind::Open,
            ..Markup::default()
        },
        "br" | "hr" => Markup {
            open: format!("<{name}>"),
            void: true,
            ..Markup::default()
        },
        "img" => {
            let src = tag.text_attr("src").unwrap_or("");
            let alt = tag.text_attr("alt").unwrap_or("");
            match links.media(src) {
                Media::Local(src) | Media::ImageOnly { src, .. } => {
                    out.push_str("<img loading=\"lazy\"");
                    attr(&mut out, "src", &src);
                    attr(&mut out, "alt", alt);
                    for key in ["width", "height", "title"] {
                        if let Some(value) = tag.text_attr(key).or_else(|| number_text(tag, key)) {
                            attr(&mut out, key, value);
                        }
                    }
                    class_attr(&mut out, tag);
                    out.push('>');
                }
                Media::Link(href) => {
                    let size = ["width", "height"]
                        .map(|key| tag.text_attr(key).or_else(|| number_text(tag, key)));
                    remote_image(&mut out, &href, src, alt, size, &author_classes(tag));
                }
            }
            Markup {
                open: out,
                void: true,
                ..Markup::default()
            }
        }
        "video" | "audio" | "iframe" | "source" | "embed" | "object" => {
            let src = tag
                .text_attr("src")
                .or_else(|| tag.text_attr("data"))
                .unwrap_or("");
            let playable = matches!(name.as_str(), "video" | "audio");
            let void = matches!(name.as_str(), "source" | "embed");
            if src.is_empty() {
                // A <video> with <source> children: the children decide.
                return if playable {
                    Markup::pair(
                        format!("<{name} controls preload=\"none\">"),
                        &format!("</{name}>"),
                    )
                } else {
                    Markup {
                        void,
                        ..Markup::default()
                    }
                };
            }
            match links.media(src) {
                Media::Local(src) if playable || name == "source" => {
                    out.push('<');
                    out.push_str(&name);
                    if playable {
                        out.push_str(" controls preload=\"metadata\"");
                    }
                    attr(&mut out, "src", &src);
                    out.push('>');
                    let close = if void {
                        String::new()
                    } else {
                        format!("</{name}>")
                    };
                    Markup {
                        open: out,
                        close,
                        void,
                        ..Markup::default()
                    }
                }
                Media::Local(href) | Media::Link(href) | Media::ImageOnly { link: href, .. } => {
                    let label = tag.text_attr("title").unwrap_or("");
                    // A remote frame waits behind a placeholder for the reader's click.
                    if !(name == "iframe"
                        && crate::export::render::embeds::placeholder(&mut out, &href, label))
                    {
                        external_link(&mut out, &href, label, "Embedded media");
                    }
                    Markup {
                        open: out,
                        void,
                        // The fallback content of an embed is redundant next to the link.
                        suppress: !void && tag.kind == TagKind::Open,
                        ..Markup::default()
                    }
                }
            }
        }
        _ if CONTAINERS.contains(&name.as_str()) => {
            out.push('<');
            out.push_str(&name);
            class_attr(&mut out, tag);
            if let Some(id) = tag.text_attr("id") {
                attr(&mut out, "id", id);
            }
            if name == "a" {
                if let Some(href) = tag.text_attr("href") {
                    attr(&mut out, "href", &links.href(href));
                }
            }
            for key in ["title", "colspan", "rowspan", "align", "start"] {
                if let Some(value) = tag.text_attr(key).or_else(|| number_text(tag, key)) {
                    attr(&mut out, key, value);
                }
            }
            if name == "details" && tag.attr("open").is_some() {
                out.push_str(" open");
            }
            out.push('>');
            Markup::pair(out, &format!("</{name}>"))
        }
        // Other elements (svg, forms, custom elements) show their children.
        _ => Markup::default(),
    }
}

/// A remote image the publish did not bring (`href`, written as `written`): a click-to-load
/// placeholder naming its host (`embeds`); a link when the URL is not plainly remote (a relative
/// one missing from the upload leads to the live site, where it is missing too).
pub(crate) fn remote_image(
    out: &mut String,
    href: &str,
    written: &str,
    alt: &str,
    size: [Option<&str>; 2],
    classes: &[String],
) {
    if href != written.trim()
        || !crate::export::render::embeds::image_placeholder(out, href, alt, size, classes)
    {
        external_link(out, href, alt, "Image");
    }
}

/// A remote image inside a link, where a placeholder's own link and button may not nest: its alt
/// text (the link around it is what the reader follows).
pub(crate) fn image_in_link(out: &mut String, alt: &str) {
    out.push_str("<span class=\"external-media\">");
    html::text(out, if alt.trim().is_empty() { "Image" } else { alt });
    out.push_str("</span>");
}

/// `<a class="external-media" href>label</a>`: media that must not load from another host.
fn external_link(out: &mut String, href: &str, label: &str, fallback: &str) {
    out.push_str("<a class=\"external-media\"");
    attr(out, "href", href);
    out.push('>');
    html::text(
        out,
        if label.trim().is_empty() {
            fallback
        } else {
            label
        },
    );
    out.push_str("</a>");
}

/// The author's classes (Tailwind's too: `md:grid-cols-2`, `w-[350px]`, which the page's own
/// stylesheet defines, see `page::style`) and the class its `style` prop became.
fn class_attr(out: &mut String, tag: &Tag<'_>) {
    let class = author_classes(tag);
    if !class.is_empty() {
        attr(out, "class", &class.join(" "));
    }
}

/// The classes an author gives an element or component: its `className` (or `class`) words, cut
/// to safe characters, and the class its `style` prop becomes (`page::style`).
pub(crate) fn author_classes(tag: &Tag<'_>) -> Vec<String> {
    let written = tag
        .text_attr("className")
        .or_else(|| tag.text_attr("class"))
        .unwrap_or("");
    let mut class = written
        .split_whitespace()
        .map(|c| {
            c.chars()
                .filter(|c| c.is_ascii_graphic() && !"\"'<>`{};=\\".contains(*c))
                .collect::<String>()
        })
        .filter(|c| !c.is_empty())
        .collect::<Vec<_>>();
    class.extend(style::style_class(tag));
    class
}

fn number_text<'a>(tag: &Tag<'a>, name: &str) -> Option<&'a str> {
    match tag.attr(name)? {
        AttrValue::Expr(e) if e.trim().parse::<u32>().is_ok() => Some(e.trim()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::docs::archive::tree;
    use crate::docs::jsx::scan_tag;
    use crate::export::render::active_content::find_active;

    fn render(src: &str, _inline: bool) -> Markup {
        let pages: BTreeMap<String, String> = [("a/b".to_string(), "a/b.html".to_string())].into();
        let tree = tree(&[("images/x.png", "png"), ("media/v.mp4", "mp4")]);
        let links = Linker::new("a/b", "a/b.mdx", &pages, &tree, "d.io");
        let (tag, _) = scan_tag(src).expect("tag");
        html_tag(&tag, &links)
    }

    /// The tag's markup around some child text, as a page would hold it; held to the checker.
    fn written(src: &str) -> String {
        let markup = render(src, false);
        let html = format!("{}child{}", markup.open, markup.close);
        assert_eq!(find_active(&html, &[]), None, "{src} wrote {html}");
        html
    }

    #[test]
    fn html_images_local_copy_remote_placeholder() {
        let local = render("<img src=\"/images/x.png\" alt=\"X\" width={200} />", false);
        assert_eq!(
            local.open,
            "<img loading=\"lazy\" src=\"../images/x.png\" alt=\"X\" width=\"200\">"
        );
        let remote = written("<img src=\"https://cdn.x/y.png\" alt=\"Y\" width={200} height=\"80\" className=\"hidden dark:block\" onerror=\"x\" />");
        assert!(remote.starts_with("<span class=\"image-placeholder hidden dark:block\" data-image-origin=\"https://cdn.x\" data-image-src=\"https://cdn.x/y.png\" \
                                    data-image-alt=\"Y\" data-image-width=\"200\" data-image-height=\"80\"><a class=\"external-media\" href=\"https://cdn.x/y.png\">Y</a> "), "{remote}");
        assert!(
            remote.contains(">Load the image from cdn.x</button></span>")
                && !remote.contains("<img")
                && !remote.contains("onerror"),
            "{remote}"
        );
        // Not plainly remote: the link stays (a relative image missing from the upload, a script URL, userinfo).
        for (src, href) in [
            ("/images/gone.png", "https://d.io/images/gone.png"),
            ("javascript:alert(1)", "#"),
            ("https://u@cdn.x/y.png", "https://u@cdn.x/y.png"),
        ] {
            let html = written(&format!("<img src=\"{src}\" alt=\"G\" />"));
            assert_eq!(
                html,
                format!("<a class=\"external-media\" href=\"{href}\">G</a>child"),
                "{src}"
            );
        }
    }

    #[test]
    fn embeds_from_other_hosts_wait_behind_placeholders_and_scripts_vanish() {
        let iframe = render(
            "<iframe src=\"https://www.youtube.com/embed/x\" title=\"Demo\">",
            false,
        );
        assert!(
            iframe.open.contains("<figure class=\"embed-placeholder\""),
            "{}",
            iframe.open
        );
        assert!(iframe
            .open
            .contains("href=\"https://www.youtube.com/embed/x\">Open it on www.youtube.com</a>"));
        assert!(!iframe.open.contains("<iframe"));
        assert!(iframe.suppress);
        assert!(render("<script>", false).suppress);
        let div = render(
            "<div className=\"x dark:hidden\" style={{a: 'url(x)'}} onClick={f}>",
            false,
        );
        assert_eq!(
            div.open, "<div class=\"x dark:hidden\">",
            "an unsafe style gives no class"
        );
        let a = render("<a href=\"javascript:x()\">", false);
        assert_eq!(a.open, "<a href=\"#\">");
    }

    #[test]
    fn event_handlers_styles_and_unknown_attributes_never_pass() {
        for src in [
            "<div onclick=\"alert(1)\" onMouseOver={f} style=\"background:url(javascript:x)\" data-x=\"1\">",
            "<p ONLOAD=\"x\" srcdoc=\"<script>\" formaction=\"javascript:x\">",
            "<span title=\"t\" onfocus=\"x\" autofocus tabindex=\"1\">",
        ] {
            let html = written(src);
            assert!(!html.to_ascii_lowercase().contains(" on"), "{html}");
            assert!(!html.contains("style") && !html.contains("data-x") && !html.contains("srcdoc"), "{html}");
        }
    }

    #[test]
    fn script_urls_in_links_and_media_never_pass() {
        for src in [
            "<a href=\"javascript:alert(1)\">",
            "<a href=\"JaVaScRiPt:alert(1)\">",
            "<a href=\" javascript:alert(1)\">",
            "<a href=\"java&#115;cript:alert(1)\">",
            "<a href=\"vbscript:msgbox\">",
            "<a href=\"data:text/html,<script>alert(1)</script>\">",
            "<img src=\"javascript:alert(1)\" alt=\"x\" />",
            "<img src=\"data:image/svg+xml,<svg onload=alert(1)>\" />",
            "<video src=\"javascript:alert(1)\">",
            "<source src=\"https://evil.example/x.mp4\" />",
            "<iframe src=\"javascript:alert(1)\">",
            "<object data=\"data:text/html,x\">",
            "<embed src=\"https://evil.example/x.swf\" />",
        ] {
            written(src);
        }
        assert_eq!(
            render("<video src=\"/media/v.mp4\">", false).open,
            "<video controls preload=\"metadata\" src=\"../media/v.mp4\">"
        );
    }

    #[test]
    fn active_elements_write_nothing_and_scripts_drop_their_content() {
        for src in ["<script>", "<sCrIpT src=\"x.js\">", "<style>", "<template>"] {
            let markup = render(src, false);
            assert!(
                markup.suppress && markup.open.is_empty() && markup.close.is_empty(),
                "{src}"
            );
        }
        for src in [
            "<svg onload=\"x\">",
            "<math>",
            "<form action=\"javascript:x\">",
            "<base href=\"https://evil\" />",
            "<meta http-equiv=\"refresh\" />",
            "<link rel=\"import\" />",
            "<x-widget>",
            "<noscript>",
        ] {
            assert_eq!(render(src, false), Markup::default(), "{src}");
        }
    }

    #[test]
    fn values_are_escaped_and_classes_cut_to_safe_characters() {
        let html = written("<span title='\"><script>alert(1)</script>' id='a\" onclick=\"x'>");
        assert!(
            html.contains("title=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\""),
            "{html}"
        );
        assert!(html.contains("id=\"a&quot; onclick=&quot;x\""), "{html}");
        let class = written("<div className='x\" onload=\"y <b>'>");
        assert_eq!(class, "<div class=\"x onloady b\">child</div>");
        let styled =
            written("<div className=\"grid md:grid-cols-[1fr_2fr] w-1/2\" style={{ gap: 8 }}>");
        assert!(
            styled.starts_with("<div class=\"grid md:grid-cols-[1fr_2fr] w-1/2 s-"),
            "{styled}"
        );
        assert!(!styled.contains("style"), "{styled}");
    }
}
