//! The site's versions in ranking. A versioned site keeps a near copy of many pages per version, and
//! a question usually means the current one: [`CurrentVersion`] lowers the other versions' pages a
//! little when the question names no version. [`NamedVersion`] is a question that does name one
//! ("In v1, what is a session?").

use super::index::PageMeta;
use super::tokenize::query_terms;

/// A page of another version than the site's current one keeps its score raised to this power when
/// the query names no version (0.50 -> 0.48, 0.80 -> 0.79): enough to order near copies that score
/// alike, current version first, and too little to lift a weak current page over an older one that
/// answers. At 1.1 an older version's section that says the answer in a sentence ("The `@agent`
/// decorator creates an agent span") leaves the assistant's five passages for the current version's
/// sections, which say it only in a table row.
const OTHER_VERSION_POWER: f32 = 1.05;

/// The site's current version: the one the host names ([`super::Query::current_version`], the site's
/// default), else the version of the index's first versioned page in navigation order, the first
/// version docs.json declares (the index keeps no `default: true`; the site's first page stands
/// for the default language the same way in `language.rs`).
pub(crate) struct CurrentVersion<'p> {
    pages: &'p [PageMeta],
    label: Option<&'p str>,
}

impl<'p> CurrentVersion<'p> {
    /// `current`: the host's word for it; `named`: the query names a version (a version label among
    /// its terms, or `filter.version`), then no version is preferred.
    pub(crate) fn new(pages: &'p [PageMeta], current: Option<&'p str>, named: bool) -> Self {
        let label = if named {
            None
        } else {
            current.or_else(|| pages.iter().find_map(|p| p.version.as_deref()))
        };
        CurrentVersion { pages, label }
    }

    /// The power a section of `page` raises its score to: 1, or [`OTHER_VERSION_POWER`] on a page of
    /// another version. Pages without a version belong to every version.
    pub(crate) fn power(&self, page: u32) -> f32 {
        match (
            self.label,
            self.pages
                .get(page as usize)
                .and_then(|p| p.version.as_deref()),
        ) {
            (Some(current), Some(version)) if version != current => OTHER_VERSION_POWER,
            _ => 1.0,
        }
    }
}

/// A query term that is one of the site's version labels ("In v1, what is a session?"): it names the
/// version the reader asks about, and the pages of that version rarely spell it. Those pages count it
/// as matched, as a word of their title.
pub(crate) struct NamedVersion<'p> {
    pub label: &'p str,
    pub term: String,
    pub idf: f32,
    /// Chunks that hold the term themselves: scored by their postings, not again.
    pub in_text: Vec<u32>,
}

impl<'p> NamedVersion<'p> {
    pub(crate) fn find(pages: &'p [PageMeta], terms: &[String]) -> Option<NamedVersion<'p>> {
        let mut seen: Vec<&str> = Vec::new();
        for label in pages.iter().filter_map(|p| p.version.as_deref()) {
            if seen.contains(&label) {
                continue;
            }
            seen.push(label);
            if let [term] = query_terms(label, 2).as_slice() {
                if terms.contains(term) {
                    return Some(NamedVersion {
                        label,
                        term: term.clone(),
                        idf: 0.0,
                        in_text: Vec::new(),
                    });
                }
            }
        }
        None
    }
}
