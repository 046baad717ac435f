//! Which pages an export renders and in what order, read from the request and the site, and what
//! the plan tells a caller about them.

use super::model::{Entry, ExportPlan, Scope};
use crate::docs::config::page_path;
use crate::docs::{Site, SourceTree};
use crate::export::page::extras::PageExtras;
use crate::export::render::links::{is_safe_path, output_file};
use crate::export::site::agent::MarkdownPages;
use crate::export::site::nav;
use crate::export::{site::assets, site::versions};
use crate::export::{ExportError, ExportOptions};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

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
        let widget_folders = crate::export::page::widget::folder_pages(&scopes[0].files);
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

    /// Source files of the pages at `range` (clamped as [`ExportPlan::render_pages`] clamps it):
    /// with what they import and the files [`crate::export::bundle::batch::read_by_every_batch`] names, all a batch
    /// reads.
    pub fn page_sources<'s>(&self, site: &'s Site, range: Range<usize>) -> Vec<&'s str> {
        self.batch(range)
            .iter()
            .filter_map(|e| site.pages.get(e.index))
            .map(|p| p.source.as_str())
            .collect()
    }

    pub(super) fn batch(&self, range: Range<usize>) -> &[Entry] {
        let end = range.end.min(self.pages.len());
        let start = range.start.min(end);
        &self.pages[start..end]
    }

    /// The output file of an entry (`v1/a.html`).
    pub(super) fn file_of<'s>(&'s self, site: &Site, entry: &Entry) -> Option<&'s String> {
        let page = site.pages.get(entry.index)?;
        self.scopes.get(entry.scope)?.files.get(&page.path)
    }
}

/// `docs.example.com`, also from `https://docs.example.com/`; a subpath (`example.com/docs`) is kept.
pub(super) fn normalise_domain(raw: &str) -> Result<String, ExportError> {
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
pub(super) fn render_order(
    site: &Site,
    scopes: &[Scope],
    owner: &BTreeMap<usize, usize>,
) -> Vec<Entry> {
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
