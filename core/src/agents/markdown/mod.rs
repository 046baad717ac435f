//! A page as Markdown, for agents: `page.md` in the static export, the page endpoint's
//! `format: "markdown"`, the MCP `get_page` tool and `llms-full.txt`.
//!
//! A visitor over the same MDX walk as the search text and the export's HTML (`docs::walk`):
//! Markdown runs are re-written from pulldown-cmark's events (`events`, so links can be rewritten
//! and inline JSX resolved), components become plain Markdown (`components`). Nesting is a stack of
//! containers in the `writer`, each adding a line prefix (`> ` for callouts, list indentation for
//! steps, fields and cards), so any mix of components and Markdown blocks nests correctly.

mod components;
pub(crate) mod escape;
mod events;
mod table;
mod writer;

use crate::docs::frontmatter;
use crate::docs::sections::{Extractor, PageText};
use crate::docs::walk::{walk_mdx, MarkdownVisitor, Pair};
use crate::docs::{Page, SourceTree};

pub(crate) use components::{code_span, destination, Urls};
use writer::Writer;

/// Renders `page` as Markdown: `# Title`, a `Source:` line with its URL, the description as a
/// quote, then the body. `urls` decides where links and images point.
pub(crate) fn page_markdown(
    page: &Page,
    tree: &SourceTree,
    source_url: &str,
    urls: &dyn Urls,
) -> String {
    let source = crate::docs::site::page_source_text(tree, page);
    let (_, body) = frontmatter::split(&source);
    page_markdown_around(
        page,
        render_body(body, &page.source, tree, urls),
        source_url,
    )
}

/// [`page_markdown`] of a body already rendered by [`render_body`] (or [`text_and_body`]).
pub(crate) fn page_markdown_around(page: &Page, mut rendered: String, source_url: &str) -> String {
    let title_heading = format!("# {}", escape::text(&page.title));
    // A page titled by its own first heading would repeat it.
    if let Some(rest) = rendered.strip_prefix(&title_heading) {
        rendered = rest.trim_start_matches('\n').to_owned();
    }
    let mut out = title_heading;
    out.push_str("\n\nSource: ");
    out.push_str(source_url);
    out.push('\n');
    if let Some(description) = page
        .description
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        out.push_str("\n> ");
        out.push_str(&escape::text(&description.replace('\n', " ")));
        out.push('\n');
    }
    if let Some(operation) = page
        .openapi
        .as_deref()
        .map(str::trim)
        .filter(|o| !o.is_empty())
    {
        out.push_str("\nAPI operation: ");
        out.push_str(&code_span(operation));
        out.push('\n');
    }
    if !rendered.trim().is_empty() {
        out.push('\n');
        out.push_str(&rendered);
    }
    out
}

/// Renders an MDX body (frontmatter removed); `file` is its tree path, for snippet imports.
pub(crate) fn render_body(body: &str, file: &str, tree: &SourceTree, urls: &dyn Urls) -> String {
    let mut writer = Writer::new(tree, urls);
    walk_mdx(&mut writer, body, file, 0);
    writer.finish()
}

/// The page's text ([`crate::docs::sections::extract`]) and its body rendered as Markdown ([`render_body`]) in one
/// walk: publishing needs both of every page, and the walk (block scan, Markdown parse) is most of
/// the cost of either.
pub(crate) fn text_and_body(
    body: &str,
    file: &str,
    tree: &SourceTree,
    urls: &dyn Urls,
) -> (PageText, String) {
    let mut both = Pair::new(Extractor::new(tree), Writer::new(tree, urls), tree);
    walk_mdx(&mut both, body, file, 0);
    (both.first.finish(), both.second.finish())
}

/// [`render_body`] in the walk of another reader `first` of the same body (see `walk::Pair`), which
/// it gives back: the export writes a page's HTML and its Markdown twin from one walk.
pub(crate) fn render_body_beside<'t, A: MarkdownVisitor<'t>>(
    first: A,
    body: &str,
    file: &str,
    tree: &'t SourceTree,
    urls: &dyn Urls,
) -> (A, String) {
    let mut both = Pair::new(first, Writer::new(tree, urls), tree);
    walk_mdx(&mut both, body, file, 0);
    (both.first, both.second.finish())
}

#[cfg(test)]
mod tests;
