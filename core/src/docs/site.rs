//! Source tree -> [`Site`]: navigation decides which pages exist and where they sit; each page file
//! is read once for its frontmatter and text.
//!
//! Decisions:
//! - Pages listed in navigation come first, in navigation order. A page listed more than once gets
//!   one [`Page`] per (path, language): the first listing decides its tab and groups.
//! - `.mdx`/`.md` files that navigation does not list are still pages, as Mintlify serves them at
//!   their path: they come after the listed pages, sorted by path, with `hidden: true` and
//!   `in_navigation: false`, and one warning reports how many there are. Their language is the
//!   first path segment when it is a site language (`es/foo` -> `es`), else the default.
//! - Files under `snippets/` and `_snippets/` are never pages (Mintlify renders them only where
//!   imported), unless navigation lists them explicitly.
//! - Files `.mintignore` (or Mintlify's default ignores) leave out are not pages, nor are the
//!   assistant's files (`assistant_files`: `.mintlify/`, the root `Assistant.md`); navigation
//!   listing one is a warning.
//! - A listed page missing from the tree is a warning; invalid UTF-8 is a warning and the page is
//!   read with replacement characters; bad frontmatter is a warning and known keys are salvaged.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt;

use super::archive::SourceTree;
use super::assistant_files::{is_assistant_file, read_guide};
use super::config::{self, ConfigError};
use super::config_lines;
use super::endpoint::{self, Specs};
use super::frontmatter::{self, Frontmatter, FrontmatterError};
use super::ignore::{Ignore, IGNORE_FILE};
use super::model::Page;
use super::model::Site;
use super::nav::{page_refs, DivisionKind, NavItem, PageRef};
use super::openapi_nav;
use super::operations::Operations;
use super::outline::{PageRead, PlanItem, PlannedPage, SitePlan};
use super::own_keys::support_link;
use super::page_path::page_path_problem;
use super::public_skills::site_skills;
use super::search_visibility as search;
use super::sections::{self, PageText};
use super::skill_file::{is_skill_file, site_skill};
use super::source_text;
use super::spec_lookup::SpecLookup;
use super::yaml_budget::{check_alias_expansion, AliasExpansionTooLarge};

/// Language of a site whose docs.json declares none.
pub const DEFAULT_LANGUAGE: &str = "en";

/// Folders whose files are snippets, never pages: `snippets/`, and `_snippets/` where Mintlify kept
/// them before (the legacy `<Snippet file="…" />` tag reads both).
const SNIPPET_DIRS: [&str; 2] = ["snippets/", "_snippets/"];

#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SiteError {
    Config(ConfigError),
    NoPages,
    /// A page file (`.mdx`/`.md`) whose path breaks the page path rule.
    BadPageFile {
        file: String,
        rule: &'static str,
    },
    /// YAML (a page's frontmatter, an OpenAPI file) whose aliases expand past the bound.
    YamlAliases {
        file: String,
        err: AliasExpansionTooLarge,
    },
}

impl fmt::Display for SiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Config(err) => err.fmt(f),
            Self::NoPages => {
                f.write_str("no pages: navigation lists none and there are no .mdx files")
            }
            Self::BadPageFile { file, rule } => write!(
                f,
                "page file {file:?}: its path {rule}; page paths must be plain relative paths"
            ),
            Self::YamlAliases { file, err } => write!(f, "{file}: {err}"),
        }
    }
}

impl std::error::Error for SiteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Config(err) => Some(err),
            Self::YamlAliases { err, .. } => Some(err),
            Self::NoPages | Self::BadPageFile { .. } => None,
        }
    }
}

impl From<ConfigError> for SiteError {
    fn from(err: ConfigError) -> Self {
        Self::Config(err)
    }
}

