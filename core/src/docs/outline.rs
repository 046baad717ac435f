//! A site in two halves, so a publish never holds every page at once.
//!
//! - [`SitePlan`]: what docs.json and the file list decide before any page is read (which pages
//!   exist, in what order, from which file, with their language, version, tab, groups and flags).
//!   The publish job makes it once and then reads pages in batches ([`super::site::read_planned`]).
//! - [`SiteOutline`]: the finished [`Site`] without page bodies (every page's `sections` empty):
//!   config, navigation, languages, versions, warnings and each page's metadata. Stored with every
//!   version (`outline.bin`), so a reader that renders a few pages (the static export's batches)
//!   reads the outline plus only those pages' files from the source packs (`super::packed`).
//!
//! [`super::site::build_site`] is the plan plus every page read in one go, so both ways give the
//! same site.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::assistant_files::AssistantGuide;

use super::config::SiteConfig;
use super::model::{Page, Site};
use super::operations::Operations;
use super::public_skills::PublicSkill;
use crate::search::codec::{decode, encode, IndexError};

/// 2: the config holds mint.json's and docs.json's settings; planned pages may be generated.
/// 3: `fonts` holds the site, heading and body fonts, each with weight and format. 4: pages and
/// divisions say whether search keeps them (`unsearchable`, `searchable`). Postcard is not
/// self-describing, so an older outline is refused by its first byte, never misread; the worker's
/// `CURRENT_LAYOUT` moves with this number, so versions stored before are rebuilt on first use.
const FORMAT: u8 = 4;
/// A plan lives only as long as its publish job; its kind names its shape (`R`: with the upload's
/// OpenAPI operations, the skills it serves agents and the pages search keeps though hidden), so a plan of another shape is refused,
/// never misread.
const KIND_PLAN: u8 = b'S';
const KIND_OUTLINE: u8 = b'O';

/// The pages a site will have, before they are read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SitePlan {
    pub name: String,
    pub languages: Vec<String>,
    pub versions: Vec<String>,
    pub config: SiteConfig,
    pub(crate) config_warnings: Vec<String>,
    /// Missing listed pages and pages, in the order their warnings come.
    pub(crate) items: Vec<PlanItem>,
    pub(crate) planned: Vec<PlannedPage>,
    /// Paths of the pages not in navigation (their summary warning comes last).
    pub(crate) unlisted: Vec<String>,
    /// The root `skill.md`, as served (`super::skill_file`).
    pub skill: Option<String>,
    /// Every skill served from the discovery indexes, the root one first (`super::public_skills`).
    pub public_skills: Vec<PublicSkill>,
    /// The repository's instructions and skills for the assistant, kept beside the pages.
    #[serde(default)]
    pub assistant: AssistantGuide,
    /// What the pages' `openapi:` frontmatter may name.
    pub(crate) operations: Operations,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) enum PlanItem {
    /// A page navigation lists that has no file: its warning.
    Missing(String),
    /// The next planned page.
    Page,
}

/// One page to read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlannedPage {
    pub path: String,
    /// The file it is read from.
    pub source: String,
    pub language: String,
    pub version: Option<String>,
    pub tab: Option<String>,
    pub groups: Vec<String>,
    /// Hidden by navigation (a hidden tab or group, or not listed at all).
    pub hidden: bool,
    /// Searchable although hidden: under a division marked `searchable: true`, or every hidden
    /// page of a site with `seo.indexing: "all"`.
    pub searchable_hidden: bool,
    pub in_navigation: bool,
    /// A second listing of a file already read: the index of the first page read from it (its
    /// reading warnings are reported once, by the first).
    pub copy_of: Option<u32>,
    /// A page generated from an OpenAPI operation (`source` is the spec): its MDX, written when
    /// planning ([`crate::docs::endpoint::page_source`]), so reading it needs no file.
    #[serde(default)]
    pub generated: Option<String>,
}

/// A page as read, with the warnings reading it gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageRead {
    pub page: Page,
    pub warnings: Vec<String>,
}

impl PlannedPage {
    /// The file reading the page needs: `None` for a generated page.
    pub fn source_file(&self) -> Option<&str> {
        self.generated.is_none().then_some(self.source.as_str())
    }

    /// Bytes of source the page's reading handles.
    pub fn source_len(&self, file_len: impl Fn(&str) -> u64) -> u64 {
        match &self.generated {
            Some(text) => text.len() as u64,
            None => file_len(&self.source),
        }
    }

    /// Puts navigation's say on a page read from the file.
    pub(crate) fn apply(&self, page: &mut Page) {
        page.language.clone_from(&self.language);
        page.version.clone_from(&self.version);
        page.tab.clone_from(&self.tab);
        page.groups.clone_from(&self.groups);
        page.hidden |= self.hidden;
        page.in_navigation = self.in_navigation;
        page.unsearchable |= page.hidden && !self.searchable_hidden;
    }
}

impl SitePlan {
    pub fn pages(&self) -> &[PlannedPage] {
        &self.planned
    }

