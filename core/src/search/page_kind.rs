//! Pages whose kind makes them mention a feature in the very words a question about it uses, while
//! another page explains it; a section of one scores its score to a power above 1, unless the
//! question asks for that kind of page.
//! - History: changelogs and release notes mention every feature once, in passing
//!   ("ResponseLimitingMiddleware caps tool response sizes", "Added `.mintignore` support"); kept
//!   when the question asks about history ("what changed in 3.0", "when was … added").
//! - Reference: a generated API or configuration reference lists every option with a line of its
//!   own, each holding the option's words, and outranks the guide that says how to use it (a
//!   "configuration-reference" section above the guide's; this project's own API reference above
//!   its guides). Always lowered, and only a little: a question that names an endpoint often wants
//!   the guide to it ("Does the chat endpoint work with useChat?"), and keeping the reference's
//!   score for such words cost own-docs hit@1 0.50 → 0.42 and moved no other set.

use super::index::PageMeta;
use super::tokenize::query_terms;

/// 0.60 -> 0.51, 0.80 -> 0.75: a changelog entry that matches as well as the feature's own page
/// falls below it; one that alone matches still ranks.
const HISTORY_PAGE_POWER: f32 = 1.3;

/// The last path segment or the title of a history page, as written (compared lowercased, `-` and
/// `_` as spaces).
const HISTORY_PAGE_NAMES: [&str; 9] = [
    "changelog",
    "changelogs",
    "change log",
    "release notes",
    "releases",
    "release history",
    "what's new",
    "whats new",
    "updates",
];

/// Words of a question about history itself: then the history pages keep their score.
const HISTORY_WORDS: &str = "changelog changelogs release releases released new added introduced changed history deprecated removed since";

/// 0.60 -> 0.57: a nudge, which only reorders sections that score alike. Measured on every set
/// (docs/assistant/quality.mdx): 1.25 lowers dify-docs' hit@1, whose API reference answers its
/// questions about the API in words the question does not mark as such.
const REFERENCE_PAGE_POWER: f32 = 1.1;

/// A word of the path (between `/`, `-`, `_`, `.`) that names a reference page (`api-reference`,
/// `api_reference`, `configuration-reference`, `reference`; not `preferences`).
const REFERENCE_WORD: &str = "reference";

pub(crate) struct PageKinds<'p> {
    pages: &'p [PageMeta],
    /// Per page, once known: its power (0 while unknown). A query scores thousands of sections of
    /// a few hundred pages; each page is read once.
    known: Vec<f32>,
    history_asked: bool,
}

impl<'p> PageKinds<'p> {
    /// `terms`: the query's terms (`tokenize::query_terms`).
    pub(crate) fn new(pages: &'p [PageMeta], terms: &[String]) -> Self {
        let history_asked = names_history(terms);
        PageKinds {
            pages,
            known: vec![0.0; pages.len()],
            history_asked,
        }
    }

    /// The power a section of `page` raises its score to.
    pub(crate) fn power(&mut self, page: u32) -> f32 {
        let (Some(known), Some(meta)) = (
            self.known.get_mut(page as usize),
            self.pages.get(page as usize),
        ) else {
            return 1.0;
        };
        if *known == 0.0 {
            *known = if !self.history_asked && is_history_page(meta) {
                HISTORY_PAGE_POWER
            } else if is_reference_page(meta) {
                REFERENCE_PAGE_POWER
            } else {
                1.0
            };
        }
        *known
    }
}

fn is_history_page(page: &PageMeta) -> bool {
    is_history(&page.path, &page.title)
}

/// A changelog or release notes page, by its path's last segment or its title.
pub(crate) fn is_history(path: &str, title: &str) -> bool {
    let last = path.rsplit('/').next().unwrap_or("");
    HISTORY_PAGE_NAMES
        .iter()
        .any(|name| names_match(last, name) || names_match(title, name))
}

/// The question asks about history itself ("what changed in 3.0", "when was … added").
pub(crate) fn asks_history(question: &str) -> bool {
    names_history(&query_terms(question, 64))
}

fn names_history(terms: &[String]) -> bool {
    let history = query_terms(HISTORY_WORDS, 64);
    terms.iter().any(|t| history.contains(t))
}

fn is_reference_page(page: &PageMeta) -> bool {
    // Read once per page a query touches, thousands per query: no allocation.
    let mut words = page.path.split(['/', '-', '_', '.']);
    words.any(|word| {
        word.eq_ignore_ascii_case(REFERENCE_WORD) || word.eq_ignore_ascii_case("references")
    })
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
        let pages = [
            page("servers/middleware", "Middleware"),
            page("changelog", "Changelog"),
            page("v2/release-notes", "Notes"),
        ];
        let mut plain = PageKinds::new(&pages, &query_terms("cap size of tool output", 16));
        assert_eq!(
            [
                plain.power(0),
                plain.power(1),
                plain.power(2),
                plain.power(1)
            ],
            [
                1.0,
                HISTORY_PAGE_POWER,
                HISTORY_PAGE_POWER,
                HISTORY_PAGE_POWER
            ]
        );
        let mut asked = PageKinds::new(&pages, &query_terms("what changed in the 3.0 release", 16));
        assert_eq!(asked.power(1), 1.0);
        assert_eq!(
            PageKinds::new(&[page("create/changelogs-guide", "Write a changelog")], &[]).power(0),
            1.0,
            "a guide about changelogs is no changelog"
        );
        assert_eq!(
            PageKinds::new(&[page("docs/whats_new", "What’s New")], &[]).power(0),
            HISTORY_PAGE_POWER
        );
        assert!(
            !names_match("changelogs guide", "changelog")
                && names_match(" Release-Notes ", "release notes")
        );
    }

    #[test]
    fn a_reference_page_is_lowered_a_little() {
        let pages = [
            page("guides/retries", "Retries"),
            page("gateway/configuration-reference", "Configuration"),
            page("api-reference/post-report", "Report"),
            page("developers/api_reference/chat", "Chat"),
            page("settings/user-preferences", "Preferences"),
        ];
        let mut plain = PageKinds::new(
            &pages,
            &query_terms("default timeout for outgoing requests", 16),
        );
        let powers: Vec<f32> = (0..5).map(|p| plain.power(p)).collect();
        assert_eq!(
            powers,
            [
                1.0,
                REFERENCE_PAGE_POWER,
                REFERENCE_PAGE_POWER,
                REFERENCE_PAGE_POWER,
                1.0
            ]
        );
        let mut about_history = PageKinds::new(
            &pages,
            &query_terms("what changed in the configuration reference", 16),
        );
        assert_eq!(about_history.power(1), REFERENCE_PAGE_POWER);
    }
}