/// Builds the site model from an uploaded tree (see the module docs for the rules): the plan
/// ([`plan_site`]), then every planned page read, as the publish job does in batches.
pub fn build_site(tree: &SourceTree) -> Result<Site, SiteError> {
    check_yaml_files(tree)?;
    let paths: Vec<&str> = tree.keys().map(String::as_str).collect();
    let plan = plan_site(tree, &paths)?;
    let mut specs = SpecLookup::new(tree);
    let mut pages: Vec<PageRead> = Vec::new();
    for planned in plan.pages() {
        let read = match planned.copy_of.and_then(|i| pages.get(i as usize)) {
            Some(first) => {
                let mut page = first.page.clone();
                planned.apply(&mut page);
                PageRead {
                    page,
                    warnings: Vec::new(),
                }
            }
            None => {
                let mut read = read_planned(tree, planned, &mut specs)?;
                let text = tree
                    .get(&planned.source)
                    .map(|bytes| source_text::read(bytes));
                read.warnings
                    .extend(plan.operation_warning(&read.page, text.as_deref()));
                read
            }
        };
        pages.push(read);
    }
    Ok(plan.finish(pages))
}

/// What navigation and the file list decide before any page is read: `config_tree` holds docs.json,
/// the files it `$ref`s and `.mintignore`, `paths` is every file of the upload, sorted.
pub fn plan_site(config_tree: &SourceTree, paths: &[&str]) -> Result<SitePlan, SiteError> {
    let mut config_warnings = Vec::new();
    let mut config = config::parse_config(config_tree, &mut config_warnings)?;
    let mut specs = Specs::new(config_tree);
    let generated = openapi_nav::expand(&mut config, &mut specs, &mut config_warnings);
    let languages = languages(&config.navigation);
    let versions = division_labels(&config.navigation, DivisionKind::Version);
    let default_language = languages
        .first()
        .map_or(DEFAULT_LANGUAGE, String::as_str)
        .to_owned();
    let ignore = Ignore::of_tree(config_tree);
    let search_hidden = search::indexes_hidden_pages(config_tree);
    let exists = |path: &str| paths.binary_search(&path).is_ok();
    let has = |path: &str| exists(path) && !ignore.is_ignored(path) && !is_assistant_file(path);

    let mut items: Vec<PlanItem> = Vec::new();
    let mut planned: Vec<PlannedPage> = Vec::new();
    let mut seen: HashSet<(String, String)> = HashSet::new();
    // Source file -> index of the first page read from it, so a second listing is a copy.
    let mut read: HashMap<String, usize> = HashMap::new();
    let refs = page_refs(&config.navigation);
    // Listed paths with no page file, by their place in `items` and with the file that exists but
    // may not be a page: warned about once all are known, with one scan of the config files for
    // where each is written.
    let mut missing: Vec<(usize, &str, Option<String>)> = Vec::new();
    for page_ref in &refs {
        let language = page_ref.language.unwrap_or(&default_language);
        if !seen.insert((page_ref.path.to_owned(), language.to_owned())) {
            continue;
        }
        if let Some(page) = generated.get(page_ref.path) {
            let Some(text) = endpoint::page_source(&mut specs, &page.target) else {
                continue;
            };
            planned.push(PlannedPage {
                source: page.spec.clone(),
                generated: Some(text),
                ..planned_page(page_ref, language, String::new(), None, search_hidden)
            });
            items.push(PlanItem::Page);
            continue;
        }
        let Some(source) = find_source(&has, page_ref.path) else {
            missing.push((
                items.len(),
                page_ref.path,
                find_source(&exists, page_ref.path),
            ));
            items.push(PlanItem::Missing(String::new()));
            continue;
        };
        let copy_of = read.get(&source).copied();
        // A copy starts from the first page read from its file, hidden flag included.
        let first_hidden = copy_of
            .and_then(|i| planned.get(i))
            .is_some_and(|p| p.hidden);
        if copy_of.is_none() {
            read.insert(source.clone(), planned.len());
        }
        let mut page = planned_page(
            page_ref,
            language,
            source,
            copy_of.map(|i| i as u32),
            search_hidden,
        );
        page.hidden |= first_hidden;
        planned.push(page);
        items.push(PlanItem::Page);
    }

    name_missing_entries(config_tree, &missing, &mut items);

    let listed: HashSet<&str> = refs.iter().map(|r| r.path).collect();
    let mut unlisted = Vec::new();
    for &source in paths {
        let Some(path) = source
            .strip_suffix(".mdx")
            .or_else(|| source.strip_suffix(".md"))
        else {
            continue;
        };
        if ignore.is_ignored(source) || is_assistant_file(source) {
            continue;
        }
        if let Some(rule) = page_path_problem(path) {
            return Err(SiteError::BadPageFile {
                file: source.chars().take(200).collect(),
                rule,
            });
        }
        let shadowed = source.ends_with(".md") && has(&format!("{path}.mdx"));
        if SNIPPET_DIRS.iter().any(|dir| source.starts_with(dir))
            || is_skill_file(source)
            || read.contains_key(source)
            || listed.contains(path)
            || shadowed
        {
            continue;
        }
        let first = path.split('/').next().unwrap_or("");
        planned.push(PlannedPage {
            path: path.to_owned(),
            source: source.to_owned(),
            language: languages
                .iter()
                .find(|l| *l == first)
                .map_or(default_language.as_str(), String::as_str)
                .to_owned(),
            version: versions.iter().find(|v| *v == first).cloned(),
            tab: None,
            groups: Vec::new(),
            hidden: true,
            searchable_hidden: search_hidden,
            in_navigation: false,
            copy_of: None,
            generated: None,
        });
        items.push(PlanItem::Page);
        unlisted.push(path.to_owned());
    }
    if planned.is_empty() {
        return Err(SiteError::NoPages);
    }
    let skill = site_skill(config_tree, &mut config_warnings);
    let public_skills = site_skills(config_tree, skill.as_deref(), &mut config_warnings);
    let operations = Operations::of_tree(config_tree);
    let mut assistant = read_guide(config_tree, &mut config_warnings);
    assistant.support = support_link(config_tree, &mut config_warnings);
    Ok(SitePlan {
        name: config.name.clone(),
        languages,
        versions,
        config,
        config_warnings,
        items,
        planned,
        unlisted,
        skill,
        public_skills,
        assistant,
        operations,
    })
}

