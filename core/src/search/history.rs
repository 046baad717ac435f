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
    /// Per page, once known: 1 a history page, 2 not; empty when the question asks about history.
    /// A query scores thousands of sections of a few hundred pages; each page is read once.
    known: Vec<u8>,
}

impl<'p> HistoryPages<'p> {
    /// `terms`: the query's terms (`tokenize::query_terms`).
    pub(crate) fn new(pages: &'p [PageMeta], terms: &[String]) -> Self {
        let history = query_terms(HISTORY_WORDS, 64);
        let asked = terms.iter().any(|t| history.contains(t));
        HistoryPages { pages, known: if asked { Vec::new() } else { vec![0; pages.len()] } }
    }

    /// The power a section of `page` raises its score to.
    pub(crate) fn power(&mut self, page: u32) -> f32 {
        let (Some(known), Some(meta)) = (self.known.get_mut(page as usize), self.pages.get(page as usize)) else {
            return 1.0;
        };
        if *known == 0 {
            *known = if is_history_page(meta) { 1 } else { 2 };
        }
        if *known == 1 { HISTORY_PAGE_POWER } else { 1.0 }
    }
}

fn is_history_page(page: &PageMeta) -> bool {
    let last = page.path.rsplit('/').next().unwrap_or("");
    HISTORY_PAGE_NAMES.iter().any(|name| names_match(last, name) || names_match(&page.title, name))
}

/// `text` is `name`, ignoring ASCII case and surrounding space, `-` and `_` read as spaces.
fn names_match(text: &str, name: &str) -> bool {
    let mut text = text.trim().chars().map(|c| match c {
        '-' | '_' => ' ',
        '’' => '\'',
        c => c.to_ascii_lowercase(),
    });
    let mut name = name.chars();
    loop {
        match (text.next(), name.next()) {
            (None, None) => return true,
            (Some(a), Some(b)) if a == b => {}
            _ => return false,
        }
    }
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
        let mut plain = HistoryPages::new(&pages, &query_terms("cap size of tool output", 16));
        assert_eq!([plain.power(0), plain.power(1), plain.power(2), plain.power(1)], [1.0, HISTORY_PAGE_POWER, HISTORY_PAGE_POWER, HISTORY_PAGE_POWER]);
        let mut asked = HistoryPages::new(&pages, &query_terms("what changed in the 3.0 release", 16));
        assert_eq!(asked.power(1), 1.0);
        assert_eq!(HistoryPages::new(&[page("create/changelogs-guide", "Write a changelog")], &[]).power(0), 1.0, "a guide about changelogs is no changelog");
        assert_eq!(HistoryPages::new(&[page("docs/whats_new", "What’s New")], &[]).power(0), HISTORY_PAGE_POWER);
        assert!(!names_match("changelogs guide", "changelog") && names_match(" Release-Notes ", "release notes"));
    }
}
