//! Content for one audience or one choice: `<Visibility for="agents|humans">` and `<View title>`.
//!
//! `Visibility for="agents"` is dropped from the HTML page with everything inside (the Markdown
//! twins and `llms-full.txt` keep it, see `agents::markdown`); `for="humans"`, or no audience, is
//! its children. A `View` is a panel under its title; `site.js` puts a selector before the first
//! view of the page and shows one view at a time. Without script every view shows under its title.

use crate::docs::jsx::{Tag, TagKind};

use crate::export::html::{self, attr, Markup};

/// The markup of `tag` when it is one of these components.
pub(crate) fn markup(tag: &Tag<'_>, inline: bool) -> Option<Markup> {
    match tag.name {
        "Visibility" if for_agents_only(tag) => Some(Markup {
            suppress: tag.kind == TagKind::Open,
            ..Markup::default()
        }),
        "Visibility" => Some(Markup::default()),
        "View" if !inline => {
            let title = tag
                .text_attr("title")
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .unwrap_or("View");
            let mut open = String::from("<section class=\"view-panel\"");
            attr(&mut open, "data-title", title);
            attr(&mut open, "aria-label", title);
            open.push('>');
            html::element(&mut open, "p", "view-title", title);
            Some(Markup::pair(open, "</section>"))
        }
        _ => None,
    }
}

/// `for="agents"`: the content is for the Markdown output only.
fn for_agents_only(tag: &Tag<'_>) -> bool {
    tag.text_attr("for")
        .is_some_and(|f| f.trim().eq_ignore_ascii_case("agents"))
}

#[cfg(test)]
mod tests {
    fn page(body: &str) -> crate::export::render::markdown::Body {
        let tree = crate::docs::archive::tree(&[]);
        let pages = std::collections::BTreeMap::new();
        let links =
            crate::export::render::links::Linker::new("a/b", "a/b.mdx", &pages, &tree, "d.io");
        crate::export::render::markdown::render_mdx(
            body,
            "a/b.mdx",
            &tree,
            &links,
            &crate::export::render::code::PlainCode,
        )
    }

    #[test]
    fn agent_content_never_reaches_the_page_nor_its_contents() {
        let body = page("<Visibility for=\"humans\">\n  Click **Get started**.\n</Visibility>\n\n<Visibility for=\"agents\">\n  ## Agent steps\n\n  > Call `POST /v1/accounts`.\n</Visibility>\n\nAfter <Visibility for=\"agents\">secret</Visibility> text.\n");
        assert!(
            body.html.contains("Click <strong>Get started</strong>."),
            "{}",
            body.html
        );
        assert!(
            !body.html.contains("accounts")
                && !body.html.contains("Agent")
                && !body.html.contains("secret"),
            "{}",
            body.html
        );
        assert!(
            body.html.contains("After ") && body.html.contains(" text."),
            "{}",
            body.html
        );
        assert!(body.headings.is_empty(), "{:?}", body.headings);
    }

    #[test]
    fn views_are_titled_panels() {
        let body = page("<View title=\"JavaScript\" icon=\"js\">\n  JS only.\n</View>\n\n<View title=\"Python\">\n  Py only.\n</View>\n").html;
        assert_eq!(
            body,
            "<section class=\"view-panel\" data-title=\"JavaScript\" aria-label=\"JavaScript\"><p class=\"view-title\">JavaScript</p><p>JS only.</p></section>\
             <section class=\"view-panel\" data-title=\"Python\" aria-label=\"Python\"><p class=\"view-title\">Python</p><p>Py only.</p></section>"
        );
    }
}
