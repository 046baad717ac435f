//! The files an export writes once, after its pages: contents pages, search, sitemap, stylesheet and
//! the other finishing files.

use super::model::{Entry, ExportPlan};
use crate::docs::public_skills::{site_skills, well_known_files};
use crate::docs::site::{add_operation_sections, page_sections};
use crate::docs::skill_file::{site_skill, SKILL_FILE};
use crate::docs::spec_lookup::SpecLookup;
use crate::docs::{Page, Section, Site, SourceTree};
use crate::export::bundle::archive::gzip;
use crate::export::bundle::static_files::StaticFiles;
use crate::export::page::layout::{self, CSS_FILE, JS_FILE, SEARCH_DIR};
use crate::export::render::links::{self, asset_bytes, output_file, Linker, STATIC_DIR};
use crate::export::site::agent::MarkdownPages;
use crate::export::site::finishing_pages::{FinishingPages, SearchAs};
use crate::export::site::nav;
use crate::export::site::page_products::{BatchProducts, EntryProducts, PRODUCTS_FORMAT};
use crate::export::site::search_index::{SearchIndex, SearchPartial};
use crate::export::ExportFile;
use crate::export::{site::agent, site::assets, site::stubs};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

impl ExportPlan {
    /// The contents pages of the tabs whose sidebars cannot list every section.
    pub(super) fn contents_pages(&self, site: &Site, tree: &SourceTree) -> Vec<ExportFile> {
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
    /// (sidebar groups, tabs) are markers for the host to fill ([`crate::export::page::icons::fill`]) as it fills
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

    /// What the finishing files take from the pages at `range` of the plan order (clamped), their
    /// text read from `tree` (which holds the files [`crate::export::batch_files`] names for
    /// `range`): one product per entry, and the batch's share of `llms-full.txt`, for
    /// [`crate::export::FinishingMembers::add_products`].
    pub fn batch_products(
        &self,
        outline: &Site,
        tree: &SourceTree,
        range: Range<usize>,
    ) -> BatchProducts {
        let targets = self.link_targets();
        let mut specs = SpecLookup::new(tree);
        let mut last: Option<usize> = None;
        let mut entries = Vec::new();
        // The batch's share of the offline search index, its pages added as the fold would.
        let mut search = self.search.then(SearchIndex::for_batch);
        // The share of `llms-full.txt`, its first page without a separator (the fold adds it).
        let (mut llms_full, mut written) = (String::new(), 0);
        let mut read: Option<Page> = None;
        for entry in self.batch(range) {
            let mut products = EntryProducts::default();
            let Some(page) = outline.pages.get(entry.index) else {
                entries.push(products);
                continue;
            };
            // A page's copies in later versions follow it: its sections are read once.
            let same = last == Some(entry.index);
            last = Some(entry.index);
            let mut markdown = None;
            if !same {
                let mut page_read = page.clone();
                // A first entry's sections and Markdown come from one walk of its body.
                match entry.first {
                    true => {
                        let (sections, rendered) =
                            agent::sections_and_markdown(page, tree, &targets, &self.domain);
                        page_read.sections = sections;
                        markdown = Some(rendered);
                    }
                    false => page_read.sections = page_sections(tree, page),
                }
                add_operation_sections(tree, &mut specs, &mut page_read);
                read = Some(page_read);
            }
            let Some(read) = read.as_ref() else {
                entries.push(products);
                continue;
            };
            if let Some(search) = search.as_mut() {
                let search_as = self.search_as(outline, entry);
                search.add_as(read, search_as.key, &search_as.file);
            }
            if entry.first {
                let markdown = markdown
                    .unwrap_or_else(|| agent::full_markdown(read, tree, &targets, &self.domain));
                agent::push_rendered(&mut llms_full, &mut written, &markdown);
                let mut referenced = BTreeSet::new();
                assets::referenced(read, tree, &mut referenced);
                products.referenced = referenced.into_iter().collect();
                products.first_line = Some(crate::agents::summary::first_line(read).to_owned());
            }
            entries.push(products);
        }
        BatchProducts {
            format: PRODUCTS_FORMAT,
            entries,
            search: search.map(SearchIndex::into_partial),
            llms_full_len: llms_full.len() as u64,
            llms_full: gzip(llms_full.as_bytes()),
            files: Vec::new(),
        }
    }

    /// Adds the pages at `range` of the plan order (clamped) to `into` from their
    /// [`ExportPlan::batch_products`], but for their share of `llms-full.txt`, which
    /// [`crate::export::FinishingMembers`] takes as it is. `outline` is the site's outline, pages
    /// without sections: each added page gets the first line of its text, all `llms.txt` says of
    /// a page without a description, so [`ExportPlan::finish`] takes it.
    pub(in crate::export) fn add_products(
        &self,
        into: &mut FinishingPages,
        outline: &mut Site,
        range: Range<usize>,
        entries: Vec<EntryProducts>,
        search: Option<SearchPartial>,
    ) {
        for (entry, products) in self.batch(range).iter().zip(entries) {
            let Some(page) = outline.pages.get_mut(entry.index) else {
                continue;
            };
            if let Some(first_line) = products.first_line {
                into.referenced.extend(products.referenced);
                page.sections = vec![Section {
                    text: first_line,
                    ..Section::default()
                }];
            }
        }
        if let (Some(index), Some(partial)) = (into.search.as_mut(), search) {
            index.merge(partial);
        }
    }

    /// Where an entry's sections go in the offline search: its version's index, its file.
    pub(super) fn search_as(&self, site: &Site, entry: &Entry) -> SearchAs {
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
    /// [`crate::export::FinishingMembers::add_products`] filled, `tree` naming every file with the bytes of
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
    pub(in crate::export) fn finish_into(
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
    pub(super) fn entry<'s>(&'s self, site: &'s Site, tree: &'s SourceTree) -> stubs::Entry<'s> {
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
    pub(super) fn written(&self) -> impl Iterator<Item = String> + '_ {
        self.scopes.iter().flat_map(|s| s.files.values().cloned())
    }

    /// Exported page path -> the file `llms.txt` and the Markdown link for it.
    pub(super) fn link_targets(&self) -> BTreeMap<String, String> {
        match self.markdown {
            MarkdownPages::Pages => agent::markdown_files(&self.scopes[0].files),
            MarkdownPages::LlmsFull => self.scopes[0].files.clone(),
        }
    }

    /// The shared stylesheet, docs.json colours first.
    pub(super) fn stylesheet(&self, site: &Site, statics: &StaticFiles) -> String {
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
            crate::export::page::contrast::link_colors(&primary, &light),
            statics.site_css,
            statics.chrome_css,
            statics.api_css,
            statics.layout_css,
            crate::export::page::site_look::stylesheet(&site.config, &self.brand.look, CSS_FILE),
            self.extras.stylesheet(statics)
        )
    }

    /// Extensionless absolute URLs of the shown (not hidden) pages.
    pub(super) fn sitemap(&self, site: &Site) -> String {
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