    /// The warning for a page read from `text` whose `openapi:` names an operation the upload's
    /// OpenAPI documents lack. Not kept with the page: the documents may change while it does not.
    pub fn operation_warning(&self, page: &Page, text: Option<&str>) -> Option<String> {
        self.operations.warning(page, text)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        encode(&[FORMAT, KIND_PLAN], self)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<SitePlan, IndexError> {
        let plan: SitePlan = decode(bytes, &[FORMAT, KIND_PLAN])?;
        let page_items = plan
            .items
            .iter()
            .filter(|i| matches!(i, PlanItem::Page))
            .count();
        if page_items != plan.planned.len() {
            return Err(IndexError::Inconsistent("site plan"));
        }
        Ok(plan)
    }

    /// The site from its pages as read, one per planned page in order (an outline when the pages
    /// come without sections).
    pub fn finish(self, pages: impl IntoIterator<Item = PageRead>) -> Site {
        let mut reads = pages.into_iter();
        let mut warnings = self.config_warnings;
        let mut out = Vec::with_capacity(self.planned.len());
        // A snippet's own mistake comes with every page that includes it: reported once.
        let mut seen: HashSet<String> = warnings.iter().cloned().collect();
        for item in &self.items {
            match item {
                PlanItem::Missing(warning) => warnings.push(warning.clone()),
                PlanItem::Page => {
                    if let Some(read) = reads.next() {
                        warnings
                            .extend(read.warnings.into_iter().filter(|w| seen.insert(w.clone())));
                        out.push(read.page);
                    }
                }
            }
        }
        if !self.unlisted.is_empty() {
            let examples: Vec<&str> = self.unlisted.iter().take(5).map(String::as_str).collect();
            warnings.push(format!(
                "{} pages not in navigation, included as hidden pages (e.g. {})",
                self.unlisted.len(),
                examples.join(", ")
            ));
        }
        Site {
            name: self.name,
            languages: self.languages,
            versions: self.versions,
            pages: out,
            warnings,
            config: self.config,
        }
    }
}

/// A finished site without page bodies.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SiteOutline {
    /// Every page's `sections` is empty.
    pub site: Site,
    /// Each page's one-line description as `llms.txt` lists it (`agents::summary::page_summary`, which
    /// falls back to the page's first sentence: text the outline does not hold), in page order.
    pub summaries: Vec<String>,
}

impl SiteOutline {
    /// The outline of a whole site.
    pub fn of(site: &Site) -> SiteOutline {
        let summaries = site
            .pages
            .iter()
            .map(crate::agents::summary::page_summary)
            .collect();
        let mut site = site.clone();
        for page in &mut site.pages {
            page.sections = Vec::new();
        }
        SiteOutline { site, summaries }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        encode(&[FORMAT, KIND_OUTLINE], self)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<SiteOutline, IndexError> {
        let outline: SiteOutline = decode(bytes, &[FORMAT, KIND_OUTLINE])?;
        if outline.summaries.len() != outline.site.pages.len() {
            return Err(IndexError::Inconsistent("outline summaries"));
        }
        Ok(outline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::archive::tree;
    use crate::docs::site::{build_site, plan_site};

    #[test]
    fn outlines_and_plans_of_an_earlier_format_are_refused_by_their_first_byte() {
        let files = tree(&[
            (
                "docs.json",
                r#"{"name": "A", "fonts": {"family": "Inter"}, "navigation": {"pages": ["index"]}}"#,
            ),
            ("index.mdx", "# H"),
        ]);
        let site = build_site(&files).unwrap();
        let mut outline = SiteOutline::of(&site).to_bytes();
        let paths: Vec<&str> = files.keys().map(String::as_str).collect();
        let mut plan = plan_site(&files, &paths).unwrap().to_bytes();
        for bytes in [&mut outline, &mut plan] {
            assert_eq!(bytes[0], FORMAT);
            bytes[0] = FORMAT - 1;
        }
        assert!(matches!(
            SiteOutline::from_bytes(&outline),
            Err(IndexError::UnsupportedVersion(v)) if v == FORMAT - 1
        ));
        assert!(matches!(
            SitePlan::from_bytes(&plan),
            Err(IndexError::UnsupportedVersion(v)) if v == FORMAT - 1
        ));
    }

    #[test]
    fn plan_and_outline_round_trip_and_the_outline_has_no_bodies() {
        let files = tree(&[
            (
                "docs.json",
                r#"{"name": "A", "navigation": {"pages": ["index", "gone", "index"]}}"#,
            ),
            ("index.mdx", "---\ntitle: Home\n---\n# H\n\nText."),
            ("extra.mdx", "Extra"),
        ]);
        let paths: Vec<&str> = files.keys().map(String::as_str).collect();
        let plan = plan_site(&files, &paths).unwrap();
        assert_eq!(SitePlan::from_bytes(&plan.to_bytes()).unwrap(), plan);
        let site = build_site(&files).unwrap();
        let outline = SiteOutline::of(&site);
        assert!(outline.site.pages.iter().all(|p| p.sections.is_empty()));
        assert_eq!(outline.site.pages.len(), 2);
        assert_eq!(outline.site.warnings, site.warnings);
        assert_eq!(
            SiteOutline::from_bytes(&outline.to_bytes()).unwrap(),
            outline
        );
        assert!(
            SiteOutline::from_bytes(&plan.to_bytes()).is_err(),
            "a plan is not an outline"
        );
    }
}
