//! Which pages an export renders, in what order, and everything derived from the site that more
//! than one page needs (link targets, navigation, language homes). Cheap to build, so every batch
//! (possibly in a fresh isolate) builds it again from the same inputs.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use crate::docs::config::page_path;
use crate::docs::public_skills::{site_skills, well_known_files};
use crate::docs::site::{add_operation_sections, page_sections};
use crate::docs::skill_file::{site_skill, SKILL_FILE};
use crate::docs::spec_lookup::SpecLookup;
use crate::docs::{frontmatter, source_text};
use crate::docs::{Section, Site, SourceTree};

use super::bundle::static_files::StaticFiles;
use super::page::extras::PageExtras;
use super::page::layout::{self, Brand, PageView, CONTENTS_DIR, CSS_FILE, JS_FILE, SEARCH_DIR};
use super::page::page_mode::PageMode;
use super::reference::openapi::Specs;
use super::render::code::Highlight;
use super::render::links::{self, asset_bytes, is_safe_path, output_file, Linker, STATIC_DIR};
use super::site::agent::MarkdownPages;
use super::site::finishing_pages::{FinishingPages, SearchAs};
use super::site::nav::{self, SiteNav};
use super::{
    page::style, reference::api_page, render::markdown, site::agent, site::assets, site::stubs,
    site::versions,
};
use super::{ExportError, ExportFile, ExportOptions};

/// The pages of one export and what rendering them needs.
#[derive(Debug, Clone)]
pub struct ExportPlan {
    domain: String,
    /// Page and version of each file to render, in render order (the first version's pages in the
    /// site's order, each page a later version shares right after it, then the later versions' own).
    pages: Vec<Entry>,
    /// The versions the bundle holds; one unless the request asks for more.
    scopes: Vec<Scope>,
    /// Versions of the site the bundle does not hold: label, paths listed, first page.
    elsewhere: Vec<(String, BTreeSet<String>, Option<String>)>,
    default_language: String,
    brand: Brand,
    /// Search box and index in the pages (the deployment's search switch).
    search: bool,
    markdown: MarkdownPages,
    extras: PageExtras,
    /// `widget::folder_pages` of the first version's files, once rather than per page.
    widget_folders: String,
    /// docs.json's support link (`crate::docs::own_keys`), for the widget's tag.
    widget_support: Option<String>,
}

/// One file to render: a page of the site (index into `Site::pages`) as a version holds it.
#[derive(Debug, Clone, Copy)]
struct Entry {
    index: usize,
    scope: usize,
    /// The first entry of its page (its Markdown twin, `llms` lines and sitemap URL come once).
    first: bool,
    /// Held by more than one version: its body is rendered once, its links resolved per version.
    shared: bool,
}

/// A language's pages by index into `Site::pages`: each one's place in the navigation order, and
/// its tab.
type PagePlaces = (BTreeMap<usize, usize>, BTreeMap<usize, usize>);

/// One version of the bundle: where its pages are and its navigation.
#[derive(Debug, Clone)]
struct Scope {
    version: Option<String>,
    /// Search index directory name suffix (`en.v1`); `None` for the first version.
    prefix: Option<String>,
    /// Page path -> output file, for links: every version's own pages, this version's copies.
    files: BTreeMap<String, String>,
    /// This version's pages: page path -> index into `Site::pages`.
    index_of: BTreeMap<String, usize>,
    /// Output file of another version's page -> this version's copy of it.
    retarget: BTreeMap<String, String>,
    nav: SiteNav,
    /// Navigation order per language, for previous/next.
    order: BTreeMap<String, Vec<usize>>,
    /// Per language, each page's place in `order` and its tab ([`nav::tab_of_pages`]): looked up
    /// per page, where a scan would grow with the site.
    place: BTreeMap<String, PagePlaces>,
    /// First page per language: where the language switch goes when a page has no counterpart.
    homes: BTreeMap<String, usize>,
}

