//! Scores of the relevant passages' units by the question terms they hold, rare terms weighing most.

use super::sentences::is_title_line;
use super::tuning::{
    CODE_FREE_WORDS, DEFINITION_WEIGHT, FREE_WORDS, HISTORY_RANK_WEIGHT, NAMED_HEADING_WEIGHT,
    NAMES_HELD_WEIGHT, NAMES_WEIGHT, TITLE_LINE_WEIGHT,
};
use super::units::{Analyzed, Unit};
use crate::assistant::query::terms;
use crate::search::page_kind::is_history;
use crate::text::is_cjk;
use crate::text::question::identifiers;

/// Inverse unit frequency of each question term over the relevant passages.
pub(super) struct TermWeights {
    pub(super) weights: Vec<(String, f32)>,
    /// Terms of what the question writes as a name (`named_terms`).
    named: Vec<String>,
    /// Terms of the names a passage about the question holds (`held_names`).
    held_names: Vec<String>,
}

impl TermWeights {
    pub(super) fn new(question: &str, q: &[String], analyzed: &[Analyzed]) -> Self {
        let shares = number_shares(question);
        let units: Vec<&Unit> = analyzed.iter().flat_map(|a| a.units.iter()).collect();
        let total = units.len().max(1) as f32;
        let weights = q
            .iter()
            .map(|t| {
                let df = units.iter().filter(|u| u.terms.contains(t)).count().max(1) as f32;
                let cjk = if t.chars().any(is_cjk) { 0.5 } else { 1.0 };
                let share = shares.iter().find(|(n, _)| n == t).map_or(1.0, |&(_, s)| s);
                (t.clone(), share * cjk * (1.0 + libm::logf(total / df)))
            })
            .collect();
        Self {
            weights,
            named: named_terms(question),
            held_names: held_names(question),
        }
    }

    /// The weight of the question's names among `terms`.
    pub(super) fn named_score(&self, terms: &[String]) -> f32 {
        self.weights
            .iter()
            .filter(|(t, _)| terms.contains(t) && self.named.contains(t))
            .map(|(_, w)| w)
            .sum()
    }

    /// The share of the question's names (by weight) that `a` holds anywhere, 1 when it names none.
    pub(super) fn named_share(&self, a: &Analyzed) -> f32 {
        let mut all = 0.0;
        let mut held = 0.0;
        for (t, w) in self
            .weights
            .iter()
            .filter(|(t, _)| self.held_names.contains(t))
        {
            all += w;
            if a.heading_terms.contains(t) || a.units.iter().any(|u| u.terms.contains(t)) {
                held += w;
            }
        }
        if all > 0.0 {
            held / all
        } else {
            1.0
        }
    }

    pub(super) fn score(&self, terms: &[String]) -> f32 {
        self.weights
            .iter()
            .filter(|(t, _)| terms.contains(t))
            .map(|(_, w)| w)
            .sum()
    }
}

/// A relevant passage with its unit scores.
pub(super) struct Scored<'a, 'p> {
    pub(super) a: &'a Analyzed<'p>,
    pub(super) unit_scores: Vec<f32>,
    pub(super) best: f32,
}

