//! Docs for agents: `llms.txt` (the llms.txt format: `# Title`, `> summary`, then `## Section` lists
//! of `- [title](url): description` links following the docs.json navigation), `llms-full.txt`
//! (every page as Markdown, one after the other) and each page's Markdown.
//!
//! Two audiences share the builders: the worker serves them for the live site (links are the
//! site's own absolute URLs, see [`agent_docs`]), and the static export puts them in the bundle
//! (links are relative `.md` files, see `export::plan`).

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::agents::markdown::{self, destination, escape, Urls};
use crate::agents::summary::{one_line, page_summary};
use crate::docs::nav::{DivisionKind, NavItem};
use crate::docs::outline::{PageRead, PlannedPage};
use crate::docs::site::{read_planned_with, SiteError};
use crate::docs::spec_lookup::SpecLookup;
use crate::docs::{Page, Site, SourceTree};
use crate::export::render::links::{self, Linker, Media};

/// What the worker stores at publish.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentDocs {
    pub llms_txt: String,
    pub llms_full: String,
    pub manifest: MarkdownManifest,
}

/// Where each page's Markdown sits in `llms-full.txt`, so one page is one ranged read: one line per
/// page, `offset length path` (bytes). Plain text, read by a scan: the worker reads it once per page
/// request and it stays small (about 40 bytes a page).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MarkdownManifest {
    pub text: String,
}

impl MarkdownManifest {
    fn push(&mut self, path: &str, offset: usize, len: usize) {
        self.text.push_str(&format!("{offset} {len} {path}\n"));
    }

    /// Byte range of `path`'s Markdown; the first page of a path wins (as in search).
    pub fn range(&self, path: &str) -> Option<(u64, u64)> {
        self.text.lines().find_map(|line| {
            let mut fields = line.splitn(3, ' ');
            let (offset, len) = (fields.next()?.parse().ok()?, fields.next()?.parse().ok()?);
            (fields.next()? == path).then_some((offset, len))
        })
    }

    pub fn len(&self) -> usize {
        self.text.lines().count()
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

/// Where a page of the live site is: `https://{domain}/{path}` (the home page is `/`).
pub fn page_url(domain: &str, path: &str) -> String {
    links::absolute(domain, path)
}

/// The agent documents of the live site: every page, links to the site's own URLs.
pub fn agent_docs(site: &Site, tree: &SourceTree, domain: &str) -> AgentDocs {
    let mut llms_full = String::new();
    let mut manifest = ManifestBuilder::default();
    for page in &site.pages {
        let md = live_page_markdown(page, tree, domain);
        let offset = push_page(&mut llms_full, &md);
        manifest.add(&page.path, offset as u64, md.len() as u64);
    }
    let summaries: Vec<String> = site.pages.iter().map(page_summary).collect();
    AgentDocs {
        llms_txt: live_llms_txt(site, &summaries, domain),
        llms_full,
        manifest: manifest.manifest,
    }
}

/// `llms.txt` of the live site from its pages' metadata (an outline will do) and their
/// [`page_summary`]s, in page order.
pub fn live_llms_txt(site: &Site, summaries: &[String], domain: &str) -> String {
    let included: Vec<usize> = (0..site.pages.len()).collect();
    let summary = |i: usize, _: &Page| summaries.get(i).cloned().unwrap_or_default();
    llms_txt_with(
        site,
        &included,
        &|page| page_url(domain, &page.path),
        &summary,
    )
}

/// One page's Markdown for the live site; `tree` holds its source and what it imports.
pub fn live_page_markdown(page: &Page, tree: &SourceTree, domain: &str) -> String {
    // No exported pages and no bundled assets: every link is absolute on the live domain.
    let no_pages = BTreeMap::new();
    let linker = Linker::new(&page.path, &page.source, &no_pages, tree, domain).without_assets();
    markdown::page_markdown(page, tree, &page_url(domain, &page.path), &linker)
}

/// Reads a planned page as `read_planned` does and renders its body as [`live_page_markdown`] does,
/// in one walk of the body; `body` receives the rendered body, for [`live_page_markdown_around`].
pub fn read_planned_with_markdown(
    tree: &SourceTree,
    planned: &PlannedPage,
    domain: &str,
    specs: &mut SpecLookup<'_>,
    body: &mut String,
) -> Result<PageRead, SiteError> {
    let no_pages = BTreeMap::new();
    let linker =
        Linker::new(&planned.path, &planned.source, &no_pages, tree, domain).without_assets();
    read_planned_with(tree, planned, specs, &mut |text| {
        let (page_text, rendered) = markdown::text_and_body(text, &planned.source, tree, &linker);
        *body = rendered;
        page_text
    })
}

/// [`live_page_markdown`] of `page` whose body [`read_planned_with_markdown`] rendered.
pub fn live_page_markdown_around(page: &Page, body: String, domain: &str) -> String {
    markdown::page_markdown_around(page, body, &page_url(domain, &page.path))
}

/// The manifest of `llms-full.txt` as pages are appended, in site order: the first page of a path
/// wins (as in search).
#[derive(Debug, Clone, Default)]
pub struct ManifestBuilder {
    manifest: MarkdownManifest,
    listed: HashSet<String>,
}

impl ManifestBuilder {
    pub fn add(&mut self, path: &str, offset: u64, len: u64) {
        if !path.contains('\n') && self.listed.insert(path.to_owned()) {
            self.manifest.push(path, offset as usize, len as usize);
        }
    }

    pub fn finish(self) -> MarkdownManifest {
        self.manifest
    }
}

/// What goes before a page in `llms-full.txt` after `written` bytes of it.
pub(crate) fn page_separator(written: usize) -> &'static str {
    if written > 0 {
        "\n"
    } else {
        ""
    }
}

/// Appends a page to `llms-full.txt`; returns where it starts.
pub(crate) fn push_page(full: &mut String, page_md: &str) -> usize {
    full.push_str(page_separator(full.len()));
    let offset = full.len();
    full.push_str(page_md);
    offset
}

impl Urls for Linker<'_> {
    fn href(&self, url: &str) -> String {
        Linker::href(self, url)
    }

