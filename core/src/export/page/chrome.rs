//! The site's chrome from docs.json (`navbar`, `footer`, `banner`) or mint.json (`topbarLinks`,
//! `topbarCtaButton`, `footerSocials`, `banner`), read into [`crate::docs::settings`]: the header's
//! links and call-to-action button, the announcement banner above the header, and the footer's
//! social links and link columns. Icons go through [`crate::export::page::icons`]; links to other sites open
//! with `rel="noopener"`, site paths become links within the bundle.

use crate::docs::settings::Link;
use crate::docs::Site;

use crate::export::html::{self, attr, element, open};
use crate::export::page::icons;
use crate::export::render::links::Linker;
use crate::export::render::markdown;

fn is_external(href: &str) -> bool {
    let lower = href.trim().to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("//")
}

/// `<a href class>` opened, with `rel` and a new tab for other sites.
fn open_link(out: &mut String, href: &str, class: &str, links: &Linker<'_>) {
    out.push_str("<a");
    if !class.is_empty() {
        attr(out, "class", class);
    }
    attr(out, "href", &links.href(href));
    if is_external(href) {
        out.push_str(" target=\"_blank\" rel=\"noopener\"");
    }
}

/// The icon of a header link: its own `icon`, else the brand its `type` names (`github`).
fn link_icon(out: &mut String, link: &Link, source: &str) {
    let brand = link
        .kind
        .as_deref()
        .and_then(social_icon)
        .map(|(name, _)| name);
    match (link.icon.as_deref(), brand) {
        (Some(icon), _) => icons::marker(out, icon, None, "icon", source),
        (None, Some(name)) => icons::marker(out, name, Some("brands"), "icon", source),
        (None, None) => {}
    }
}

/// The header's links and button, after the search box.
pub(crate) fn navbar(out: &mut String, site: &Site, links: &Linker<'_>) {
    let navbar = &site.config.navbar;
    let source = site.config.file.as_str();
    if !navbar.links.is_empty() {
        out.push_str("<nav class=\"topbar-links\" aria-label=\"Site links\"><ul>");
        for link in &navbar.links {
            out.push_str("<li>");
            open_link(out, &link.href, "", links);
            out.push('>');
            link_icon(out, link, source);
            element(out, "span", "", &label(link));
            out.push_str("</a></li>");
        }
        out.push_str("</ul></nav>");
    }
    if let Some(primary) = &navbar.primary {
        open_link(out, &primary.href, "topbar-cta", links);
        out.push('>');
        link_icon(out, primary, source);
        element(out, "span", "", &label(primary));
        out.push_str("</a>");
    }
}

/// A link's text: its label, else the name of the site its `type` names, else its address.
fn label(link: &Link) -> String {
    if !link.label.trim().is_empty() && Some(&link.label) != link.kind.as_ref() {
        return link.label.clone();
    }
    match link.kind.as_deref().and_then(social_icon) {
        Some((_, name)) => name.to_owned(),
        None if !link.label.trim().is_empty() => link.label.clone(),
        None => link.href.clone(),
    }
}

/// The announcement above the header (`banner.content`, Markdown); a dismissible one has a close
/// button that `site.js` wires up and remembers by `data-banner` (a hash of the text).
pub(crate) fn banner(out: &mut String, site: &Site, links: &Linker<'_>) {
    let Some(banner) = site
        .config
        .banner
        .as_ref()
        .filter(|b| !b.content.trim().is_empty())
    else {
        return;
    };
    out.push_str("<div class=\"site-banner\" role=\"region\" aria-label=\"Announcement\"");
    if banner.dismissible {
        attr(out, "data-banner", &banner_id(&banner.content));
    }
    out.push_str("><div class=\"site-banner-text\">");
    // A banner is a line or two of text: its code, if any, stays plain.
    out.push_str(&markdown::render_fragment(
        &banner.content,
        links.tree(),
        links,
        &crate::export::render::code::PlainCode,
    ));
    out.push_str("</div>");
    if banner.dismissible {
        out.push_str("<button type=\"button\" class=\"site-banner-close\" aria-label=\"Dismiss announcement\">&#215;</button>");
    }
    out.push_str("</div>");
}