fn planned_page(
    page_ref: &PageRef<'_>,
    language: &str,
    source: String,
    copy_of: Option<u32>,
    search_hidden: bool,
) -> PlannedPage {
    PlannedPage {
        path: page_ref.path.to_owned(),
        source,
        language: language.to_owned(),
        version: page_ref.version.map(str::to_owned),
        tab: page_ref.tab.map(str::to_owned),
        groups: page_ref.groups.iter().map(|g| (*g).to_owned()).collect(),
        hidden: page_ref.hidden,
        searchable_hidden: page_ref.searchable || search_hidden,
        in_navigation: true,
        copy_of,
        generated: None,
    }
}

/// Fills the warning of each navigation entry in `missing` (its index in `items`, its path, the
/// file that exists but may not be a page) with the config file and line it is written at.
fn name_missing_entries(
    config_tree: &SourceTree,
    missing: &[(usize, &str, Option<String>)],
    items: &mut [PlanItem],
) {
    if missing.is_empty() {
        return;
    }
    let paths: Vec<&str> = missing.iter().map(|(_, path, _)| *path).collect();
    let found = config_lines::locate(config_tree, &paths);
    let config_file = config_lines::config_file_name(config_tree);
    for (index, path, file) in missing {
        let (index, path) = (*index, *path);
        let place = match found.get(path) {
            Some((file, line)) => format!("{file}:{line}"),
            None => config_file.to_owned(),
        };
        let problem = match file {
            Some(file) if is_assistant_file(file) => {
                format!("names `{file}`, which is for the assistant and never a page")
            }
            Some(_) => format!("names a file {IGNORE_FILE} leaves out"),
            None => "has no page file".to_owned(),
        };
        items[index] = PlanItem::Missing(format!("{place}: navigation entry `{path}` {problem}"));
    }
}

/// Reads one planned page from a tree holding its source (and what it imports).
pub fn read_planned(
    tree: &SourceTree,
    planned: &PlannedPage,
    specs: &mut SpecLookup<'_>,
) -> Result<PageRead, SiteError> {
    read_planned_with(tree, planned, specs, &mut |body| {
        sections::extract(body, &planned.source, tree)
    })
}

