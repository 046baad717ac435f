//! The query's language, read from the index itself: the language of the section holding the most of
//! the query's terms (IDF-weighted), or of the site's first page when several languages' sections hold
//! as much. A translated site has a near copy of most pages per language, and a Spanish page sharing a
//! question's code sample and a cognate ("color") is not what an English reader asked for; without a
//! language filter such copies took up to half of the assistant's five passages. Pages in another
//! language are lowered, not dropped: they still answer when the query's language has nothing.

use super::index::PageMeta;

/// A page outside the query's language keeps its score raised to this power (0.6 -> 0.36).
const OTHER_LANGUAGE_POWER: f32 = 2.0;

/// Each page's language number, and the best matched IDF of any section in each language.
pub(crate) struct QueryLanguage {
    of_page: Vec<usize>,
    best: Vec<f32>,
}

impl QueryLanguage {
    pub(crate) fn new(pages: &[PageMeta]) -> Self {
        let mut names: Vec<&str> = Vec::new();
        let of_page = pages
            .iter()
            .map(|p| {
                names
                    .iter()
                    .position(|n| *n == p.language)
                    .unwrap_or_else(|| {
                        names.push(&p.language);
                        names.len() - 1
                    })
            })
            .collect();
        QueryLanguage {
            of_page,
            best: vec![0.0; names.len()],
        }
    }

    /// A section of `page` matched query terms weighing `matched_idf`.
    pub(crate) fn saw(&mut self, page: u32, matched_idf: f32) {
        if let Some(best) = self
            .of_page
            .get(page as usize)
            .and_then(|&l| self.best.get_mut(l))
        {
            *best = best.max(matched_idf);
        }
    }

    /// Each page's power once every section is seen: 1 in the query's language (language 0, the
    /// first page's, when it is among the best), `OTHER_LANGUAGE_POWER` elsewhere.
    pub(crate) fn powers(self) -> impl Fn(u32) -> f32 {
        let top = self.best.iter().copied().fold(0.0f32, f32::max);
        let mut chosen: Vec<bool> = self.best.iter().map(|b| *b >= top * 0.999).collect();
        if chosen.first() == Some(&true) {
            chosen.iter_mut().skip(1).for_each(|c| *c = false);
        }
        let of_page = self.of_page;
        move |page| match of_page.get(page as usize).and_then(|&l| chosen.get(l)) {
            Some(false) => OTHER_LANGUAGE_POWER,
            _ => 1.0,
        }
    }
}