impl ExportPlan {
    /// Chooses the pages: the requested versions (default: the docs.json default, else the first),
    /// all languages, only `paths` when given. Unknown versions or paths are errors naming them.
    pub fn new(
        site: &Site,
        tree: &SourceTree,
        options: &ExportOptions,
    ) -> Result<ExportPlan, ExportError> {
        let domain = normalise_domain(&options.domain)?;
        let versions =
            versions::chosen(site, options.version.as_deref(), options.versions.as_ref())?;
        let listed = versions::listed(site);
        let mut held: Vec<BTreeMap<String, usize>> = Vec::new();
        for (n, version) in versions.iter().enumerate() {
            let listed: BTreeSet<&str> = version
                .as_ref()
                .and_then(|v| listed.get(v))
                .into_iter()
                .flatten()
                .map(String::as_str)
                .collect();
            let mut index_of = BTreeMap::new();
            for (i, page) in site.pages.iter().enumerate() {
                // One file per path: a page listed under two languages is rendered once.
                if versions::holds(site, &listed, version.as_deref(), n == 0, i)
                    && is_safe_path(&page.path)
                    && !index_of.contains_key(&page.path)
                {
                    index_of.insert(page.path.clone(), i);
                }
            }
            held.push(index_of);
        }
        if let Some(wanted) = &options.paths {
            let mut keep = BTreeSet::new();
            let mut unknown = Vec::new();
            for raw in wanted {
                let path = page_path(raw).unwrap_or_else(|| "index".to_owned());
                match held.iter().find_map(|h| h.get(&path)) {
                    Some(_) => {
                        keep.insert(path);
                    }
                    None => unknown.push(raw.clone()),
                }
            }
            if !unknown.is_empty() {
                return Err(ExportError::UnknownPaths { paths: unknown });
            }
            for index_of in &mut held {
                index_of.retain(|path, _| keep.contains(path));
            }
        }
        if held.first().is_none_or(BTreeMap::is_empty) {
            return Err(ExportError::NoPages);
        }
        let default_language = site
            .languages
            .first()
            .cloned()
            .unwrap_or_else(|| crate::docs::site::DEFAULT_LANGUAGE.to_owned());
        // Every version's own pages at their paths: a link from one version to another's page
        // stays in the bundle.
        let mut own: BTreeMap<String, String> = BTreeMap::new();
        let mut owner: BTreeMap<usize, usize> = BTreeMap::new();
        for (n, index_of) in held.iter().enumerate() {
            for (path, &i) in index_of {
                if owner.contains_key(&i) {
                    continue;
                }
                owner.insert(i, n);
                own.insert(path.clone(), output_file(path));
            }
        }
        let mut taken: BTreeSet<String> = own.values().cloned().collect();
        let mut prefixes = BTreeSet::new();
        let mut scopes = Vec::new();
        for (n, (version, index_of)) in versions.iter().zip(held).enumerate() {
            let prefix = match (n, version) {
                (0, _) | (_, None) => None,
                (_, Some(v)) => Some(versions::prefix(site, v, &prefixes)),
            };
            prefixes.extend(prefix.clone());
            let mut files = own.clone();
            let mut retarget = BTreeMap::new();
            let mut index_of = index_of;
            for (path, &i) in index_of.clone().iter() {
                if owner.get(&i) == Some(&n) {
                    continue;
                }
                let copy =
                    output_file(&format!("{}/{path}", prefix.as_deref().unwrap_or_default()));
                if taken.insert(copy.clone()) {
                    retarget.insert(output_file(path), copy.clone());
                    files.insert(path.clone(), copy);
                } else {
                    // Its place is another page's: this version links to the other version's copy.
                    index_of.remove(path);
                }
            }
            let nav = nav::build(site, version.as_deref(), &index_of, &default_language);
            let order: BTreeMap<String, Vec<usize>> = crate::sort::map_from(
                nav.iter()
                    .map(|(language, tabs)| (language.clone(), nav::order(tabs))),
            );
            let place = crate::sort::map_from(nav.iter().map(|(language, tabs)| {
                let position = order
                    .get(language)
                    .into_iter()
                    .flatten()
                    .enumerate()
                    .map(|(p, &i)| (i, p));
                (
                    language.clone(),
                    (crate::sort::map_from(position), nav::tab_of_pages(tabs)),
                )
            }));
            let mut homes = BTreeMap::new();
            for &i in index_of.values() {
                let Some(page) = site.pages.get(i) else {
                    continue;
                };
                let first_in_nav = order.get(&page.language).and_then(|o| o.first()).copied();
                homes
                    .entry(page.language.clone())
                    .or_insert(first_in_nav.unwrap_or(i));
            }
            scopes.push(Scope {
                version: version.clone(),
                prefix,
                files,
                index_of,
                retarget,
                nav,
                order,
                place,
                homes,
            });
        }
        let pages = render_order(site, &scopes, &owner);
        let elsewhere = match versions.first() {
            Some(Some(_)) => {
                let held: BTreeSet<&str> = versions.iter().flatten().map(String::as_str).collect();
                site.versions
                    .iter()
                    .filter(|v| !held.contains(v.as_str()))
                    .map(|v| {
                        let paths = listed.get(v).cloned().unwrap_or_default();
                        let first = paths.first().cloned();
                        (v.clone(), paths.into_iter().collect(), first)
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        let markdown =
            MarkdownPages::resolve(options.markdown, pages.iter().filter(|e| e.first).count());
        let widget_folders = super::page::widget::folder_pages(&scopes[0].files);
        Ok(ExportPlan {
            domain,
            pages,
            scopes,
            elsewhere,
            default_language,
            brand: assets::brand(&site.config, tree),
            search: options.features.search,
            markdown,
            extras: PageExtras::default(),
            widget_folders,
            widget_support: crate::docs::own_keys::support_link(tree, &mut Vec::new()),
        })
    }

    /// Pages to render.
    /// The beacon and the playground, as the deployment has them switched (none by default). Every
    /// batch's plan must get the same extras.
    pub fn with_extras(mut self, extras: PageExtras) -> Self {
        self.extras = extras;
        self
    }

    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// The version exported first, at the site's own paths (`None` for an unversioned site).
    pub fn version(&self) -> Option<&str> {
        self.scopes.first().and_then(|s| s.version.as_deref())
    }

    /// docs.json's support link, for the bundle's manifest.
    pub fn support(&self) -> Option<&str> {
        self.widget_support.as_deref()
    }

    /// Every version the bundle holds, the first at the site's own paths.
    pub fn versions(&self) -> Vec<&str> {
        self.scopes
            .iter()
            .filter_map(|s| s.version.as_deref())
            .collect()
    }

    /// Output files (without `.html`) in render order.
    pub fn page_paths<'s>(&'s self, site: &'s Site) -> Vec<&'s str> {
        self.pages
            .iter()
            .filter_map(|e| self.file_of(site, e))
            .map(|f| f.strip_suffix(".html").unwrap_or(f))
            .collect()
    }

    /// Whether the bundle carries `.md` files beside the pages.
    pub fn markdown(&self) -> MarkdownPages {
        self.markdown
    }

    /// HTML and, unless [`MarkdownPages::LlmsFull`], Markdown (`a/b.html`, `a/b.md`) of the pages at
    /// `range` of the plan order (clamped to the plan). `site` and `tree` must be the ones the plan
    /// was made from, or its outline and a batch tree (see [`super::bundle::batch`]). Code blocks are
    /// coloured by `highlighter` (the host's; [`super::PlainCode`] leaves them plain). Only with the
    /// `utilities` feature: a page's utility classes need their generator.
    #[cfg(feature = "utilities")]
    pub fn render_pages(
        &self,
        site: &Site,
        tree: &SourceTree,
        range: Range<usize>,
        highlighter: &dyn Highlight,
    ) -> Vec<ExportFile> {
        self.render_pages_warned(site, tree, range, highlighter).0
    }

    /// [`ExportPlan::render_pages`], and the author's mistakes the pages show as best they can
    /// (`path:line: …`, a diagram left as code), for the owner's log.
    #[cfg(feature = "utilities")]
    pub fn render_pages_warned(
        &self,
        site: &Site,
        tree: &SourceTree,
        range: Range<usize>,
        highlighter: &dyn Highlight,
    ) -> (Vec<ExportFile>, Vec<String>) {
        let mut specs = Specs::new(tree);
        // docs.json `api.playground.display` (mint.json `api.playground.mode: hide`) `none` or
        // `simple`: the site shows no "Try it" panel, whatever the deployment allows.
        let shown = !matches!(
            site.config.api.playground.as_deref(),
            Some("none" | "simple")
        );
        specs.playground = self.extras.playground && shown;
        let pages_md = self.markdown == MarkdownPages::Pages;
        // Every page's Markdown file name: only twins link them, and a large site ships none.
        let md_files = if pages_md {
            agent::markdown_files(&self.scopes[0].files)
        } else {
            BTreeMap::new()
        };
        let mut files = Vec::new();
        let mut warnings = Vec::new();
        // A page several versions hold is rendered once; its copies follow it in plan order.
        let mut shared: Option<(usize, Body)> = None;
        for entry in self.batch(range) {
            let mut twin = MarkdownTwin {
                targets: (pages_md && entry.first).then_some(&md_files),
                rendered: None,
            };
            let page = self.render_page(
                site,
                tree,
                &mut specs,
                highlighter,
                entry,
                &mut shared,
                &mut warnings,
                &mut twin,
            );
            files.extend(page.into_iter().flatten().flatten());
            if let Some(page) = site
                .pages
                .get(entry.index)
                .filter(|_| entry.first && pages_md)
            {
                files.push(match twin.rendered {
                    Some(rendered) => agent::page_file_rendered(page, rendered, &self.domain),
                    None => agent::page_file(page, tree, &md_files, &self.domain),
                });
            }
        }
        (files, warnings)
    }

    /// Source files of the pages at `range` (clamped as [`ExportPlan::render_pages`] clamps it):
    /// with what they import and the files [`super::bundle::batch::read_by_every_batch`] names, all a batch
    /// reads.
    pub fn page_sources<'s>(&self, site: &'s Site, range: Range<usize>) -> Vec<&'s str> {
        self.batch(range)
            .iter()
            .filter_map(|e| site.pages.get(e.index))
            .map(|p| p.source.as_str())
            .collect()
    }

    fn batch(&self, range: Range<usize>) -> &[Entry] {
        let end = range.end.min(self.pages.len());
        let start = range.start.min(end);
        &self.pages[start..end]
    }

    /// The output file of an entry (`v1/a.html`).
    fn file_of<'s>(&'s self, site: &Site, entry: &Entry) -> Option<&'s String> {
        let page = site.pages.get(entry.index)?;
        self.scopes.get(entry.scope)?.files.get(&page.path)
    }