impl<'a, 'p> Scored<'a, 'p> {
    pub(super) fn new(
        a: &'a Analyzed<'p>,
        rank: usize,
        weights: &TermWeights,
        wants_code: bool,
        lower_history: bool,
    ) -> Self {
        // Retrieval already weighed titles and headings; a lower-ranked passage must quote clearly
        // better to be preferred.
        let rank_factor = 1.0 / (1.0 + 0.3 * rank as f32);
        // A changelog names every feature once, in the words a question about it uses; the
        // feature's own page says how. Search lowers it the same way.
        let in_passing = lower_history && is_history(&a.passage.path, &a.passage.title);
        let rank_factor = match in_passing {
            true => rank_factor * HISTORY_RANK_WEIGHT,
            false => rank_factor,
        };
        let match_scores: Vec<f32> = a
            .units
            .iter()
            .map(|u| {
                let free = if wants_code && u.is_code {
                    CODE_FREE_WORDS
                } else {
                    FREE_WORDS
                };
                let length_factor = words_factor(&u.text, free);
                let title_line = if !u.is_list && is_title_line(&u.text) {
                    TITLE_LINE_WEIGHT
                } else {
                    1.0
                };
                let defines = if u.defines { DEFINITION_WEIGHT } else { 1.0 };
                let matched = weights.score(&u.terms) * length_factor;
                // A snippet's comment is its author's sentence about the line it sits on ("# this
                // will remove the tag"): a long block whose comment says what the question asks
                // is scored as that sentence would be, not diluted by the code around it.
                let commented = match u.is_code {
                    true => code_comments(&u.text)
                        .map(|c| weights.score(&terms(c)) * words_factor(c, FREE_WORDS))
                        .fold(0.0, f32::max),
                    false => 0.0,
                };
                matched.max(commented) * rank_factor * title_line * defines
            })
            .collect();
        // The weight for names also decides which passage leads: the one whose best unit names
        // what the reader sets or runs.
        let unit_scores: Vec<f32> = a
            .units
            .iter()
            .zip(&match_scores)
            .map(|(u, &score)| {
                if wants_code && (u.is_code || u.text.contains('`')) {
                    score * NAMES_WEIGHT
                } else {
                    score
                }
            })
            .collect();
        let best_unit = unit_scores.iter().copied().fold(0.0f32, f32::max);
        // A heading that names the question's subject makes the section the better source.
        // One that names what the question writes as a name (the `ECONNREFUSED` it quotes) is
        // where the docs treat that case.
        let heading_bonus = (0.3 * weights.score(&a.heading_terms)
            + NAMED_HEADING_WEIGHT * weights.named_score(&a.heading_terms))
            * rank_factor;
        // A passage that never says a name the question writes ("fall back to Azure when OpenAI
        // fails" against a page of OpenAI credential fallbacks) is about something else, however
        // many of the question's other words its best sentence holds.
        let held = weights.named_share(a);
        let best = if best_unit > 0.0 {
            (best_unit + heading_bonus) * (1.0 - NAMES_HELD_WEIGHT + NAMES_HELD_WEIGHT * held)
        } else {
            0.0
        };
        Self {
            a,
            unit_scores,
            best,
        }
    }
}

/// How much a unit of `text` keeps of its score: whole up to `free` words (or a third of its
/// characters), then less the longer it is.
fn words_factor(text: &str, free: f32) -> f32 {
    let len = text
        .split_whitespace()
        .count()
        .max(text.chars().count() / 3) as f32;
    1.0 / (1.0 + (len - free).max(0.0) / free)
}

/// The comments of a fenced snippet: what follows `# ` or `// ` at a line's start or after a space.
fn code_comments(code: &str) -> impl Iterator<Item = &str> {
    code.lines().filter_map(|line| {
        let at = [" # ", " // "]
            .iter()
            .filter_map(|m| line.find(m).map(|i| i + m.len()))
            .min()
            .or_else(|| {
                let trimmed = line.trim_start();
                ["# ", "// "]
                    .iter()
                    .find(|m| trimmed.starts_with(**m))
                    .map(|m| line.len() - trimmed.len() + m.len())
            })?;
        Some(&line[at..])
    })
}

/// The numbers one written value splits into (`192.168.1.136`, `v4.4.2`, `8.0.1`) are one value: each
/// weighs its share, or an address would count three times against the one word beside it.
fn number_shares(question: &str) -> Vec<(String, f32)> {
    let mut out: Vec<(String, f32)> = Vec::new();
    for word in question.split_whitespace() {
        let numbers: Vec<String> = terms(word)
            .into_iter()
            .filter(|t| t.chars().all(|c| c.is_ascii_digit()))
            .collect();
        let share = 1.0 / numbers.len().max(1) as f32;
        for n in numbers.into_iter().filter(|_| share < 1.0) {
            if !out.iter().any(|(t, _)| *t == n) {
                out.push((n, share));
            }
        }
    }
    out
}

/// Terms of what the question writes as names (`text::question::identifiers`): code spans, words
/// shaped as identifiers (`ECONNREFUSED`, `AttributeError`, `max_tokens`) and product nouns.
fn named_terms(question: &str) -> Vec<String> {
    identifiers(question).into_iter().flat_map(terms).collect()
}

/// Terms of the question's code spans, and of its other names written with a lower-case letter
/// (`OpenAI`, `Azure`, `max_tokens`): an acronym (`SSE`, `HMAC`) or a number (`401`) is often spelled
/// out or left unsaid by the page that answers.
fn held_names(question: &str) -> Vec<String> {
    let spans: Vec<&str> = question.split('`').skip(1).step_by(2).collect();
    identifiers(question)
        .into_iter()
        .filter(|n| spans.contains(n) || n.chars().any(char::is_lowercase))
        .flat_map(terms)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::code_comments;

    #[test]
    fn code_comments_are_what_follows_a_hash_or_slashes_not_a_url_or_a_color() {
        let code = "# install first\nurl = \"https://example.com/#top\"\ncolor: #fff\nx = 1 // the retry count\n#include <x>";
        let found: Vec<&str> = code_comments(code).collect();
        assert_eq!(found, ["install first", "the retry count"]);
    }
}
