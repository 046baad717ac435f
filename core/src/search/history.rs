//! Changelogs and release notes mention every feature once, in passing ("ResponseLimitingMiddleware
//! caps tool response sizes", "Added `.mintignore` support"), with the very words a question about
//! the feature uses; the page that explains it says more and ranks below them. A section of such a
//! page scores its score to [`HISTORY_PAGE_POWER`] unless the question asks about history itself
//! ("what changed in 3.0", "changelog", "release notes", "when was … added").

use super::index::PageMeta;
use super::tokenize::query_terms;

/// 0.60 -> 0.51, 0.80 -> 0.75: a changelog entry that matches as well as the feature's own page
/// falls below it; one that alone matches still ranks.
const HISTORY_PAGE_POWER: f32 = 1.3;

/// The last path segment or the title of a history page, as written (compared lowercased, `-` and
/// `_` as spaces).
const HISTORY_PAGE_NAMES: [&str; 9] = [
    "changelog", "changelogs", "change log", "release notes", "releases", "release history", "what's new",
    "whats new", "updates",
];

/// Words of a question about history itself: then the history pages keep their score.
const HISTORY_WORDS: &str = "changelog changelogs release releases released new added introduced changed history deprecated removed since";

pub(crate) struct HistoryPages<'p> {
    pages: &'p [PageMeta],
    asked: bool,
}

impl<'p> HistoryPages<'p> {
    /// `terms`: the query's terms (`tokenize::query_terms`).
    pub(crate) fn new(pages: &'p [PageMeta], terms: &[String]) -> Self {
        let history = query_terms(HISTORY_WORDS, 64);
        HistoryPages { pages, asked: terms.iter().any(|t| history.contains(t)) }
    }

    /// The power a section of `page` raises its score to.
    pub(crate) fn power(&self, page: u32) -> f32 {
        match self.pages.get(page as usize) {
            Some(p) if !self.asked && is_history_page(p) => HISTORY_PAGE_POWER,
            _ => 1.0,
        }
    }
}

fn is_history_page(page: &PageMeta) -> bool {
    let name = |s: &str| s.trim().to_lowercase().replace(['-', '_'], " ").replace('’', "'");
    let last = page.path.rsplit('/').next().unwrap_or("");
    [name(last), name(&page.title)].iter().any(|n| HISTORY_PAGE_NAMES.contains(&n.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(path: &str, title: &str) -> PageMeta {
        PageMeta {
            path: path.into(),
            title: title.into(),
            sidebar_title: None,
            language: "en".into(),
            version: None,
            tab: None,
            groups: Vec::new(),
            title_len: 1,
            first_chunk: 0,
            chunk_count: 1,
        }
    }

    #[test]
    fn a_changelog_is_lowered_unless_the_question_asks_about_history() {
        let pages = [page("servers/middleware", "Middleware"), page("changelog", "Changelog"), page("v2/release-notes", "Notes")];
        let plain = HistoryPages::new(&pages, &query_terms("cap size of tool output", 16));
        assert_eq!([plain.power(0), plain.power(1), plain.power(2)], [1.0, HISTORY_PAGE_POWER, HISTORY_PAGE_POWER]);
        let asked = HistoryPages::new(&pages, &query_terms("what changed in the 3.0 release", 16));
        assert_eq!(asked.power(1), 1.0);
        assert_eq!(HistoryPages::new(&[page("create/changelogs-guide", "Write a changelog")], &[]).power(0), 1.0, "a guide about changelogs is no changelog");
    }
}