    /// The page's body, its table of contents and its own stylesheet, with links bound to the
    /// entry's file (a shared page's body is rendered once with deferred links).
    #[cfg(feature = "utilities")]
    fn body(
        &self,
        site: &Site,
        tree: &SourceTree,
        specs: &mut Specs<'_>,
        highlighter: &dyn Highlight,
        entry: &Entry,
        links: &Linker<'_>,
        warnings: &mut Vec<String>,
        twin: &mut MarkdownTwin<'_>,
    ) -> Option<Body> {
        let page = site.pages.get(entry.index)?;
        #[cfg(test)]
        BODY_RENDERS.with(|n| n.set(n.get() + 1));
        // A generated page's body is its reference section alone (rendered below from `openapi`).
        let source = match page.is_generated() {
            true => Default::default(),
            false => tree
                .get(&page.source)
                .map(|b| source_text::read(b))
                .unwrap_or_default(),
        };
        let (yaml, body) = frontmatter::split(&source);
        // Parsed once for the layout and the API reference.
        let parsed = yaml.and_then(|y| frontmatter::parse(y).ok());
        let mode = PageMode::of(parsed.as_ref());
        let api = yaml
            .filter(|_| page.openapi.is_none())
            .and_then(|y| api_page::api_frontmatter(y, parsed.as_ref()));
        let stylesheet = style::stylesheet(body);
        let rendered = match twin.targets.filter(|_| !page.is_generated()) {
            Some(targets) => {
                let md_links = Linker::new(&page.path, &page.source, targets, tree, &self.domain);
                let (rendered, md) = markdown::render_mdx_and_markdown(
                    body,
                    &page.source,
                    tree,
                    links,
                    highlighter,
                    &md_links,
                );
                twin.rendered = Some(md);
                rendered
            }
            None => markdown::render_mdx(body, &page.source, tree, links, highlighter),
        };
        for (first_line, reason) in &rendered.unrendered_diagrams {
            let line = source
                .lines()
                .position(|l| l.trim() == first_line)
                .map_or(String::new(), |i| format!(":{}", i + 1));
            warnings.push(format!(
                "{}{line}: Mermaid diagram shown as code: {reason}",
                page.source
            ));
        }
        let mut toc = rendered.headings;
        let (html, api_headings) = api_page::lay_out(
            rendered.html,
            page.openapi.as_deref(),
            api,
            body,
            (&page.source, &page.title),
            &site.config,
            specs,
            &links.without_assets(),
            highlighter,
        );
        toc.extend(api_headings);
        Some(Body {
            html,
            toc,
            mode,
            stylesheet,
        })
    }

    #[cfg(feature = "utilities")]
    fn render_page(
        &self,
        site: &Site,
        tree: &SourceTree,
        specs: &mut Specs<'_>,
        highlighter: &dyn Highlight,
        entry: &Entry,
        shared: &mut Option<(usize, Body)>,
        warnings: &mut Vec<String>,
        twin: &mut MarkdownTwin<'_>,
    ) -> Option<[Option<ExportFile>; 2]> {
        let index = entry.index;
        let page = site.pages.get(index)?;
        let scope = self.scopes.get(entry.scope)?;
        let file = scope.files.get(&page.path)?.clone();
        let mut links = Linker::new(&page.path, &page.source, &scope.files, tree, &self.domain);
        links.from = file.clone();
        let body = if entry.shared {
            if shared.as_ref().is_none_or(|(i, _)| *i != index) {
                let deferred = Linker::new(
                    &page.path,
                    &page.source,
                    &self.scopes[0].files,
                    tree,
                    &self.domain,
                )
                .deferred();
                *shared = self
                    .body(
                        site,
                        tree,
                        specs,
                        highlighter,
                        entry,
                        &deferred,
                        warnings,
                        twin,
                    )
                    .map(|b| (index, b));
            }
            let cached = &shared.as_ref()?.1;
            Body {
                html: links::resolve_deferred(&cached.html, &file, &scope.retarget),
                ..cached.clone()
            }
        } else {
            self.body(
                site,
                tree,
                specs,
                highlighter,
                entry,
                &links,
                warnings,
                twin,
            )?
        };
        let page_file = file.strip_suffix(".html").unwrap_or(&file);
        let stylesheet = body
            .stylesheet
            .clone()
            .map(|css| ExportFile::new(style::file_for(page_file), css));
        let empty = Vec::new();
        let tabs = scope.nav.get(&page.language).unwrap_or(&empty);
        let place = scope.place.get(&page.language);
        let current_tab = match place.and_then(|(_, tab_of)| tab_of.get(&index)) {
            Some(&tab) => Some(tab),
            None => nav::current_tab(tabs, index, site),
        };
        let tab = current_tab.unwrap_or(0);
        let contents = tabs
            .get(tab)
            .filter(|t| t.items.len() > nav::SECTION_WINDOW)
            .and_then(|_| self.contents_page(entry.scope, &page.language, tab))
            .map(|path| links.file(&output_file(&path)));
        let order = scope
            .order
            .get(&page.language)
            .map_or(&[][..], Vec::as_slice);
        let position = place
            .and_then(|(position, _)| position.get(&index))
            .copied();
        let neighbour = |p: Option<usize>| {
            p.and_then(|p| order.get(p))
                .and_then(|&i| site.pages.get(i))
        };
        let view = PageView {
            site,
            page,
            index,
            links: &links,
            brand: &self.brand,
            canonical: links::absolute(&self.domain, &page.path),
            home: scope
                .homes
                .get(&page.language)
                .and_then(|&i| site.pages.get(i))
                .map(|p| p.path.as_str()),
            tabs,
            tab: current_tab,
            contents,
            prev: neighbour(position.and_then(|p| p.checked_sub(1))),
            next: neighbour(position.map(|p| p + 1)),
            languages: self.language_links(site, scope, page),
            body: &body.html,
            toc: &body.toc,
            search: self.search,
            search_dir: self.search_dir(entry.scope, &page.language),
            version_switch: self.version_switch(site, entry.scope, page, &links),
            assistant: self.extras.assistant.as_ref(),
            widget_folders: &self.widget_folders,
            widget_support: self.widget_support.as_deref(),
            domain: &self.domain,
            mode: body.mode,
            stylesheet: stylesheet.as_ref().map(|file| links.file(&file.path)),
        };
        Some([
            Some(ExportFile::new(file, layout::page_html(&view))),
            stylesheet,
        ])
    }

