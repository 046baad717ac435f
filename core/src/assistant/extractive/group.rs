//! Quoted material of one passage and how it is written into the answer.

use super::labels::Words;
use super::markdown::join_sentences;
use super::sentences::ends_with_colon;
use super::tuning::THIN_SECTION_CHARS;
use super::units::{Analyzed, Unit};

/// Quoted material of one passage.
pub(super) struct Group<'a, 'p> {
    pub(super) passage: usize,
    pub(super) analyzed: &'a Analyzed<'p>,
    pub(super) picks: Vec<usize>,
    /// A snippet quoted after the group's sentences (`markdown::quoted_code`).
    pub(super) code: Option<String>,
    /// The endpoint line (`` `POST /report` ``) opening an API reference page's intro: the quote
    /// opens with it, since the method and path are what a reader calls.
    pub(super) endpoint: Option<String>,
}

impl Group<'_, '_> {
    /// Quotes a unit (or a code block) naming something the question does not.
    pub(super) fn names_new(&self, question: &str) -> bool {
        let question = question.to_lowercase();
        self.code.is_some()
            || self
                .picks
                .iter()
                .any(|&i| self.analyzed.units[i].names_new(&question))
    }

    /// Quotes a sentence or two of prose and no list or table: under `THIN_SECTION_CHARS`, not
    /// counting a code block (the error a "Symptom" shows is not the prose that says what to do).
    pub(super) fn says_little(&self) -> bool {
        let units = &self.analyzed.units;
        let plain = self
            .picks
            .iter()
            .all(|&i| !units[i].is_list || units[i].is_code);
        let prose: usize = self
            .picks
            .iter()
            .filter(|&&i| !units[i].is_code)
            .map(|&i| units[i].text.chars().count())
            .sum();
        plain && prose < THIN_SECTION_CHARS
    }

    /// Quotes a sentence the answer can open with.
    pub(super) fn has_lead(&self) -> bool {
        self.picks
            .iter()
            .any(|&i| self.analyzed.units[i].can_lead())
    }

    /// Quotes prose, all of it pointers to other pages or sentences that refer back.
    pub(super) fn only_points_elsewhere(&self) -> bool {
        let units = &self.analyzed.units;
        let mut prose = self.picks.iter().filter(|&&i| !units[i].is_list).peekable();
        prose.peek().is_some() && prose.all(|&i| units[i].points_elsewhere())
    }

    /// Paragraphs in document order, except that the group's lead sentence (its best) comes first
    /// in the opening group; every prose paragraph ends with the citation.
    pub(super) fn render(&self, n: usize, lead: bool, words: &Words) -> String {
        let units = &self.analyzed.units;
        let mut order = self.picks.clone();
        crate::sort::sort_by_key(&mut order, |&i| (units[i].block, units[i].seq));
        if lead {
            // The lead keeps the picks that follow it in its paragraph; earlier ones come after.
            let prose = |i: &usize| !units[*i].is_list;
            let first = self.picks.iter().copied().find(|&i| units[i].can_lead());
            if let Some(first) = first.or_else(|| self.picks.iter().copied().find(prose)) {
                let key = |i: usize| (units[i].block, units[i].seq);
                let block = units[first].block;
                // A paragraph ending in `:` keeps the list or code it introduces right after it.
                let intro = order
                    .iter()
                    .rev()
                    .find(|&&i| units[i].block == block)
                    .is_some_and(|&i| !units[i].is_list && ends_with_colon(&units[i].text));
                let (follow, rest): (Vec<usize>, Vec<usize>) = order.iter().partition(|&&i| {
                    units[i].block == block && key(i) >= key(first)
                        || intro && units[i].block == block + 1
                });
                order = follow.into_iter().chain(rest).collect();
            }
        }
        let cite = format!(" [{n}]");
        // Consecutive sentences of one passage read as one paragraph even across source blocks; a
        // list breaks the run. Each run ends with the citation.
        let mut out: Vec<String> = Vec::new();
        let mut run: Vec<&str> = Vec::new();
        let mut any_prose = false;
        let mut prev: Option<&Unit> = None;
        for &i in &order {
            let u = &units[i];
            let was = prev.replace(u);
            let prev = was;
            if u.is_list {
                if !run.is_empty() {
                    out.push(format!("{}{cite}", join_sentences(&run)));
                    run.clear();
                }
                // Items of one card grid stay one Markdown list.
                let same_grid =
                    prev.is_some_and(|p: &Unit| p.is_list && !p.is_code && p.block == u.block);
                match out.last_mut() {
                    Some(last) if same_grid => {
                        last.push('\n');
                        last.push_str(&u.text);
                    }
                    _ => out.push(u.text.clone()),
                }
            } else {
                any_prose = true;
                run.push(&u.text);
            }
        }
        if !run.is_empty() {
            out.push(format!("{}{cite}", join_sentences(&run)));
        }
        // A group of only lists or code still needs to say where it comes from.
        if !any_prose {
            out.insert(0, words.from(&self.analyzed.passage.label(), n));
        }
        if let Some(endpoint) = &self.endpoint {
            out.insert(0, endpoint.clone());
        }
        if let Some(quoted) = &self.code {
            out.push(quoted.clone());
        }
        out.join("\n\n")
    }
}
