//! The bundle's files for agents: `a/b.md` next to every `a/b.html`, and `llms.txt` and
//! `llms-full.txt` at the root, whose links are the relative `.md` files (so they resolve inside
//! the bundle wherever it is served).

use std::collections::BTreeMap;

use crate::docs::{Page, Site, SourceTree};
use crate::agents::llms::{self, page_url};
use crate::agents::markdown::page_markdown;

use super::links::{encode_path, unambiguous, Linker};
use super::ExportFile;

/// Markdown file of a page: `a/b` -> `a/b.md`.
pub fn markdown_file(page_path: &str) -> String {
    format!("{page_path}.md")
}

/// Exported page path -> its Markdown file, the link targets inside Markdown pages.
pub(crate) fn markdown_files(html_files: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    html_files.keys().map(|path| (path.clone(), markdown_file(path))).collect()
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

fn render(page: &Page, tree: &SourceTree, md_files: &BTreeMap<String, String>, domain: &str) -> String {
    let links = Linker::new(&page.path, &page.source, md_files, tree, domain);
    page_markdown(page, tree, &page_url(domain, &page.path), &links)
}

/// `llms.txt` and `llms-full.txt` for the exported pages (`pages`: indices into `site.pages`).
pub(crate) fn llms_files(
    site: &Site,
    tree: &SourceTree,
    pages: &[usize],
    md_files: &BTreeMap<String, String>,
    domain: &str,
) -> Vec<ExportFile> {
    let index = llms::llms_txt(site, pages, &|page| unambiguous(encode_path(&markdown_file(&page.path))));
    let mut full = String::new();
    for page in pages.iter().filter_map(|&i| site.pages.get(i)) {
        llms::push_page(&mut full, &render(page, tree, md_files, domain));
    }
    vec![
        ExportFile::new("llms.txt".to_owned(), index),
        ExportFile::new("llms-full.txt".to_owned(), full),
    ]
}