    /// The offline search index of `language` in version `scope`: one per version, so a reader
    /// finds the pages of the version they are reading.
    fn search_dir(&self, scope: usize, language: &str) -> String {
        match self.scopes.get(scope).and_then(|s| s.prefix.as_deref()) {
            Some(prefix) => format!("{SEARCH_DIR}/{language}.{prefix}/"),
            None => format!("{SEARCH_DIR}/{language}/"),
        }
    }

    /// The version switch of `page` in version `scope`: the same page in each other version the
    /// bundle holds when it has it, else that version's first page; other versions on the live site.
    fn version_switch(
        &self,
        site: &Site,
        scope: usize,
        page: &crate::docs::Page,
        links: &Linker<'_>,
    ) -> String {
        let mut choices = Vec::new();
        for (n, other) in self.scopes.iter().enumerate() {
            let Some(label) = other.version.as_deref() else {
                continue;
            };
            let file = match other.index_of.get(&page.path) {
                Some(_) => other.files.get(&page.path),
                None => other
                    .homes
                    .get(&page.language)
                    .or_else(|| other.homes.values().next())
                    .and_then(|&i| site.pages.get(i))
                    .and_then(|home| other.files.get(&home.path)),
            };
            if let Some(file) = file {
                choices.push(versions::Choice {
                    label,
                    target: versions::Target::File(file.clone()),
                    current: n == scope,
                });
            }
        }
        for (label, paths, first) in &self.elsewhere {
            let path = if paths.contains(&page.path) {
                Some(page.path.as_str())
            } else {
                first.as_deref()
            };
            if let Some(path) = path {
                choices.push(versions::Choice {
                    label,
                    target: versions::live(&self.domain, path),
                    current: false,
                });
            }
        }
        versions::switch_html(&choices, links)
    }

    /// Page path (without `.html`) of the contents page of tab `tab` of `language`. Languages are
    /// numbered rather than named so that no docs.json label ends up in a file name.
    fn contents_page(&self, scope: usize, language: &str, tab: usize) -> Option<String> {
        let n = self
            .scopes
            .get(scope)?
            .nav
            .keys()
            .position(|l| l == language)?;
        Some(match scope {
            0 => format!("{CONTENTS_DIR}/{n}-{tab}"),
            _ => format!("{CONTENTS_DIR}/{n}-{tab}-{scope}"),
        })
    }

    /// The contents pages of the tabs whose sidebars cannot list every section.
    fn contents_pages(&self, site: &Site, tree: &SourceTree) -> Vec<ExportFile> {
        let mut files = Vec::new();
        for (s, scope) in self.scopes.iter().enumerate() {
            for (language, tabs) in &scope.nav {
                let home = scope
                    .homes
                    .get(language)
                    .and_then(|&i| site.pages.get(i))
                    .map(|p| p.path.as_str());
                for (i, tab) in tabs.iter().enumerate() {
                    if tab.items.len() <= nav::SECTION_WINDOW {
                        continue;
                    }
                    let Some(path) = self.contents_page(s, language, i) else {
                        continue;
                    };
                    let links = Linker::new(&path, "", &scope.files, tree, &self.domain);
                    let html =
                        layout::contents_page_html(site, tab, language, &links, &self.brand, home);
                    files.push(ExportFile::new(output_file(&path), html));
                }
            }
        }
        files
    }

