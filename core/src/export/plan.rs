//! Which pages an export renders, in what order, and everything derived from the site that more
//! than one page needs (link targets, navigation, language homes). Cheap to build, so every batch
//! (possibly in a fresh isolate) builds it again from the same inputs.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use crate::docs::config::page_path;
use crate::docs::{frontmatter, source_text};
use crate::docs::site::page_sections;
use crate::docs::{DivisionKind, NavItem, Section, Site, SourceTree};

use super::layout::{self, Brand, PageView, CONTENTS_DIR, CSS_FILE, JS_FILE, SEARCH_DIR};
use super::links::{self, is_safe_path, output_file, Linker, STATIC_DIR};
use super::nav::{self, SiteNav};
use super::code::Highlight;
use super::openapi::Specs;
use super::agent::MarkdownPages;
use super::extras::PageExtras;
use super::finishing::FinishingPages;
use super::static_files::StaticFiles;
use super::page_mode::PageMode;
use super::{agent, api_page, assets, markdown, page_style, stubs};
use super::{ExportError, ExportFile, ExportOptions};

/// The pages of one export and what rendering them needs.
#[derive(Debug, Clone)]
pub struct ExportPlan {
    domain: String,
    version: Option<String>,
    /// Indices into `Site::pages`, in render order (the site's order: navigation, then unlisted).
    pages: Vec<usize>,
    /// Exported page path -> output file, for links.
    files: BTreeMap<String, String>,
    /// Exported page path -> index into `Site::pages`.
    index_of: BTreeMap<String, usize>,
    nav: SiteNav,
    /// Navigation order per language, for previous/next.
    order: BTreeMap<String, Vec<usize>>,
    /// First page per language: where the language switch goes when a page has no counterpart.
    homes: BTreeMap<String, usize>,
    default_language: String,
    brand: Brand,
    /// Search box and index in the pages (the deployment's search switch).
    search: bool,
    markdown: MarkdownPages,
    extras: PageExtras,
    /// `widget::folder_pages` of `files`, once rather than per page.
    widget_folders: String,
}

impl ExportPlan {
    /// Chooses the pages: the requested version (default: the docs.json default, else the first),
    /// all languages, only `paths` when given. Unknown versions or paths are errors naming them.
    pub fn new(
        site: &Site,
        tree: &SourceTree,
        options: &ExportOptions,
    ) -> Result<ExportPlan, ExportError> {
        let domain = normalise_domain(&options.domain)?;
        let version = choose_version(site, options.version.as_deref())?;
        let mut pages = Vec::new();
        let mut index_of = BTreeMap::new();
        for (i, page) in site.pages.iter().enumerate() {
            let in_version = match (&version, &page.version) {
                (Some(chosen), Some(v)) => v == chosen,
                _ => true,
            };
            // One file per path: a page listed under two languages is rendered once.
            if in_version && is_safe_path(&page.path) && !index_of.contains_key(&page.path) {
                index_of.insert(page.path.clone(), i);
                pages.push(i);
            }
        }
        if let Some(wanted) = &options.paths {
            let mut keep = BTreeSet::new();
            let mut unknown = Vec::new();
            for raw in wanted {
                let path = page_path(raw).unwrap_or_else(|| "index".to_owned());
                match index_of.get(&path) {
                    Some(&i) => {
                        keep.insert(i);
                    }
                    None => unknown.push(raw.clone()),
                }
            }
            if !unknown.is_empty() {
                return Err(ExportError::UnknownPaths { paths: unknown });
            }
            pages.retain(|i| keep.contains(i));
            index_of.retain(|_, i| keep.contains(i));
        }
        if pages.is_empty() {
            return Err(ExportError::NoPages);
        }
        let files = crate::sort::map_from(index_of.keys().map(|path| (path.clone(), output_file(path))));
        let default_language = site
            .languages
            .first()
            .cloned()
            .unwrap_or_else(|| crate::docs::site::DEFAULT_LANGUAGE.to_owned());
        let nav = nav::build(site, version.as_deref(), &index_of, &default_language);
        let order: BTreeMap<String, Vec<usize>> =
            crate::sort::map_from(nav.iter().map(|(language, tabs)| (language.clone(), nav::order(tabs))));
        let mut homes = BTreeMap::new();
        for &i in &pages {
            let Some(page) = site.pages.get(i) else {
                continue;
            };
            let first_in_nav = order.get(&page.language).and_then(|o| o.first()).copied();
            homes
                .entry(page.language.clone())
                .or_insert(first_in_nav.unwrap_or(i));
        }
        let markdown = MarkdownPages::resolve(options.markdown, pages.len());
        let widget_folders = super::widget::folder_pages(&files);
        Ok(ExportPlan {
            domain,
            version,
            pages,
            files,
            index_of,
            nav,
            order,
            homes,
            default_language,
            brand: assets::brand(&site.config, tree),
            search: options.features.search,
            markdown,
            extras: PageExtras::default(),
            widget_folders,
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

    /// The version exported (`None` for an unversioned site).
    pub fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }

    /// Page paths in render order.
    pub fn page_paths<'s>(&self, site: &'s Site) -> Vec<&'s str> {
        self.pages
            .iter()
            .filter_map(|&i| site.pages.get(i))
            .map(|p| p.path.as_str())
            .collect()
    }

