//! The plan's data: the pages to render, the versions the bundle holds and their navigation.

use crate::export::page::extras::PageExtras;
use crate::export::page::layout::Brand;
use crate::export::page::page_mode::PageMode;
use crate::export::site::agent::MarkdownPages;
use crate::export::site::nav::SiteNav;
use std::collections::{BTreeMap, BTreeSet};

/// The pages of one export and what rendering them needs.
#[derive(Debug, Clone)]
pub struct ExportPlan {
    pub(super) domain: String,
    /// Page and version of each file to render, in render order (the first version's pages in the
    /// site's order, each page a later version shares right after it, then the later versions' own).
    pub(super) pages: Vec<Entry>,
    /// The versions the bundle holds; one unless the request asks for more.
    pub(super) scopes: Vec<Scope>,
    /// Versions of the site the bundle does not hold: label, paths listed, first page.
    pub(super) elsewhere: Vec<(String, BTreeSet<String>, Option<String>)>,
    pub(super) default_language: String,
    pub(super) brand: Brand,
    /// Search box and index in the pages (the deployment's search switch).
    pub(super) search: bool,
    pub(super) markdown: MarkdownPages,
    pub(super) extras: PageExtras,
    /// `widget::folder_pages` of the first version's files, once rather than per page.
    pub(super) widget_folders: String,
    /// docs.json's support link (`crate::docs::own_keys`), for the widget's tag.
    pub(super) widget_support: Option<String>,
}

/// One file to render: a page of the site (index into `Site::pages`) as a version holds it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Entry {
    pub(super) index: usize,
    pub(super) scope: usize,
    /// The first entry of its page (its Markdown twin, `llms` lines and sitemap URL come once).
    pub(super) first: bool,
    /// Held by more than one version: its body is rendered once, its links resolved per version.
    pub(super) shared: bool,
}

/// A language's pages by index into `Site::pages`: each one's place in the navigation order, and
/// its tab.
pub(super) type PagePlaces = (BTreeMap<usize, usize>, BTreeMap<usize, usize>);

/// One version of the bundle: where its pages are and its navigation.
#[derive(Debug, Clone)]
pub(super) struct Scope {
    pub(super) version: Option<String>,
    /// Search index directory name suffix (`en.v1`); `None` for the first version.
    pub(super) prefix: Option<String>,
    /// Page path -> output file, for links: every version's own pages, this version's copies.
    pub(super) files: BTreeMap<String, String>,
    /// This version's pages: page path -> index into `Site::pages`.
    pub(super) index_of: BTreeMap<String, usize>,
    /// Output file of another version's page -> this version's copy of it.
    pub(super) retarget: BTreeMap<String, String>,
    pub(super) nav: SiteNav,
    /// Navigation order per language, for previous/next.
    pub(super) order: BTreeMap<String, Vec<usize>>,
    /// Per language, each page's place in `order` and its tab ([`nav::tab_of_pages`]): looked up
    /// per page, where a scan would grow with the site.
    pub(super) place: BTreeMap<String, PagePlaces>,
    /// First page per language: where the language switch goes when a page has no counterpart.
    pub(super) homes: BTreeMap<String, usize>,
}

/// Where a page's Markdown file ([`MarkdownPages::Pages`]) is rendered in the walk of its HTML body.
pub(super) struct MarkdownTwin<'m> {
    /// Its links' targets (page path -> `.md` file) when the entry's Markdown file is wanted.
    pub(super) targets: Option<&'m BTreeMap<String, String>>,
    /// The rendered body, when the HTML body's walk wrote it.
    pub(super) rendered: Option<String>,
}

/// What a page's body renders to, before the page shell.
#[derive(Debug, Clone)]
pub(super) struct Body {
    pub(super) html: String,
    pub(super) toc: Vec<crate::export::render::markdown::Heading>,
    pub(super) mode: PageMode,
    pub(super) stylesheet: Option<String>,
}