    /// Other languages of the site: the same page in that language when exported, else its home.
    fn language_links<'s>(
        &self,
        site: &'s Site,
        scope: &Scope,
        page: &crate::docs::Page,
    ) -> Vec<(&'s str, &'s str)> {
        let base = if page.language == self.default_language {
            page.path.as_str()
        } else {
            page.path
                .strip_prefix(&format!("{}/", page.language))
                .unwrap_or(&page.path)
        };
        let mut out = Vec::new();
        for language in &site.languages {
            if *language == page.language {
                continue;
            }
            let candidate = if *language == self.default_language {
                base.to_owned()
            } else {
                format!("{language}/{base}")
            };
            let target = scope
                .index_of
                .get(&candidate)
                .filter(|&&i| site.pages.get(i).is_some_and(|p| p.language == *language))
                .or_else(|| scope.homes.get(language));
            if let Some(target) = target.and_then(|&i| site.pages.get(i)) {
                out.push((language.as_str(), target.path.as_str()));
            }
        }
        out
    }

    /// Everything but the pages: stylesheet, script, search index, sitemap, robots.txt, 404 page
    /// and the tree files the pages reference. Sorted by path.
    #[cfg(feature = "embedded-static")]
    pub fn finishing_files(&self, site: &Site, tree: &SourceTree) -> Vec<ExportFile> {
        self.finishing_files_with(site, tree, &StaticFiles::EMBEDDED)
    }

    /// `finishing_files` with the files of `static/` as given (the worker reads them from its assets).
    pub fn finishing_files_with(
        &self,
        site: &Site,
        tree: &SourceTree,
        statics: &StaticFiles,
    ) -> Vec<ExportFile> {
        self.finishing_files_around(site, tree, statics, self.chrome_pages(site, tree))
    }

    /// `finishing_files_with` around the [`ExportPlan::chrome_pages`] as given (their icons filled).
    pub fn finishing_files_around(
        &self,
        site: &Site,
        tree: &SourceTree,
        statics: &StaticFiles,
        chrome: Vec<ExportFile>,
    ) -> Vec<ExportFile> {
        let mut pages = FinishingPages::new(self.search);
        let targets = self.link_targets();
        for entry in &self.pages {
            let Some(page) = site.pages.get(entry.index) else {
                continue;
            };
            let search_as = self.search_as(site, entry);
            match entry.first {
                true => pages.add(page, tree, &targets, &self.domain, search_as),
                false => pages.add_copy(page, search_as),
            }
        }
        self.finish(pages, site, tree, statics, chrome)
    }

    /// The pages among the finishing files, the 404 page and the tabs' contents pages: their icons
    /// (sidebar groups, tabs) are markers for the host to fill ([`super::page::icons::fill`]) as it fills
    /// the rendered pages', before handing them to [`ExportPlan::finish`]. `tree` as there.
    pub fn chrome_pages(&self, site: &Site, tree: &SourceTree) -> Vec<ExportFile> {
        let root_links = Linker::new("404", "", &self.scopes[0].files, tree, &self.domain);
        let not_found = layout::not_found_html(
            site,
            &root_links,
            &self.brand,
            &links::absolute(&self.domain, "index"),
        );
        let mut files = vec![ExportFile::new(
            layout::NOT_FOUND_FILE.to_owned(),
            not_found,
        )];
        files.extend(self.contents_pages(site, tree));
        files
    }

    /// Where gathering the finishing files starts: no page added.
    pub fn finishing_pages(&self) -> FinishingPages {
        FinishingPages::new(self.search)
    }

    /// Adds the pages at `range` of the plan order (clamped) to `into`, their text read from `tree`
    /// (which holds the files [`super::batch_files`] names for `range`). `outline` is the site's
    /// outline, pages without sections: each added page gets the first line of its text, all
    /// `llms.txt` says of a page without a description, so [`ExportPlan::finish`] takes it.
    pub fn add_finishing_pages(
        &self,
        into: &mut FinishingPages,
        outline: &mut Site,
        tree: &SourceTree,
        range: Range<usize>,
    ) {
        let targets = self.link_targets();
        // A page's copies in later versions follow it: its sections are read once.
        let mut last: Option<(usize, crate::docs::Page)> = None;
        let mut specs = SpecLookup::new(tree);
        for entry in self.batch(range) {
            let search_as = self.search_as(outline, entry);
            let Some(page) = outline.pages.get_mut(entry.index) else {
                continue;
            };
            // A first entry's sections and Markdown come from one walk of its body.
            let mut markdown = None;
            if last.as_ref().is_none_or(|(i, _)| *i != entry.index) {
                let mut read = page.clone();
                match entry.first {
                    true => {
                        let (sections, rendered) =
                            agent::sections_and_markdown(page, tree, &targets, &self.domain);
                        read.sections = sections;
                        markdown = Some(rendered);
                    }
                    false => read.sections = page_sections(tree, page),
                }
                add_operation_sections(tree, &mut specs, &mut read);
                last = Some((entry.index, read));
            }
            let Some((_, read)) = &last else { continue };
            if !entry.first {
                into.add_copy(read, search_as);
                continue;
            }
            match markdown {
                Some(markdown) => into.add_rendered(read, &markdown, tree, search_as),
                None => into.add(read, tree, &targets, &self.domain, search_as),
            }
            let first_line = crate::agents::summary::first_line(read).to_owned();
            page.sections = vec![Section {
                text: first_line,
                ..Section::default()
            }];
        }
    }

    /// Where an entry's sections go in the offline search: its version's index, its file.
    fn search_as(&self, site: &Site, entry: &Entry) -> SearchAs {
        let language = site
            .pages
            .get(entry.index)
            .map_or("", |p| p.language.as_str());
        let dir = self.search_dir(entry.scope, language);
        let key = dir
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(language)
            .to_owned();
        SearchAs {
            key,
            file: self.file_of(site, entry).cloned().unwrap_or_default(),
        }
    }

    /// The files whose bytes [`ExportPlan::finish`] copies into the bundle: the assets the added
    /// pages reference and the logos and favicon.
    pub fn finishing_assets(&self, pages: &FinishingPages) -> BTreeSet<String> {
        let mut assets = pages.referenced.clone();
        assets.extend(self.brand.files().cloned());
        assets
    }

    /// The finishing files from the pages gathered in `pages`: `site` the whole site or the outline
    /// [`ExportPlan::add_finishing_pages`] filled, `tree` naming every file with the bytes of
    /// [`ExportPlan::finishing_assets`] and of the files every batch reads; `chrome` the
    /// [`ExportPlan::chrome_pages`], their icons filled or not.
    pub fn finish(
        &self,
        pages: FinishingPages,
        site: &Site,
        tree: &SourceTree,
        statics: &StaticFiles,
        chrome: Vec<ExportFile>,
    ) -> Vec<ExportFile> {
        let mut files = Vec::new();
        self.finish_into(pages, site, tree, statics, chrome, &mut |file| {
            files.push(file)
        });
        files
    }

    /// [`ExportPlan::finish`], each file handed to `emit` in path order as it is made, so the
    /// search index is never held as files.
    pub(super) fn finish_into(
        &self,
        pages: FinishingPages,
        site: &Site,
        tree: &SourceTree,
        statics: &StaticFiles,
        chrome: Vec<ExportFile>,
        emit: &mut dyn FnMut(ExportFile),
    ) {
        let mut files = vec![
            ExportFile::new(CSS_FILE.to_owned(), self.stylesheet(site, statics)),
            ExportFile::new(
                JS_FILE.to_owned(),
                format!(
                    "{}{}{}",
                    statics.site_js,
                    statics.chrome_js,
                    self.extras.script(statics)
                ),
            ),
            ExportFile::new("sitemap.xml".to_owned(), self.sitemap(site)),
            ExportFile::new(
                "robots.txt".to_owned(),
                format!(
                    "User-agent: *\nAllow: /\n\nSitemap: https://{}/sitemap.xml\n",
                    self.domain
                ),
            ),
        ];
        files.extend(chrome);
        let referenced = self.finishing_assets(&pages);
        let unique: Vec<usize> = self
            .pages
            .iter()
            .filter(|e| e.first)
            .map(|e| e.index)
            .collect();
        files.extend(agent::llms_files(
            site,
            &unique,
            &self.link_targets(),
            pages.llms_full,
        ));
        let skill = site_skill(tree, &mut Vec::new());
        let skills = site_skills(tree, skill.as_deref(), &mut Vec::new());
        files.extend(
            well_known_files(&skills)
                .into_iter()
                .map(|(path, bytes)| ExportFile { path, bytes }),
        );
        if let Some(skill) = skill {
            files.push(ExportFile::new(SKILL_FILE.to_owned(), skill));
        }
        let written: BTreeSet<String> = files
            .iter()
            .map(|f| f.path.clone())
            .chain(self.written())
            .collect();
        files.extend(stubs::entry_files(&self.entry(site, tree), &written));

        // The search index's files are all under its directory, inside `_static/`, which no asset
        // is copied into.
        let taken: BTreeSet<String> = files
            .iter()
            .map(|f| f.path.clone())
            .chain(self.written())
            .collect();
        for path in referenced {
            if taken.contains(&path) || path.starts_with(&format!("{STATIC_DIR}/")) {
                continue;
            }
            if let Some(bytes) = tree.get(&path).and_then(|bytes| asset_bytes(&path, bytes)) {
                files.push(ExportFile {
                    path: links::bundle_path(&path).into_owned(),
                    bytes,
                });
            }
        }
        crate::sort::sort_by(&mut files, |a, b| a.path.cmp(&b.path));
        // Nothing else is under the search directory, so its files sort together, where its
        // directory would.
        let search_dir = format!("{SEARCH_DIR}/");
        let mut search = pages.search;
        for file in files {
            if file.path.as_str() > search_dir.as_str() {
                if let Some(search) = search.take() {
                    search.write_files(emit);
                }
            }
            emit(file);
        }
        if let Some(search) = search {
            search.write_files(emit);
        }
    }

    /// What the root page and the redirect stubs are made from; homes in the default language first.
    fn entry<'s>(&'s self, site: &'s Site, tree: &'s SourceTree) -> stubs::Entry<'s> {
        let first = &self.scopes[0];
        let others = first
            .homes
            .keys()
            .filter(|language| **language != self.default_language);
        let homes = std::iter::once(&self.default_language)
            .chain(others)
            .filter_map(|language| first.homes.get(language).and_then(|&i| site.pages.get(i)))
            .collect();
        stubs::Entry {
            site,
            tree,
            domain: &self.domain,
            files: &first.files,
            index_of: &first.index_of,
            homes,
        }
    }

    /// Every page file the bundle holds, copies included.
    fn written(&self) -> impl Iterator<Item = String> + '_ {
        self.scopes.iter().flat_map(|s| s.files.values().cloned())
    }

    /// Exported page path -> the file `llms.txt` and the Markdown link for it.
    fn link_targets(&self) -> BTreeMap<String, String> {
        match self.markdown {
            MarkdownPages::Pages => agent::markdown_files(&self.scopes[0].files),
            MarkdownPages::LlmsFull => self.scopes[0].files.clone(),
        }
    }

    /// The shared stylesheet, docs.json colours first.
    fn stylesheet(&self, site: &Site, statics: &StaticFiles) -> String {
        let colors = &site.config.colors;
        let pick = |c: Option<&String>, fallback: &'static str| -> String {
            c.and_then(|c| crate::export::html::safe_color(c))
                .unwrap_or(fallback)
                .to_owned()
        };
        let primary = pick(colors.primary.as_ref(), "#2563eb");
        let light = pick(colors.light.as_ref().or(colors.primary.as_ref()), "#60a5fa");
        let dark = pick(colors.dark.as_ref().or(colors.primary.as_ref()), "#1d4ed8");
        format!(
            ":root{{--primary:{primary};--primary-light:{light};--primary-dark:{dark};{}}}\n{}{}{}{}{}{}",
            super::page::contrast::link_colors(&primary, &light),
            statics.site_css,
            statics.chrome_css,
            statics.api_css,
            statics.layout_css,
            super::page::site_look::stylesheet(&site.config, &self.brand.look, CSS_FILE),
            self.extras.stylesheet(statics)
        )
    }

    /// Extensionless absolute URLs of the shown (not hidden) pages.
    fn sitemap(&self, site: &Site) -> String {
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for page in self
            .pages
            .iter()
            .filter(|e| e.first)
            .filter_map(|e| site.pages.get(e.index))
        {
            if page.hidden {
                continue;
            }
            out.push_str("<url><loc>");
            crate::export::html::text(&mut out, &links::absolute(&self.domain, &page.path));
            out.push_str("</loc></url>\n");
        }
        out.push_str("</urlset>\n");
        out
    }
}