    /// Whether the bundle carries `.md` files beside the pages.
    pub fn markdown(&self) -> MarkdownPages {
        self.markdown
    }

    /// HTML and, unless [`MarkdownPages::LlmsFull`], Markdown (`a/b.html`, `a/b.md`) of the pages at
    /// `range` of the plan order (clamped to the plan). `site` and `tree` must be the ones the plan
    /// was made from, or its outline and a batch tree (see [`super::batch`]). Code blocks are
    /// coloured by `highlighter` (the host's; [`super::PlainCode`] leaves them plain).
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
    pub fn render_pages_warned(
        &self,
        site: &Site,
        tree: &SourceTree,
        range: Range<usize>,
        highlighter: &dyn Highlight,
    ) -> (Vec<ExportFile>, Vec<String>) {
        let mut specs = Specs::new(tree);
        specs.playground = self.extras.playground;
        let md_files = agent::markdown_files(&self.files);
        let mut files = Vec::new();
        let mut warnings = Vec::new();
        for &i in self.batch(range) {
            let page = self.render_page(site, tree, &mut specs, highlighter, i, &mut warnings);
            files.extend(page.into_iter().flatten().flatten());
            if let Some(page) = site.pages.get(i).filter(|_| self.markdown == MarkdownPages::Pages) {
                files.push(agent::page_file(page, tree, &md_files, &self.domain));
            }
        }
        (files, warnings)
    }

