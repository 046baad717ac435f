//! The bundle's files for agents: `llms.txt` and `llms-full.txt` at the root and, as
//! [`MarkdownPages`] chooses, `a/b.md` next to every `a/b.html`. Their links are relative (the `.md`
//! files, else the `.html` pages), so they resolve inside the bundle wherever it is served.

use std::collections::BTreeMap;

use crate::agents::llms::{self, page_url};
use crate::agents::markdown::{page_markdown, page_markdown_around, text_and_body};
use crate::docs::site::page_source_text;
use crate::docs::{frontmatter, Page, Section, Site, SourceTree};

use crate::export::render::links::{encode_path, unambiguous, Linker};
use crate::export::ExportFile;

/// The bundle path of every page's Markdown in one file.
pub(crate) const LLMS_FULL_FILE: &str = "llms-full.txt";

/// Whether the bundle carries every page as its own Markdown file (`"markdown"` of the start request).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MarkdownPages {
    /// `a/b.md` beside every `a/b.html`; `llms.txt` and the Markdown link the `.md` files.
    Pages,
    /// No per-page files: every page's Markdown is in `llms-full.txt` alone, and `llms.txt` links
    /// the `.html` pages. A bundle of N pages then holds about N files fewer.
    LlmsFull,
}

/// Exports up to this many pages carry `.md` files unless asked otherwise: two files a page plus
/// the offline search (about 0.8 files a page at 10,000 pages) stay under the 20,000 files common
/// static hosts accept up to about 7,000 pages.
pub const MARKDOWN_PAGES_DEFAULT_MAX: usize = 6_000;

impl MarkdownPages {
    /// What `requested` names, else the default for an export of `pages` pages.
    pub fn resolve(requested: Option<MarkdownPages>, pages: usize) -> MarkdownPages {
        requested.unwrap_or(if pages <= MARKDOWN_PAGES_DEFAULT_MAX {
            MarkdownPages::Pages
        } else {
            MarkdownPages::LlmsFull
        })
    }

    /// The request value, as the API spells it.
    pub fn from_name(name: &str) -> Option<MarkdownPages> {
        match name {
            "pages" => Some(MarkdownPages::Pages),
            "llms-full" => Some(MarkdownPages::LlmsFull),
            _ => None,
        }
    }
}

/// Markdown file of a page: `a/b` -> `a/b.md`.
pub fn markdown_file(page_path: &str) -> String {
    format!("{page_path}.md")
}

/// Exported page path -> its Markdown file, the link targets inside Markdown pages.
pub(crate) fn markdown_files(html_files: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    crate::sort::map_from(
        html_files
            .keys()
            .map(|path| (path.clone(), markdown_file(path))),
    )
}

/// `a/b.md` of one page; `md_files` from [`markdown_files`]. Its `Source:` is the live URL.
pub(crate) fn page_file(
    page: &Page,
    tree: &SourceTree,
    md_files: &BTreeMap<String, String>,
    domain: &str,
) -> ExportFile {
    let text = render(page, tree, md_files, domain);
    ExportFile::new(markdown_file(&page.path), text)
}

/// [`page_file`] of a body rendered already by `agents::markdown::render_body` with the same links.
pub(crate) fn page_file_rendered(page: &Page, rendered: String, domain: &str) -> ExportFile {
    ExportFile::new(
        markdown_file(&page.path),
        page_markdown_around(page, rendered, &page_url(domain, &page.path)),
    )
}

fn render(
    page: &Page,
    tree: &SourceTree,
    md_files: &BTreeMap<String, String>,
    domain: &str,
) -> String {
    let links = Linker::new(&page.path, &page.source, md_files, tree, domain);
    page_markdown(page, tree, &page_url(domain, &page.path), &links)
}

/// Appends `page`'s Markdown to `full`, the part of `llms-full.txt` after its first `written` bytes
/// (which counts what is appended); `targets`: exported page path -> the file its links name (`.md`
/// or `.html`).
pub(crate) fn push_full(
    full: &mut String,
    written: &mut usize,
    page: &Page,
    tree: &SourceTree,
    targets: &BTreeMap<String, String>,
    domain: &str,
) {
    push_rendered(full, written, &full_markdown(page, tree, targets, domain));
}

/// A page's Markdown as [`push_full`] appends it.
pub(crate) fn full_markdown(
    page: &Page,
    tree: &SourceTree,
    targets: &BTreeMap<String, String>,
    domain: &str,
) -> String {
    render(page, tree, targets, domain)
}

/// [`push_full`] of a page's Markdown already rendered (by [`sections_and_markdown`]).
pub(crate) fn push_rendered(full: &mut String, written: &mut usize, markdown: &str) {
    let start = full.len();
    full.push_str(llms::page_separator(*written));
    full.push_str(markdown);
    *written += full.len() - start;
}

/// The sections of `page` ([`crate::docs::site::page_sections`]) and its Markdown as [`push_full`]
/// renders it, from one walk of its body: a reader holding only the outline needs both.
pub(crate) fn sections_and_markdown(
    page: &Page,
    tree: &SourceTree,
    targets: &BTreeMap<String, String>,
    domain: &str,
) -> (Vec<Section>, String) {
    let source = page_source_text(tree, page);
    let (_, body) = frontmatter::split(&source);
    let links = Linker::new(&page.path, &page.source, targets, tree, domain);
    let (text, rendered) = text_and_body(body, &page.source, tree, &links);
    (
        text.sections,
        page_markdown_around(page, rendered, &page_url(domain, &page.path)),
    )
}

/// `llms.txt` for the exported pages (`pages`: indices into `site.pages`, whose first section's
/// text is all it reads of them) and `llms-full.txt` as [`push_full`] wrote it.
pub(crate) fn llms_files(
    site: &Site,
    pages: &[usize],
    targets: &BTreeMap<String, String>,
    full: String,
) -> Vec<ExportFile> {
    let link = |page: &Page| {
        targets
            .get(&page.path)
            .map_or_else(String::new, |file| unambiguous(encode_path(file)))
    };
    let index = llms::llms_txt(site, pages, &link);
    vec![
        ExportFile::new("llms.txt".to_owned(), index),
        ExportFile::new(LLMS_FULL_FILE.to_owned(), full),
    ]
}