/// `docs.example.com`, also from `https://docs.example.com/`; a subpath (`example.com/docs`) is kept.
fn normalise_domain(raw: &str) -> Result<String, ExportError> {
    let d = raw.trim();
    let d = d
        .strip_prefix("https://")
        .or_else(|| d.strip_prefix("http://"))
        .unwrap_or(d)
        .trim_matches('/');
    let valid = !d.is_empty()
        && !d.starts_with('.')
        && !d.contains("//")
        && d.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '/' | '_' | '~'));
    if valid {
        Ok(d.to_owned())
    } else {
        Err(ExportError::InvalidDomain {
            domain: raw.to_owned(),
        })
    }
}

/// Render order: the first version's pages in the site's order, each followed by its copies in
/// later versions, then each later version's own pages likewise.
fn render_order(site: &Site, scopes: &[Scope], owner: &BTreeMap<usize, usize>) -> Vec<Entry> {
    let mut entries = Vec::new();
    for (n, scope) in scopes.iter().enumerate() {
        for i in (0..site.pages.len()).filter(|i| owner.get(i) == Some(&n)) {
            let Some(page) = site.pages.get(i) else {
                continue;
            };
            if scope.index_of.get(&page.path) != Some(&i) {
                continue;
            }
            let holders: Vec<usize> = (n..scopes.len())
                .filter(|&m| scopes[m].index_of.get(&page.path) == Some(&i))
                .collect();
            let shared = holders.len() > 1;
            for (k, &m) in holders.iter().enumerate() {
                entries.push(Entry {
                    index: i,
                    scope: m,
                    first: k == 0,
                    shared,
                });
            }
        }
    }
    entries
}

/// Where a page's Markdown file ([`MarkdownPages::Pages`]) is rendered in the walk of its HTML body.
struct MarkdownTwin<'m> {
    /// Its links' targets (page path -> `.md` file) when the entry's Markdown file is wanted.
    targets: Option<&'m BTreeMap<String, String>>,
    /// The rendered body, when the HTML body's walk wrote it.
    rendered: Option<String>,
}

/// What a page's body renders to, before the page shell.
#[derive(Debug, Clone)]
struct Body {
    html: String,
    toc: Vec<crate::export::render::markdown::Heading>,
    mode: PageMode,
    stylesheet: Option<String>,
}

