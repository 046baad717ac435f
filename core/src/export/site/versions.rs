//! Which versions an export holds and where each one's pages go; and the version switch of the
//! page chrome.
//!
//! The first version (the site's default unless the request names others) keeps the site's own
//! paths, so the bundle's URLs are today's. Each further version keeps the paths of the pages only
//! it lists (`v1/a`); a page it shares with a version before it is written again under the
//! version's prefix (`v1/shared/a`), the first path segment its own pages share (else a slug of
//! its label). The switch links to the same page in another version when that version has it, else
//! to that version's first page; versions the bundle does not hold link to the live site.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::docs::nav::page_refs;
use crate::docs::Site;

use crate::export::html::{self, attr};
use crate::export::render::links::{self, is_safe_path, Linker};
use crate::export::ExportError;

/// The start request's `versions`: more than the one version `version` names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ExportVersions {
    /// `"all"`: every version of the site.
    All,
    /// The named versions.
    Only(Vec<String>),
}

/// The versions to export, in order, the first keeping the site's paths: the default first, then
/// the site's order; `None` for an unversioned site.
pub(crate) fn chosen(
    site: &Site,
    version: Option<&str>,
    versions: Option<&ExportVersions>,
) -> Result<Vec<Option<String>>, ExportError> {
    let unknown = |field, v: &str| ExportError::UnknownVersion {
        field,
        version: v.to_owned(),
        available: site.versions.clone(),
    };
    if let Some(v) = version.filter(|v| !site.versions.iter().any(|s| s == *v)) {
        return Err(unknown("version", v));
    }
    let default = || site.default_version().map(str::to_owned);
    let named: Vec<String> = match versions {
        None => return Ok(vec![version.map(str::to_owned).or_else(default)]),
        Some(ExportVersions::All) => site.versions.clone(),
        Some(ExportVersions::Only(names)) => {
            if let Some(bad) = names.iter().find(|v| !site.versions.contains(v)) {
                return Err(unknown("versions", bad));
            }
            site.versions
                .iter()
                .filter(|v| names.contains(v))
                .cloned()
                .collect()
        }
    };
    if named.is_empty() {
        return Ok(vec![version.map(str::to_owned).or_else(default)]);
    }
    let first = version
        .map(str::to_owned)
        .or_else(default)
        .filter(|v| named.contains(v))
        .unwrap_or_else(|| named[0].clone());
    Ok(std::iter::once(first.clone())
        .chain(named.into_iter().filter(|v| *v != first))
        .map(Some)
        .collect())
}

/// Page paths each version's navigation lists, in navigation order.
pub(crate) fn listed(site: &Site) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in page_refs(&site.config.navigation) {
        if let Some(v) = r.version {
            let paths = out.entry(v.to_owned()).or_default();
            if !paths.iter().any(|p| p == r.path) {
                paths.push(r.path.to_owned());
            }
        }
    }
    out
}

/// Whether page `index` belongs to `version`: listed under it, read for it (unlisted in its
/// folder), or, in the first version, in no version at all.
pub(crate) fn holds(
    site: &Site,
    listed: &BTreeSet<&str>,
    version: Option<&str>,
    first: bool,
    index: usize,
) -> bool {
    let Some(page) = site.pages.get(index) else {
        return false;
    };
    match (version, page.version.as_deref()) {
        (None, _) => true,
        (Some(v), Some(own)) => own == v || listed.contains(page.path.as_str()),
        (Some(_), None) => first || listed.contains(page.path.as_str()),
    }
}

/// Where `version`'s copies of pages shared with an earlier version go: the first path segment all
/// the pages it owns share (`v1`), else a slug of its label.
pub(crate) fn prefix(site: &Site, version: &str, taken: &BTreeSet<String>) -> String {
    let mut firsts = site
        .pages
        .iter()
        .filter(|p| p.version.as_deref() == Some(version) && p.path.contains('/'))
        .map(|p| p.path.split('/').next().unwrap_or(""));
    let common = firsts
        .next()
        .filter(|first| firsts.all(|f| f == *first))
        .map(str::to_owned);
    let slug: String = version
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let slug = slug.trim_matches(['-', '.']).to_owned();
    let candidate = common.filter(|c| is_safe_path(c)).unwrap_or(slug);
    if candidate.is_empty() || !is_safe_path(&candidate) || taken.contains(&candidate) {
        format!("version-{}", taken.len() + 1)
    } else {
        candidate
    }
}

/// One entry of the version switch.
pub(crate) struct Choice<'a> {
    pub(crate) label: &'a str,
    /// Bundle file of the page to open, or the live site's URL when the bundle lacks the version.
    pub(crate) target: Target,
    pub(crate) current: bool,
}

pub(crate) enum Target {
    File(String),
    Live(String),
}

/// The switch: a disclosure of links (no script, no form), current version in its summary.
pub(crate) fn switch_html(choices: &[Choice<'_>], links: &Linker<'_>) -> String {
    let mut out = String::new();
    let Some(current) = choices.iter().find(|c| c.current) else {
        return out;
    };
    if choices.len() < 2 {
        return out;
    }
    out.push_str("<details class=\"lang-switch version-switch\"><summary><span class=\"visually-hidden\">Version </span>");
    html::text(&mut out, current.label);
    out.push_str("</summary><ul aria-label=\"Versions\">");
    for choice in choices {
        out.push_str("<li><a");
        match &choice.target {
            Target::File(file) => attr(&mut out, "href", &links.file(file)),
            Target::Live(url) => attr(&mut out, "href", url),
        }
        if choice.current {
            out.push_str(" aria-current=\"page\"");
        }
        out.push('>');
        html::text(&mut out, choice.label);
        if matches!(choice.target, Target::Live(_)) {
            out.push_str(" <span class=\"version-live\">(live site)</span>");
        }
        out.push_str("</a></li>");
    }
    out.push_str("</ul></details>");
    out
}

/// The live site's URL of `path` (a page path).
pub(crate) fn live(domain: &str, path: &str) -> Target {
    Target::Live(links::absolute(domain, path))
}
