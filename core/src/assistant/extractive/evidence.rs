//! Whether retrieval found the docs answer the question, and whether a further passage earns a
//! citation: the gates before and between the quotes.

use super::scoring::Scored;
use super::sentences::words;
use super::tuning::{
    CLOSE_EVIDENCE, COVERED_EVIDENCE, MAX_PASSAGES, MIN_QUOTE_SHARE, MIN_SUPPORT,
    SAME_PAGE_QUOTE_SHARE, SCORE_IN_EVIDENCE,
};
use crate::assistant::passage::Passage;
use crate::docs::sections::is_fence_line;

/// Whether a passage after the lead earns a citation of its own (see `MIN_SUPPORT`). `top` is the
/// lead's best unit score.
pub(super) fn earns_citation(s: &Scored, lead: &Scored, top: f32) -> bool {
    if s.best <= 0.0 || top <= 0.0 {
        return false;
    }
    let quote = s.best / top;
    let lead_score = lead.a.passage.score;
    let retrieval = if lead_score > 0.0 {
        s.a.passage.score / lead_score
    } else {
        1.0
    };
    let same_page = s.a.passage.path == lead.a.passage.path;
    quote >= MIN_QUOTE_SHARE
        && (quote * retrieval >= MIN_SUPPORT || same_page && quote >= SAME_PAGE_QUOTE_SHARE)
}

/// Whether retrieval found evidence that the docs answer the question (see `COVERED_EVIDENCE`).
pub(super) fn is_covered(passages: &[Passage]) -> bool {
    best_evidence(passages) >= COVERED_EVIDENCE
}

/// Whether some passage is close to the question, though none covers it (see `CLOSE_EVIDENCE`).
pub(super) fn is_close(passages: &[Passage]) -> bool {
    best_evidence(passages) >= CLOSE_EVIDENCE
}

pub(super) fn best_evidence(passages: &[Passage]) -> f32 {
    passages
        .iter()
        .take(MAX_PASSAGES)
        .filter(|p| p.coverage > 0.0)
        .map(|p| p.coverage + SCORE_IN_EVIDENCE * p.score)
        .fold(0.0, f32::max)
}

/// Whether a capitalized word of the question (`Go`, `Hebrew`; not an acronym, which code and paths
/// write in lower case: `.pdf`, `json`) appears in no passage as that name: past its sentence's first
/// word with its capital, in code, or in the page's title or the section's heading.
pub(super) fn names_unmet(question: &str, passages: &[Passage]) -> bool {
    let acronym = |w: &&str| !w.chars().any(char::is_lowercase);
    let asked: Vec<&str> = crate::text::named_words(question)
        .into_iter()
        .filter(|w| !acronym(w))
        .collect();
    if asked.is_empty() {
        return false;
    }
    let passages = &passages[..passages.len().min(MAX_PASSAGES)];
    // Borrowed from the passages and compared caselessly in place: no string per word.
    let mut held: Vec<&str> = Vec::new();
    for p in passages {
        held.extend(crate::text::named_words(&p.text));
        held.extend(words(&p.title));
        held.extend(words(&p.heading));
        held.extend(code_text(&p.text).into_iter().flat_map(words));
        held.extend(p.text.lines().filter_map(listed_name));
    }
    asked
        .iter()
        .any(|name| !held.iter().any(|h| same_caseless(h, name)))
}

fn same_caseless(a: &str, b: &str) -> bool {
    a.chars()
        .flat_map(char::to_lowercase)
        .eq(b.chars().flat_map(char::to_lowercase))
}

/// The name a list item is (`- Anthropic (Coming Soon)`, `- Vercel: …`): its first word, when
/// nothing but a note or a description follows it. A step ("- Go to Settings") is not one.
pub(super) fn listed_name(line: &str) -> Option<&str> {
    let item = line.trim_start();
    let item = item
        .strip_prefix("- ")
        .or_else(|| item.strip_prefix("* "))
        .or_else(|| {
            item.split_once(". ")
                .filter(|(n, _)| n.parse::<u32>().is_ok())
                .map(|(_, i)| i)
        })?;
    let end = item
        .find(|c: char| !c.is_alphanumeric())
        .unwrap_or(item.len());
    let (word, rest) = item.split_at(end);
    let named = rest.is_empty()
        || [" (", ":", " —", " – ", " - ", ","]
            .iter()
            .any(|s| rest.starts_with(s));
    (named && word.chars().next().is_some_and(char::is_uppercase)).then_some(word)
}

/// The code of a passage's text: its fenced blocks' lines and its inline code spans.
pub(super) fn code_text(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if is_fence_line(line) {
            fenced = !fenced;
        } else if fenced {
            out.push(line);
        } else {
            out.extend(line.split('`').skip(1).step_by(2));
        }
    }
    out
}

/// Whether a snippet belongs in the answer: for every question but one asking why, or what something
/// is or does ("What is a session?", "Why are my builds slow?"), which prose answers. The asked thing
/// is most often set, called or run in code ("cli headless json output", "Which endpoint …", "Where
/// do I set …"), and a snippet that shares the question's terms states it.
pub(super) fn asks_for_code(question: &str) -> bool {
    let lower = question.to_lowercase();
    let mut words = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty());
    let explains = matches!(words.next(), Some("why" | "what"))
        && matches!(words.next(), Some("is" | "are" | "does" | "do" | "happens"));
    !explains
}