    /// Source files of the pages at `range` (clamped as [`ExportPlan::render_pages`] clamps it):
    /// with what they import and the files [`super::batch::read_by_every_batch`] names, all a batch
    /// reads.
    pub fn page_sources<'s>(&self, site: &'s Site, range: Range<usize>) -> Vec<&'s str> {
        self.batch(range)
            .iter()
            .filter_map(|&i| site.pages.get(i))
            .map(|p| p.source.as_str())
            .collect()
    }

    fn batch(&self, range: Range<usize>) -> &[usize] {
        let end = range.end.min(self.pages.len());
        let start = range.start.min(end);
        &self.pages[start..end]
    }

    fn render_page(
        &self,
        site: &Site,
        tree: &SourceTree,
        specs: &mut Specs<'_>,
        highlighter: &dyn Highlight,
        index: usize,
        warnings: &mut Vec<String>,
    ) -> Option<[Option<ExportFile>; 2]> {
        let page = site.pages.get(index)?;
        let links = Linker::new(&page.path, &page.source, &self.files, tree, &self.domain);
        // A generated page's body is its reference section alone (rendered below from `openapi`).
        let source = match page.is_generated() {
            true => Default::default(),
            false => tree.get(&page.source).map(|b| source_text::read(b)).unwrap_or_default(),
        };
        let (yaml, body) = frontmatter::split(&source);
        let mode = PageMode::from_frontmatter(yaml);
        let stylesheet = page_style::stylesheet(body)
            .map(|css| ExportFile::new(page_style::file_for(&page.path), css));
        let rendered = markdown::render_mdx(body, &page.source, tree, &links, highlighter);
        for (first_line, reason) in &rendered.unrendered_diagrams {
            let line = source.lines().position(|l| l.trim() == first_line).map_or(String::new(), |i| format!(":{}", i + 1));
            warnings.push(format!("{}{line}: Mermaid diagram shown as code: {reason}", page.source));
        }
        let mut toc = rendered.headings;
        let (html, api_headings) = api_page::lay_out(
            rendered.html,
            page.openapi.as_deref(),
            yaml,
            body,
            (&page.source, &page.title),
            &site.config,
            specs,
            &links.without_assets(),
            highlighter,
        );
        toc.extend(api_headings);
        let empty = Vec::new();
        let tabs = self.nav.get(&page.language).unwrap_or(&empty);
        let tab = nav::current_tab(tabs, index);
        let contents = tabs
            .get(tab)
            .filter(|t| t.items.len() > nav::SECTION_WINDOW)
            .and_then(|_| self.contents_page(&page.language, tab))
            .map(|path| links.file(&output_file(&path)));
        let order = self
            .order
            .get(&page.language)
            .map_or(&[][..], Vec::as_slice);
        let position = order.iter().position(|&i| i == index);
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
            home: self
                .homes
                .get(&page.language)
                .and_then(|&i| site.pages.get(i))
                .map(|p| p.path.as_str()),
            tabs,
            contents,
            prev: neighbour(position.and_then(|p| p.checked_sub(1))),
            next: neighbour(position.map(|p| p + 1)),
            languages: self.language_links(site, page),
            body: &html,
            toc: &toc,
            search: self.search,
            assistant: self.extras.assistant.as_ref(),
            widget_folders: &self.widget_folders,
            domain: &self.domain,
            mode,
            stylesheet: stylesheet.as_ref().map(|file| links.file(&file.path)),
        };
        Some([Some(ExportFile::new(output_file(&page.path), layout::page_html(&view))), stylesheet])
    }

    /// Page path (without `.html`) of the contents page of tab `tab` of `language`. Languages are
    /// numbered rather than named so that no docs.json label ends up in a file name.
    fn contents_page(&self, language: &str, tab: usize) -> Option<String> {
        let n = self.nav.keys().position(|l| l == language)?;
        Some(format!("{CONTENTS_DIR}/{n}-{tab}"))
    }

    /// The contents pages of the tabs whose sidebars cannot list every section.
    fn contents_pages(&self, site: &Site, tree: &SourceTree) -> Vec<ExportFile> {
        let mut files = Vec::new();
        for (language, tabs) in &self.nav {
            let home = self
                .homes
                .get(language)
                .and_then(|&i| site.pages.get(i))
                .map(|p| p.path.as_str());
            for (i, tab) in tabs.iter().enumerate() {
                if tab.items.len() <= nav::SECTION_WINDOW {
                    continue;
                }
                let Some(path) = self.contents_page(language, i) else {
                    continue;
                };
                let links = Linker::new(&path, "", &self.files, tree, &self.domain);
                let html = layout::contents_page_html(site, tab, language, &links, &self.brand, home);
                files.push(ExportFile::new(output_file(&path), html));
            }
        }
        files
    }

    /// Other languages of the site: the same page in that language when exported, else its home.
    fn language_links<'s>(
        &self,
        site: &'s Site,
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
            let target = self
                .index_of
                .get(&candidate)
                .filter(|&&i| site.pages.get(i).is_some_and(|p| p.language == *language))
                .or_else(|| self.homes.get(language));
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
    pub fn finishing_files_with(&self, site: &Site, tree: &SourceTree, statics: &StaticFiles) -> Vec<ExportFile> {
        let mut pages = FinishingPages::new(self.search);
        let targets = self.link_targets();
        for page in self.pages.iter().filter_map(|&i| site.pages.get(i)) {
            pages.add(page, tree, &targets, &self.domain);
        }
        self.finish(pages, site, tree, statics)
    }

    /// Where gathering the finishing files starts: no page added.
    pub fn finishing_pages(&self) -> FinishingPages {
        FinishingPages::new(self.search)
    }

    /// Adds the pages at `range` of the plan order (clamped) to `into`, their text read from `tree`
    /// (which holds the files [`super::batch_files`] names for `range`). `outline` is the site's
    /// outline, pages without sections: each added page gets the first line of its text, all
    /// `llms.txt` says of a page without a description, so [`ExportPlan::finish`] takes it.
    pub fn add_finishing_pages(&self, into: &mut FinishingPages, outline: &mut Site, tree: &SourceTree, range: Range<usize>) {
        let targets = self.link_targets();
        for &i in self.batch(range) {
            let Some(page) = outline.pages.get_mut(i) else {
                continue;
            };
            let mut read = page.clone();
            read.sections = page_sections(tree, page);
            into.add(&read, tree, &targets, &self.domain);
            let first_line = crate::agents::llms::first_line(&read).to_owned();
            page.sections = vec![Section { text: first_line, ..Section::default() }];
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
    /// [`ExportPlan::finishing_assets`] and of the files every batch reads.
    pub fn finish(&self, pages: FinishingPages, site: &Site, tree: &SourceTree, statics: &StaticFiles) -> Vec<ExportFile> {
        let mut files = Vec::new();
        self.finish_into(pages, site, tree, statics, &mut |file| files.push(file));
        files
    }

    /// [`ExportPlan::finish`], each file handed to `emit` in path order as it is made, so the
    /// search index is never held as files.
    pub(super) fn finish_into(&self, pages: FinishingPages, site: &Site, tree: &SourceTree, statics: &StaticFiles, emit: &mut dyn FnMut(ExportFile)) {
        let mut files = vec![
            ExportFile::new(CSS_FILE.to_owned(), self.stylesheet(site, statics)),
            ExportFile::new(
                JS_FILE.to_owned(),
                format!("{}{}{}", statics.site_js, statics.chrome_js, self.extras.script(statics)),
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
        let root_links = Linker::new("404", "", &self.files, tree, &self.domain);
        files.push(ExportFile::new(
            "404.html".to_owned(),
            layout::not_found_html(
                site,
                &root_links,
                &self.brand,
                &links::absolute(&self.domain, "index"),
            ),
        ));
        files.extend(self.contents_pages(site, tree));
        let referenced = self.finishing_assets(&pages);
        files.extend(agent::llms_files(site, &self.pages, &self.link_targets(), pages.llms_full));
        let written: BTreeSet<String> = files.iter().map(|f| f.path.clone()).chain(self.files.values().cloned()).collect();
        files.extend(stubs::entry_files(&self.entry(site, tree), &written));

        // The search index's files are all under its directory, inside `_static/`, which no asset
        // is copied into.
        let taken: BTreeSet<String> = files
            .iter()
            .map(|f| f.path.clone())
            .chain(self.files.values().cloned())
            .collect();
        for path in referenced {
            if taken.contains(&path) || path.starts_with(&format!("{STATIC_DIR}/")) {
                continue;
            }
            if let Some(bytes) = tree.get(&path) {
                files.push(ExportFile {
                    path,
                    bytes: bytes.clone(),
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
        let others = self.homes.keys().filter(|language| **language != self.default_language);
        let homes = std::iter::once(&self.default_language)
            .chain(others)
            .filter_map(|language| self.homes.get(language).and_then(|&i| site.pages.get(i)))
            .collect();
        stubs::Entry { site, tree, domain: &self.domain, files: &self.files, index_of: &self.index_of, homes }
    }

    /// Exported page path -> the file `llms.txt` and the Markdown link for it.
    fn link_targets(&self) -> BTreeMap<String, String> {
        match self.markdown {
            MarkdownPages::Pages => agent::markdown_files(&self.files),
            MarkdownPages::LlmsFull => self.files.clone(),
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
            super::chrome::link_colors(&primary, &light),
            statics.site_css,
            statics.chrome_css,
            statics.api_css,
            statics.layout_css,
            super::site_look::stylesheet(&site.config, &self.brand.look, CSS_FILE),
            self.extras.stylesheet(statics)
        )
    }

    /// Extensionless absolute URLs of the shown (not hidden) pages.
    fn sitemap(&self, site: &Site) -> String {
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for page in self.pages.iter().filter_map(|&i| site.pages.get(i)) {
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

fn choose_version(site: &Site, wanted: Option<&str>) -> Result<Option<String>, ExportError> {
    match wanted {
        Some(v) if site.versions.iter().any(|s| s == v) => Ok(Some(v.to_owned())),
        Some(v) => Err(ExportError::UnknownVersion {
            version: v.to_owned(),
            available: site.versions.clone(),
        }),
        None if site.versions.is_empty() => Ok(None),
        None => {
            Ok(default_version(&site.config.navigation).or_else(|| site.versions.first().cloned()))
        }
    }
}

/// The version docs.json marks `default: true`.
fn default_version(items: &[NavItem]) -> Option<String> {
    items.iter().find_map(|item| match item {
        NavItem::Division(d) if d.kind == DivisionKind::Version && d.default => {
            Some(d.label.clone())
        }
        NavItem::Division(d) => default_version(&d.items),
        NavItem::Page(_) | NavItem::Endpoint(_) => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::archive::tree;
    use crate::export::{MARKDOWN_PAGES_DEFAULT_MAX, PlainCode};
    use crate::docs::build_site;

    fn opts() -> ExportOptions {
        ExportOptions {
            version: None,
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
    fn ranges_are_clamped() {
        let (site, t) = versioned();
        let plan = ExportPlan::new(&site, &t, &opts()).unwrap();
        assert_eq!(plan.render_pages(&site, &t, 1..99, &PlainCode).len(), 2, "one page: its .html and .md");
        assert!(plan.render_pages(&site, &t, 5..3, &PlainCode).is_empty());
    }

    #[test]
    fn without_markdown_pages_llms_files_link_the_html_pages() {
        let (site, t) = versioned();
        let options = ExportOptions { markdown: Some(MarkdownPages::LlmsFull), ..opts() };
        let plan = ExportPlan::new(&site, &t, &options).unwrap();
        let pages = plan.render_pages(&site, &t, 0..9, &PlainCode);
        assert_eq!(pages.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["v2/a.html", "v2/b.html"]);
        let finishing = plan.finishing_files(&site, &t);
        assert!(!finishing.iter().any(|f| f.path.ends_with(".md")));
        let text = |name: &str| String::from_utf8(finishing.iter().find(|f| f.path == name).unwrap().bytes.clone()).unwrap();
        let index = text("llms.txt");
        assert!(index.contains("(v2/b.html)") && !index.contains(".md)"), "{index}");
        let full = text("llms-full.txt");
        assert!(full.contains("[b](b.html)") && !full.contains(".md)"), "{full}");

        assert_eq!(MarkdownPages::resolve(None, MARKDOWN_PAGES_DEFAULT_MAX), MarkdownPages::Pages);
        assert_eq!(MarkdownPages::resolve(None, MARKDOWN_PAGES_DEFAULT_MAX + 1), MarkdownPages::LlmsFull);
        assert_eq!(MarkdownPages::resolve(Some(MarkdownPages::Pages), 50_000), MarkdownPages::Pages);
    }
}