    fn media(&self, url: &str) -> String {
        match Linker::media(self, url) {
            Media::Local(url) | Media::Link(url) | Media::ImageOnly { link: url, .. } => url,
        }
    }
}

/// `llms.txt` listing the pages at `included` (indices into `site.pages`), each linked by `link`.
/// Sections follow the docs.json navigation (labels of nested tabs, groups, versions and
/// languages joined by ` › `); hidden pages are left out; pages not in the navigation come last,
/// under `## Optional` (the format's name for what may be skipped).
pub(crate) fn llms_txt(site: &Site, included: &[usize], link: &dyn Fn(&Page) -> String) -> String {
    llms_txt_with(site, included, link, &|_, page| page_summary(page))
}

/// [`llms_txt`] with each page's one-line description from `summary` (given the page's index): a
/// site outline has no page text to take it from, so the publish keeps them from its batches.
fn llms_txt_with(
    site: &Site,
    included: &[usize],
    link: &dyn Fn(&Page) -> String,
    describe: &dyn Fn(usize, &Page) -> String,
) -> String {
    let name = if site.name.trim().is_empty() {
        "Documentation"
    } else {
        site.name.trim()
    };
    let mut out = format!("# {}\n\n", one_line(name));
    let summary = site
        .config
        .description
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(one_line)
        .unwrap_or_else(|| {
            format!(
                "Documentation of {}, {} pages.",
                one_line(name),
                included.len()
            )
        });
    out.push_str(&format!("> {summary}\n\n"));
    out.push_str("Each link below is one page; `llms-full.txt` beside this file holds every page as Markdown.\n");

    let mut index_of: HashMap<&str, usize> = HashMap::new();
    for &i in included {
        if let Some(page) = site.pages.get(i) {
            index_of.entry(page.path.as_str()).or_insert(i);
        }
    }
    let mut sections: Vec<(String, Vec<usize>)> = Vec::new();
    let mut listed = vec![false; site.pages.len()];
    let mut trail = Vec::new();
    nav_sections(
        &site.config.navigation,
        &mut trail,
        &index_of,
        &mut listed,
        &mut sections,
        site,
    );
    let rest: Vec<usize> = included
        .iter()
        .copied()
        .filter(|&i| !listed.get(i).copied().unwrap_or(true))
        .filter(|&i| site.pages.get(i).is_some_and(|p| !p.hidden))
        .collect();
    if !rest.is_empty() {
        sections.push(("Optional".to_owned(), rest));
    }
    for (title, pages) in sections {
        out.push_str(&format!("\n## {}\n\n", one_line(&title)));
        for (i, page) in pages.iter().filter_map(|&i| Some((i, site.pages.get(i)?))) {
            out.push_str(&format!(
                "- [{}]({})",
                escape::text(&one_line(&page.title)),
                destination(&link(page))
            ));
            let description = describe(i, page);
            if !description.is_empty() {
                out.push_str(": ");
                out.push_str(&description);
            }
            out.push('\n');
        }
    }
    out
}