#[cfg(test)]
thread_local! {
    /// Bodies rendered on this thread: a page several versions share counts once.
    pub(super) static BODY_RENDERS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::archive::tree;
    use crate::docs::build_site;
    use crate::export::{PageExtras, PlainCode, MARKDOWN_PAGES_DEFAULT_MAX};

    fn opts() -> ExportOptions {
        ExportOptions {
            version: None,
            versions: None,
            paths: None,
            domain: "docs.example.com".into(),
            mtime: 0,
            features: Default::default(),
            markdown: None,
        }
    }

    fn versioned() -> (Site, SourceTree) {
        let t = tree(&[
            (
                "docs.json",
                r#"{"navigation": {"versions": [
                    {"version": "v1", "pages": ["v1/a"]},
                    {"version": "v2", "default": true, "pages": ["v2/a", "v2/b"]}]}}"#,
            ),
            ("v1/a.mdx", "[b](/v2/b) [old](/v1/a)"),
            ("v2/a.mdx", "[b](/v2/b) [old](/v1/a)"),
            ("v2/b.mdx", "B"),
        ]);
        (build_site(&t).unwrap(), t)
    }

    #[test]
    fn default_version_is_the_marked_one_and_unknown_versions_are_named() {
        let (site, t) = versioned();
        let plan = ExportPlan::new(&site, &t, &opts()).unwrap();
        assert_eq!(plan.version(), Some("v2"));
        assert_eq!(plan.page_paths(&site), ["v2/a", "v2/b"]);
        let err = ExportPlan::new(
            &site,
            &t,
            &ExportOptions {
                version: Some("v9".into()),
                versions: None,
                ..opts()
            },
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("v9") && err.to_string().contains("v1"),
            "{err}"
        );
        let v1 = ExportPlan::new(
            &site,
            &t,
            &ExportOptions {
                version: Some("v1".into()),
                versions: None,
                ..opts()
            },
        )
        .unwrap();
        assert_eq!(v1.page_paths(&site), ["v1/a"]);
    }

    #[test]
    fn links_to_other_versions_stay_absolute() {
        let (site, t) = versioned();
        let plan = ExportPlan::new(&site, &t, &opts()).unwrap();
        let files = plan.render_pages(&site, &t, 0..1, &PlainCode);
        let html = String::from_utf8(files[0].bytes.clone()).unwrap();
        assert!(html.contains("<a href=\"b.html\">b</a>"), "{html}");
        assert!(
            html.contains("<a href=\"https://docs.example.com/v1/a\">old</a>"),
            "{html}"
        );
    }

    #[test]
    fn paths_filter_accepts_slashes_and_names_unknown_paths() {
        let (site, t) = versioned();
        let plan = ExportPlan::new(
            &site,
            &t,
            &ExportOptions {
                paths: Some(vec!["/v2/b".into()]),
                ..opts()
            },
        )
        .unwrap();
        assert_eq!(plan.page_paths(&site), ["v2/b"]);
        let err = ExportPlan::new(
            &site,
            &t,
            &ExportOptions {
                paths: Some(vec!["nope".into(), "v2/a".into(), "/x/".into()]),
                ..opts()
            },
        )
        .unwrap_err();
        assert_eq!(
            err,
            ExportError::UnknownPaths {
                paths: vec!["nope".into(), "/x/".into()]
            }
        );
    }

    #[test]
    fn domains_are_normalised_or_refused() {
        assert_eq!(
            normalise_domain("https://docs.x.dev/").unwrap(),
            "docs.x.dev"
        );
        assert_eq!(normalise_domain("x.dev/docs").unwrap(), "x.dev/docs");
        assert!(normalise_domain("").is_err());
        assert!(normalise_domain("x.dev\"><script>").is_err());
    }

    #[test]
    fn a_generated_api_page_shows_its_operation_description_as_markdown_once() {
        let t = tree(&[
            (
                "docs.json",
                r#"{"navigation": {"groups": [{"group": "API", "openapi": "openapi.json", "pages": ["POST /chat"]}]}}"#,
            ),
            (
                "openapi.json",
                r#"{"openapi": "3.1.0", "paths": {"/chat": {"post": {"summary": "Chat", "description": "**Available for**: Chatflow apps.\n\nSends a message.", "responses": {"200": {"description": "ok"}}}}}}"#,
            ),
        ]);
        let site = build_site(&t).unwrap();
        let plan = ExportPlan::new(&site, &t, &opts()).unwrap();
        let files = plan.render_pages(&site, &t, 0..9, &PlainCode);
        let html = files
            .iter()
            .find(|f| f.path.ends_with(".html"))
            .map(|f| String::from_utf8_lossy(&f.bytes).into_owned())
            .unwrap();
        let body = &html[html.find("<body").unwrap()..];
        assert!(
            body.contains(
                "<strong>Available for</strong>: Chatflow apps.</p><p>Sends a message.</p>"
            ),
            "{body}"
        );
        assert!(!body.contains("**"), "raw Markdown: {body}");
        assert_eq!(body.matches("Sends a message.").count(), 1, "{body}");
    }

    #[test]
    fn a_site_that_hides_the_playground_gets_no_try_it_panel() {
        for (file, api, shown) in [
            (
                "docs.json",
                r#""api": {"playground": {"display": "none"}}"#,
                false,
            ),
            (
                "mint.json",
                r#""api": {"playground": {"mode": "hide"}}"#,
                false,
            ),
            (
                "docs.json",
                r#""api": {"playground": {"display": "interactive"}}"#,
                true,
            ),
        ] {
            let config = format!(r#"{{"name": "x", {api}, "navigation": {{"pages": ["a"]}}}}"#);
            let config = if file == "mint.json" {
                config.replace(
                    r#""navigation": {"pages": ["a"]}"#,
                    r#""navigation": [{"group": "G", "pages": ["a"]}]"#,
                )
            } else {
                config
            };
            let t = tree(&[
                (file, config.as_str()),
                (
                    "a.mdx",
                    "---\ntitle: A\napi: \"GET https://api.example.com/x\"\n---\n",
                ),
            ]);
            let site = build_site(&t).unwrap();
            let extras = PageExtras {
                playground: true,
                ..PageExtras::default()
            };
            let plan = ExportPlan::new(&site, &t, &opts())
                .unwrap()
                .with_extras(extras);
            let html: String = plan
                .render_pages(&site, &t, 0..9, &PlainCode)
                .iter()
                .map(|f| String::from_utf8_lossy(&f.bytes).into_owned())
                .collect();
            assert_eq!(html.contains("try-it"), shown, "{file} {api}");
        }
    }

    #[test]
    fn ranges_are_clamped() {
        let (site, t) = versioned();
        let plan = ExportPlan::new(&site, &t, &opts()).unwrap();
        assert_eq!(
            plan.render_pages(&site, &t, 1..99, &PlainCode).len(),
            2,
            "one page: its .html and .md"
        );
        let reversed = std::ops::Range { start: 5, end: 3 };
        assert!(plan
            .render_pages(&site, &t, reversed, &PlainCode)
            .is_empty());
    }

    #[test]
    fn without_markdown_pages_llms_files_link_the_html_pages() {
        let (site, t) = versioned();
        let options = ExportOptions {
            markdown: Some(MarkdownPages::LlmsFull),
            ..opts()
        };
        let plan = ExportPlan::new(&site, &t, &options).unwrap();
        let pages = plan.render_pages(&site, &t, 0..9, &PlainCode);
        assert_eq!(
            pages.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(),
            ["v2/a.html", "v2/b.html"]
        );
        let finishing = plan.finishing_files(&site, &t);
        assert!(!finishing.iter().any(|f| f.path.ends_with(".md")));
        let text = |name: &str| {
            String::from_utf8(
                finishing
                    .iter()
                    .find(|f| f.path == name)
                    .unwrap()
                    .bytes
                    .clone(),
            )
            .unwrap()
        };
        let index = text("llms.txt");
        assert!(
            index.contains("(v2/b.html)") && !index.contains(".md)"),
            "{index}"
        );
        let full = text("llms-full.txt");
        assert!(
            full.contains("[b](b.html)") && !full.contains(".md)"),
            "{full}"
        );

        assert_eq!(
            MarkdownPages::resolve(None, MARKDOWN_PAGES_DEFAULT_MAX),
            MarkdownPages::Pages
        );
        assert_eq!(
            MarkdownPages::resolve(None, MARKDOWN_PAGES_DEFAULT_MAX + 1),
            MarkdownPages::LlmsFull
        );
        assert_eq!(
            MarkdownPages::resolve(Some(MarkdownPages::Pages), 50_000),
            MarkdownPages::Pages
        );
    }
}

#[cfg(test)]
mod version_tests {
    use super::*;
    use crate::docs::archive::tree;
    use crate::docs::build_site;
    use crate::export::{ExportVersions, PlainCode, SEARCH_INDEX_FILE};

