//! Rendering a batch of the plan's pages: each body once, its page shell per version.

use super::model::{Body, Entry, ExportPlan, MarkdownTwin, Scope};
use crate::docs::{frontmatter, source_text};
use crate::docs::{Site, SourceTree};
use crate::export::page::layout::{self, PageView, CONTENTS_DIR, SEARCH_DIR};
use crate::export::page::page_mode::PageMode;
use crate::export::reference::openapi::Specs;
use crate::export::render::code::Highlight;
use crate::export::render::links::{self, output_file, Linker};
use crate::export::site::agent::MarkdownPages;
use crate::export::site::nav;
use crate::export::ExportFile;
use crate::export::{
    page::style, reference::api_page, render::markdown, site::agent, site::versions,
};
use std::collections::BTreeMap;
use std::ops::Range;

#[cfg(test)]
thread_local! {
    /// Bodies rendered on this thread: a page several versions share counts once.
    pub(super) static BODY_RENDERS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl ExportPlan {
    /// HTML and, unless [`MarkdownPages::LlmsFull`], Markdown (`a/b.html`, `a/b.md`) of the pages at
    /// `range` of the plan order (clamped to the plan). `site` and `tree` must be the ones the plan
    /// was made from, or its outline and a batch tree (see [`crate::export::bundle::batch`]). Code blocks are
    /// coloured by `highlighter` (the host's; [`crate::export::PlainCode`] leaves them plain). Only with the
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

    /// The page's body, its table of contents and its own stylesheet, with links bound to the
    /// entry's file (a shared page's body is rendered once with deferred links).
    #[cfg(feature = "utilities")]
    pub(super) fn body(
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
    pub(super) fn render_page(
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
    pub(super) fn search_dir(&self, scope: usize, language: &str) -> String {
        match self.scopes.get(scope).and_then(|s| s.prefix.as_deref()) {
            Some(prefix) => format!("{SEARCH_DIR}/{language}.{prefix}/"),
            None => format!("{SEARCH_DIR}/{language}/"),
        }
    }

    /// The version switch of `page` in version `scope`: the same page in each other version the
    /// bundle holds when it has it, else that version's first page; other versions on the live site.
    pub(super) fn version_switch(
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
    pub(super) fn contents_page(&self, scope: usize, language: &str, tab: usize) -> Option<String> {
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

    /// Other languages of the site: the same page in that language when exported, else its home.
    pub(super) fn language_links<'s>(
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
}