/// A short stable id of the banner's text, so a new announcement shows again after a dismissal.
fn banner_id(content: &str) -> String {
    format!("{:08x}", icons::fnv1a(content))
}

/// The footer: link columns, social links (icons named for screen readers) and the site's name.
pub(crate) fn footer(out: &mut String, site: &Site, links: &Linker<'_>) {
    let footer = &site.config.footer;
    let source = site.config.file.as_str();
    let columns: Vec<_> = footer
        .columns
        .iter()
        .filter(|c| !c.items.is_empty())
        .collect();
    if !columns.is_empty() {
        out.push_str("<nav class=\"footer-columns\" aria-label=\"Footer\">");
        for column in columns {
            open(out, "div", "footer-column");
            if let Some(header) = &column.header {
                element(out, "p", "footer-heading", header);
            }
            out.push_str("<ul>");
            for item in &column.items {
                out.push_str("<li>");
                open_link(out, &item.href, "", links);
                out.push('>');
                html::text(out, &item.label);
                out.push_str("</a></li>");
            }
            out.push_str("</ul></div>");
        }
        out.push_str("</nav>");
    }
    out.push_str("<div class=\"footer-bottom\">");
    element(out, "p", "footer-name", &site.name);
    if !footer.socials.is_empty() {
        out.push_str("<ul class=\"footer-socials\" aria-label=\"Social links\">");
        for (platform, url) in &footer.socials {
            let (icon, name) = social_icon(platform).unwrap_or(("globe", "Website"));
            out.push_str("<li>");
            open_link(out, url, "social", links);
            attr(out, "aria-label", name);
            attr(out, "title", name);
            out.push('>');
            let icon_type = if icon == "globe" { "solid" } else { "brands" };
            icons::marker(out, icon, Some(icon_type), "icon", source);
            out.push_str("</a></li>");
        }
        out.push_str("</ul>");
    }
    out.push_str("</div>");
}