    /// Two versions sharing `shared/intro`; the default (v2) listed second.
    fn two_versions() -> (Site, SourceTree) {
        let t = tree(&[
            (
                "docs.json",
                r#"{"navigation": {"versions": [
                    {"version": "v1", "groups": [{"group": "Old", "pages": ["v1/a", "shared/intro"]}]},
                    {"version": "v2", "default": true, "groups": [{"group": "New", "pages": ["v2/a", "shared/intro", "v2/b"]}]}]}}"#,
            ),
            (
                "v1/a.mdx",
                "---\ntitle: Old A\n---\nRead [the intro](/shared/intro) and ![logo](/logo.png).",
            ),
            (
                "v2/a.mdx",
                "---\ntitle: New A\n---\nRead [the intro](/shared/intro).",
            ),
            ("v2/b.mdx", "---\ntitle: New B\n---\nBravo."),
            (
                "shared/intro.mdx",
                "---\ntitle: Intro\n---\nShared [a](/v2/a) [self](#x) ![logo](/logo.png)\n\n## X\n",
            ),
            ("logo.png", "png"),
        ]);
        (build_site(&t).unwrap(), t)
    }

    fn options(versions: Option<ExportVersions>) -> ExportOptions {
        ExportOptions {
            domain: "docs.example.com".into(),
            versions,
            ..ExportOptions::default()
        }
    }

    fn text(files: &[ExportFile], path: &str) -> String {
        let file = files
            .iter()
            .find(|f| f.path == path)
            .unwrap_or_else(|| panic!("no {path}"));
        String::from_utf8(file.bytes.clone()).unwrap()
    }

    #[test]
    fn all_versions_keep_the_default_paths_and_copy_shared_pages_under_the_version_prefix() {
        let (site, t) = two_versions();
        let plan = ExportPlan::new(&site, &t, &options(Some(ExportVersions::All))).unwrap();
        assert_eq!(plan.versions(), ["v2", "v1"]);
        assert_eq!(
            plan.page_paths(&site),
            ["shared/intro", "v1/shared/intro", "v2/a", "v2/b", "v1/a"]
        );
        BODY_RENDERS.with(|n| n.set(0));
        let files = plan.render_pages(&site, &t, 0..plan.page_count(), &PlainCode);
        assert_eq!(
            BODY_RENDERS.with(|n| n.get()),
            4,
            "five files, the shared page's body rendered once"
        );

        let shared = text(&files, "shared/intro.html");
        let copy = text(&files, "v1/shared/intro.html");
        assert!(
            shared.contains("href=\"../v2/a.html\"") && copy.contains("href=\"../../v2/a.html\""),
            "{copy}"
        );
        assert!(
            shared.contains("src=\"../logo.png\"") && copy.contains("src=\"../../logo.png\""),
            "{copy}"
        );
        assert!(
            copy.contains("href=\"#x\""),
            "a link to the page itself stays a fragment"
        );
        assert!(!copy.contains('\u{E000}'), "no marker is left");
        // The copy keeps the live page's canonical URL and shows v1's sidebar.
        assert!(copy
            .contains("<link rel=\"canonical\" href=\"https://docs.example.com/shared/intro\">"));
        let sidebar = |html: &str| {
            html.split("<aside")
                .nth(1)
                .and_then(|s| s.split("</aside>").next())
                .unwrap_or("")
                .to_owned()
        };
        assert!(
            sidebar(&copy).contains("Old A") && !sidebar(&copy).contains("New A"),
            "{copy}"
        );
        assert!(sidebar(&shared).contains("New A") && !sidebar(&shared).contains("Old A"));
        // v1's own page links to v1's copy of the shared page.
        assert!(text(&files, "v1/a.html").contains("href=\"shared/intro.html\""));

        // The switch: the same page in the other version, else its first page.
        assert!(
            shared.contains("class=\"lang-switch version-switch\""),
            "{shared}"
        );
        assert!(
            shared.contains("<a href=\"../v1/shared/intro.html\">v1</a>"),
            "{shared}"
        );
        assert!(
            copy.contains("<a href=\"../../shared/intro.html\">v2</a>"),
            "{copy}"
        );
        assert!(copy.contains("aria-current=\"page\">v1</a>"), "{copy}");
        let b = text(&files, "v2/b.html");
        assert!(
            b.contains("<a href=\"../v1/a.html\">v1</a>"),
            "v1 lacks v2/b: its first page\n{b}"
        );

        // One search index per version, each finding its own copy.
        let finishing = plan.finishing_files(&site, &t);
        assert!(text(&files, "v1/a.html").contains("data-search=\"../_static/search/en.v1/\""));
        let docs = |dir: &str| -> String {
            finishing
                .iter()
                .filter(|f| f.path.starts_with(&format!("_static/search/{dir}/d/")))
                .map(|f| String::from_utf8_lossy(&f.bytes).into_owned())
                .collect()
        };
        assert!(
            docs("en").contains("shared/intro.html") && !docs("en").contains("v1/"),
            "{}",
            docs("en")
        );
        assert!(
            docs("en.v1").contains("v1/shared/intro.html") && docs("en.v1").contains("v1/a.html"),
            "{}",
            docs("en.v1")
        );
        // The sitemap and llms.txt name each page once, at its live URL.
        let sitemap = text(&finishing, "sitemap.xml");
        assert_eq!(sitemap.matches("<loc>").count(), 4, "{sitemap}");
        assert!(!sitemap.contains("v1/shared"));
        let llms = text(&finishing, "llms.txt");
        assert_eq!(llms.matches("shared/intro").count(), 1, "{llms}");
        assert!(!finishing.iter().any(|f| f.path == SEARCH_INDEX_FILE));
    }

    #[test]
    fn the_default_export_holds_one_version_and_links_the_others_to_the_live_site() {
        let (site, t) = two_versions();
        let plan = ExportPlan::new(&site, &t, &options(None)).unwrap();
        assert_eq!(plan.versions(), ["v2"]);
        assert_eq!(
            plan.page_paths(&site),
            ["shared/intro", "v2/a", "v2/b"],
            "the shared page is v2's too"
        );
        let files = plan.render_pages(&site, &t, 0..plan.page_count(), &PlainCode);
        let shared = text(&files, "shared/intro.html");
        assert!(shared.contains("<a href=\"https://docs.example.com/shared/intro\">v1 <span class=\"version-live\">(live site)</span></a>"), "{shared}");
        let b = text(&files, "v2/b.html");
        assert!(
            b.contains("href=\"https://docs.example.com/v1/a\">v1 "),
            "{b}"
        );

        let named = ExportPlan::new(
            &site,
            &t,
            &options(Some(ExportVersions::Only(vec!["v1".into()]))),
        )
        .unwrap();
        assert_eq!(named.versions(), ["v1"]);
        let err = ExportPlan::new(
            &site,
            &t,
            &options(Some(ExportVersions::Only(vec!["v1".into(), "v9".into()]))),
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("versions: unknown version `v9`"),
            "{err}"
        );
    }
}