fn nav_sections(
    items: &[NavItem],
    trail: &mut Vec<String>,
    index_of: &HashMap<&str, usize>,
    listed: &mut [bool],
    sections: &mut Vec<(String, Vec<usize>)>,
    site: &Site,
) {
    let add = |path: &str,
               trail: &[String],
               listed: &mut [bool],
               sections: &mut Vec<(String, Vec<usize>)>| {
        let Some(&i) = index_of.get(path) else { return };
        if site.pages.get(i).is_none_or(|p| p.hidden) || listed.get(i).copied().unwrap_or(true) {
            return;
        }
        listed[i] = true;
        let title = if trail.is_empty() {
            "Pages".to_owned()
        } else {
            trail.join(" › ")
        };
        match sections.last_mut() {
            Some((last, pages)) if *last == title => pages.push(i),
            _ => sections.push((title, vec![i])),
        }
    };
    for item in items {
        match item {
            NavItem::Page(path) => add(path, trail, listed, sections),
            NavItem::Endpoint(_) => {}
            NavItem::Division(division) => {
                if division.hidden {
                    continue;
                }
                let label = match division.kind {
                    DivisionKind::Language => format!("Language {}", division.label),
                    DivisionKind::Version => format!("Version {}", division.label),
                    _ => division.label.clone(),
                };
                let labelled = !label.trim().is_empty();
                if labelled {
                    trail.push(label);
                }
                if let Some(root) = &division.root {
                    add(root, trail, listed, sections);
                }
                nav_sections(&division.items, trail, index_of, listed, sections, site);
                if labelled {
                    trail.pop();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::archive::tree;
    use crate::docs::build_site;

    fn site() -> (Site, SourceTree) {
        let t = tree(&[
            (
                "docs.json",
                r#"{"name": "Acme [Docs]", "description": "Acme's API and guides.", "navigation": {"tabs": [
                    {"tab": "Guides", "groups": [{"group": "Start", "pages": ["index", "quickstart"]},
                                                 {"group": "Hidden", "hidden": true, "pages": ["secret"]}]},
                    {"tab": "API", "groups": [{"group": "Reference", "pages": ["api/jobs"]}]}]}}"#,
            ),
            ("index.mdx", "---\ntitle: Welcome\ndescription: What Acme is.\n---\nHello [start](/quickstart)."),
            ("quickstart.mdx", "---\ntitle: Quickstart\n---\nInstall it first. Then run it.\n\n<Note>\nMind the **gap**.\n</Note>\n"),
            ("secret.mdx", "---\ntitle: Secret\n---\nHidden."),
            ("api/jobs.mdx", "---\ntitle: Jobs\n---\n<ParamField body=\"domain\" type=\"string\" required>\nThe site.\n</ParamField>\n"),
        ]);
        (build_site(&t).expect("site"), t)
    }

    #[test]
    fn llms_txt_follows_the_navigation_in_the_format() {
        let (site, t) = site();
        let docs = agent_docs(&site, &t, "docs.acme.dev");
        let txt = &docs.llms_txt;
        assert!(
            txt.starts_with("# Acme [Docs]\n\n> Acme's API and guides.\n\n"),
            "{txt}"
        );
        let guides = txt.find("## Guides › Start\n\n- [Welcome](https://docs.acme.dev/): What Acme is.\n- [Quickstart](https://docs.acme.dev/quickstart): Install it first.\n").expect(txt);
        let api = txt
            .find("## API › Reference\n\n- [Jobs](https://docs.acme.dev/api/jobs): domain\n")
            .expect(txt);
        assert!(guides < api);
        assert!(!txt.contains("Secret"), "hidden pages are left out");
    }

    #[test]
    fn llms_full_holds_every_page_and_the_manifest_slices_it() {
        let (site, t) = site();
        let docs = agent_docs(&site, &t, "docs.acme.dev");
        assert_eq!(docs.manifest.len(), site.pages.len());
        let (offset, len) = docs.manifest.range("quickstart").expect("quickstart");
        let page = &docs.llms_full[offset as usize..(offset + len) as usize];
        assert!(
            page.starts_with("# Quickstart\n\nSource: https://docs.acme.dev/quickstart\n"),
            "{page}"
        );
        assert!(
            page.contains("> **Note**\n>\n> Mind the **gap**."),
            "{page}"
        );
        let (offset, len) = docs.manifest.range("index").expect("index");
        let home = &docs.llms_full[offset as usize..(offset + len) as usize];
        assert!(
            home.contains("Hello [start](https://docs.acme.dev/quickstart)."),
            "{home}"
        );
        assert!(home.contains("\n> What Acme is.\n"), "{home}");
    }
}