/// [`read_planned`] with the body's text read by `extract` (given the body, frontmatter removed),
/// for a reader that walks the body for more than its text in the same pass. `specs` holds the
/// tree's OpenAPI documents, parsed once for all the pages read from it.
pub(crate) fn read_planned_with(
    tree: &SourceTree,
    planned: &PlannedPage,
    specs: &mut SpecLookup<'_>,
    extract: &mut dyn FnMut(&str) -> PageText,
) -> Result<PageRead, SiteError> {
    let mut warnings = Vec::new();
    let bytes = match &planned.generated {
        Some(text) => text.as_bytes(),
        None => tree.get(&planned.source).map_or(&[][..], Vec::as_slice),
    };
    let mut page = read_page_with(
        bytes,
        &planned.source,
        &planned.path,
        &mut warnings,
        extract,
    )?;
    add_operation_sections(tree, specs, &mut page);
    planned.apply(&mut page);
    Ok(PageRead { page, warnings })
}

/// A page file with `openapi:` frontmatter shows the operation's reference below its own text; its
/// sections get that text too, so search and answers find the endpoint, its parameters and its body
/// (most such pages have no text of their own). The endpoint line and the description join the
/// page's intro; the reference's parts follow its sections, linking to where the rendered page has
/// them.
pub(crate) fn add_operation_sections(
    tree: &SourceTree,
    specs: &mut SpecLookup<'_>,
    page: &mut Page,
) {
    let Some(value) = page.openapi.as_deref().filter(|_| !page.is_generated()) else {
        return;
    };
    let Some(text) = super::spec_lookup::operation_text(specs, value, &page.source) else {
        return;
    };
    let mut added = sections::extract(&text, &page.source, tree).sections;
    for section in added.iter_mut().filter(|s| s.level > 0) {
        section.anchor = match section.heading.as_str() {
            h if h.ends_with(" parameters") => endpoint::PARAMETERS_ANCHOR,
            "Request body" => endpoint::REQUEST_BODY_ANCHOR,
            _ => endpoint::RESPONSES_ANCHOR,
        }
        .to_owned();
    }
    let mut added = added.into_iter().peekable();
    if let Some(intro) = added.next_if(|s| s.level == 0) {
        match page.sections.first_mut().filter(|s| s.level == 0) {
            Some(own) if own.text.trim().is_empty() => own.text = intro.text,
            Some(own) => own.text = format!("{}\n{}", intro.text.trim_end(), own.text),
            None => page.sections.insert(0, intro),
        }
    }
    page.sections.extend(added);
}

/// The file a navigation path names; `guides` may be `guides.mdx` or `guides/index.mdx`.
fn find_source(has: &dyn Fn(&str) -> bool, path: &str) -> Option<String> {
    ["{}.mdx", "{}.md", "{}/index.mdx", "{}/index.md"]
        .iter()
        .map(|pattern| pattern.replace("{}", path))
        .find(|candidate| has(candidate))
}

/// YAML files of the upload (OpenAPI specs, read by the export) within the alias bound.
fn check_yaml_files(tree: &SourceTree) -> Result<(), SiteError> {
    tree.iter()
        .try_for_each(|(file, bytes)| check_yaml_file(file, bytes))
}

/// One file of the upload: a YAML file within the alias bound (other files pass).
pub fn check_yaml_file(file: &str, bytes: &[u8]) -> Result<(), SiteError> {
    let lower = file.to_ascii_lowercase();
    if !(lower.ends_with(".yaml") || lower.ends_with(".yml")) {
        return Ok(());
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        check_alias_expansion(text).map_err(|err| SiteError::YamlAliases {
            file: file.to_owned(),
            err,
        })?;
    }
    Ok(())
}