/// The Font Awesome brand icon and the name of a social platform as the format spells it.
fn social_icon(platform: &str) -> Option<(&'static str, &'static str)> {
    Some(match platform.trim().to_ascii_lowercase().as_str() {
        "x" | "twitter" => ("x-twitter", "X"),
        "github" => ("github", "GitHub"),
        "discord" => ("discord", "Discord"),
        "slack" => ("slack", "Slack"),
        "linkedin" => ("linkedin", "LinkedIn"),
        "youtube" => ("youtube", "YouTube"),
        "facebook" => ("facebook", "Facebook"),
        "instagram" => ("instagram", "Instagram"),
        "medium" => ("medium", "Medium"),
        "telegram" => ("telegram", "Telegram"),
        "reddit" => ("reddit", "Reddit"),
        "hacker-news" | "hackernews" => ("hacker-news", "Hacker News"),
        "threads" => ("threads", "Threads"),
        "bluesky" => ("bluesky", "Bluesky"),
        "mastodon" => ("mastodon", "Mastodon"),
        "twitch" => ("twitch", "Twitch"),
        "tiktok" => ("tiktok", "TikTok"),
        "gitlab" => ("gitlab", "GitLab"),
        "npm" => ("npm", "npm"),
        "website" | "web" => ("globe", "Website"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::docs::archive::tree;
    use crate::docs::build_site;
    use crate::export::page::icons::{self, tests::test_shards, Library};
    use crate::export::render::active_content::find_active;
    use crate::export::ExportFile;

    /// Header and footer of page `a` of a site with `config`, icons filled from the test shards.
    fn chrome(file: &str, config: &str) -> (String, Vec<String>) {
        let t = tree(&[(file, config), ("a.mdx", "A"), ("guides/b.mdx", "B")]);
        let site = build_site(&t).unwrap();
        let pages: BTreeMap<String, String> = [
            ("a".to_owned(), "a.html".to_owned()),
            ("guides/b".to_owned(), "guides/b.html".to_owned()),
        ]
        .into_iter()
        .collect();
        let links = Linker::new("a", "a.mdx", &pages, &t, "docs.example.com");
        let mut out = String::new();
        banner(&mut out, &site, &links);
        navbar(&mut out, &site, &links);
        footer(&mut out, &site, &links);
        let mut files = vec![ExportFile::new("a.html".into(), out)];
        let filled = icons::fill(&mut files, Library::FontAwesome, &test_shards(), &t);
        (
            String::from_utf8(files.remove(0).bytes).unwrap(),
            filled.warnings,
        )
    }

    #[test]
    fn docs_json_navbar_footer_and_banner() {
        let (html, warnings) = chrome(
            "docs.json",
            r#"{"name": "Acme", "navigation": {"pages": ["a", "guides/b"]},
                "navbar": {"links": [{"label": "GitHub", "href": "https://github.com/acme", "icon": "github"},
                                     {"label": "Guide", "href": "/guides/b"}],
                           "primary": {"type": "button", "label": "Sign up", "href": "https://app.acme.dev"}},
                "footer": {"socials": {"x": "https://x.com/acme", "github": "https://github.com/acme"},
                           "links": [{"header": "Company", "items": [{"label": "Blog", "href": "https://acme.dev/blog"}]}]},
                "banner": {"content": "New: [guide](/guides/b) **now**", "dismissible": true}}"#,
        );
        assert!(html.contains("<a href=\"https://github.com/acme\" target=\"_blank\" rel=\"noopener\"><svg class=\"icon\""), "{html}");
        assert!(
            html.contains("<li><a href=\"guides/b.html\"><span>Guide</span></a></li>"),
            "{html}"
        );
        assert!(html.contains("<a class=\"topbar-cta\" href=\"https://app.acme.dev\" target=\"_blank\" rel=\"noopener\"><span>Sign up</span></a>"), "{html}");
        assert!(
            html.contains(
                "aria-label=\"X\" title=\"X\"><svg class=\"icon\" viewBox=\"0 0 448 512\""
            ),
            "{html}"
        );
        assert!(html.contains("aria-label=\"GitHub\""), "{html}");
        assert!(
            html.contains(
                "<p class=\"footer-heading\">Company</p><ul><li><a href=\"https://acme.dev/blog\""
            ),
            "{html}"
        );
        assert!(
            html.contains("role=\"region\" aria-label=\"Announcement\" data-banner=\""),
            "{html}"
        );
        assert!(
            html.contains("<a href=\"guides/b.html\">guide</a>")
                && html.contains("<strong>now</strong>"),
            "{html}"
        );
        assert!(html.contains("class=\"site-banner-close\""), "{html}");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(find_active(&html, &[]), None);
    }

    #[test]
    fn mint_json_topbar_and_footer_socials() {
        let (html, warnings) = chrome(
            "mint.json",
            r#"{"name": "Agents", "navigation": [{"group": "G", "pages": ["a"]}],
                "topbarLinks": [{"name": "Community", "url": "https://discord.gg/x"}],
                "topbarCtaButton": {"type": "github", "url": "https://github.com/agents/agents"},
                "footerSocials": {"twitter": "https://twitter.com/agents", "mastodon": "https://m.social/@a"}}"#,
        );
        assert!(html.contains("<span>Community</span>"), "{html}");
        assert!(html.contains("<a class=\"topbar-cta\" href=\"https://github.com/agents/agents\" target=\"_blank\" rel=\"noopener\"><svg class=\"icon\" viewBox=\"0 0 496 512\""), "{html}");
        assert!(html.contains("<span>GitHub</span>"), "{html}");
        assert!(html.contains("aria-label=\"X\""), "{html}");
        // The test shards have no Mastodon: a dot, and a warning naming mint.json and its line.
        assert!(
            html.contains("aria-label=\"Mastodon\"") && html.contains("icon-unknown"),
            "{html}"
        );
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with("mint.json:4: unknown icon `mastodon`"),
            "{warnings:?}"
        );
        assert!(!html.contains("site-banner"), "{html}");
        assert_eq!(find_active(&html, &[]), None);
    }
}