fn read_page_with(
    bytes: &[u8],
    source: &str,
    path: &str,
    warnings: &mut Vec<String>,
    extract: &mut dyn FnMut(&str) -> PageText,
) -> Result<Page, SiteError> {
    if std::str::from_utf8(bytes).is_err() {
        warnings.push(format!(
            "{path}: not valid UTF-8, read with replacement characters"
        ));
    }
    let text = source_text::read(bytes);
    let (yaml, body) = frontmatter::split(&text);
    let fm = match yaml.map(frontmatter::parse) {
        None => Frontmatter::default(),
        Some(Ok(fm)) => fm,
        Some(Err(FrontmatterError::Aliases(err))) => {
            return Err(SiteError::YamlAliases {
                file: source.to_owned(),
                err,
            })
        }
        Some(Err(err)) => {
            warnings.push(format!("{path}: {err}"));
            yaml.map(frontmatter::salvage).unwrap_or_default()
        }
    };
    let page_text = extract(body);
    warnings.extend(page_text.warnings);
    let title = [fm.title.as_deref(), page_text.first_h1.as_deref()]
        .into_iter()
        .flatten()
        .map(str::trim)
        .find(|t| !t.is_empty())
        .map_or_else(|| humanise(path), str::to_owned);
    let unsearchable = search::frontmatter_excludes(&fm);
    Ok(Page {
        path: path.to_owned(),
        title,
        sidebar_title: fm.sidebar_title,
        description: fm.description,
        openapi: fm.openapi,
        sections: page_text.sections,
        hidden: fm.hidden,
        unsearchable,
        source: source.to_owned(),
        icon: fm
            .extra
            .get("icon")
            .and_then(|v| v.as_str())
            .map(str::to_owned),
        tag: fm
            .extra
            .get("tag")
            .and_then(|v| v.as_str())
            .map(str::to_owned),
        keywords: fm.keywords,
        ..Page::default()
    })
}

/// The sections of `page` (its body's text, as [`build_site`] reads it), for a reader that holds
/// the outline and only this page's files (for a generated page: its spec).
pub fn page_sections(tree: &SourceTree, page: &Page) -> Vec<super::model::Section> {
    let text = page_source_text(tree, page);
    let (_, body) = frontmatter::split(&text);
    sections::extract(body, &page.source, tree).sections
}

/// The MDX `page` is read from: its file, or for a page generated from an OpenAPI operation the
/// text written from its spec (which `tree` holds).
pub fn page_source_text<'t>(tree: &'t SourceTree, page: &Page) -> Cow<'t, str> {
    if page.is_generated() {
        let target = page.openapi.as_deref().unwrap_or_default();
        return Cow::Owned(
            endpoint::page_source(&mut Specs::new(tree), target).unwrap_or_default(),
        );
    }
    source_text::read(tree.get(&page.source).map_or(&[][..], Vec::as_slice))
}

/// `api/get-job-status` -> `Get job status`; `cli/index` -> `Cli`.
fn humanise(path: &str) -> String {
    let segment = path.rsplit('/').find(|s| *s != "index").unwrap_or(path);
    let words = segment.replace(['-', '_'], " ");
    let mut chars = words.trim().chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => path.to_owned(),
    }
}

/// Language codes, default first (marked `default`, else the first declared), then declared order.
fn languages(nav: &[NavItem]) -> Vec<String> {
    let mut declared = Vec::new();
    collect_divisions(nav, DivisionKind::Language, &mut |d| {
        declared.push((d.label.clone(), d.default));
    });
    let mut out: Vec<String> = Vec::new();
    if let Some((code, _)) = declared
        .iter()
        .find(|(_, default)| *default)
        .or(declared.first())
    {
        out.push(code.clone());
    }
    for (code, _) in declared {
        if !code.is_empty() && !out.contains(&code) {
            out.push(code);
        }
    }
    if out.is_empty() {
        out.push(DEFAULT_LANGUAGE.to_owned());
    }
    out
}

fn division_labels(nav: &[NavItem], kind: DivisionKind) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    collect_divisions(nav, kind, &mut |d| {
        if !d.label.is_empty() && !out.contains(&d.label) {
            out.push(d.label.clone());
        }
    });
    out
}

fn collect_divisions(
    nav: &[NavItem],
    kind: DivisionKind,
    f: &mut dyn FnMut(&super::nav::Division),
) {
    for item in nav {
        if let NavItem::Division(division) = item {
            if division.kind == kind {
                f(division);
            }
            collect_divisions(&division.items, kind, f);
        }
    }
}

#[cfg(test)]
mod tests;
