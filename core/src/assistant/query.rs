//! The retrieval query for a conversation turn, and the term normalization that answer composition
//! shares with it (so "what the question asks about" means the same thing in both places). A long
//! message is read for what it asks (`text::question::focus`): its asking sentences, and only the names and
//! identifiers of the narrative around them.
//!
//! Inputs are plain strings so this does not depend on the request types: the caller passes the
//! user turns newest first and the values of the request's `context` items. The terms are
//! `crate::text`'s [`Analyzer::AssistantKeywords`].

use crate::text::question::focus;
use crate::text::{Analyzer, Piece};

/// Longest slice of the newest user message that goes into the query; BM25 gains nothing from a
/// pasted essay and the search cost grows with query length.
const MAX_QUESTION_CHARS: usize = 500;
/// Per context item and in total: a code selection can be huge, but its first lines carry the
/// identifiers that matter.
const MAX_CONTEXT_ITEM_CHARS: usize = 300;
const MAX_CONTEXT_TOTAL_CHARS: usize = 600;
/// Terms carried over from earlier turns, newest turn first, at most this many per turn.
const CARRY_PER_TURN: [usize; 3] = [6, 4, 2];

/// Builds the text handed to search for the newest user turn.
///
/// Priority is expressed by order (search weighs all terms, but the caller may truncate): the newest
/// message (a long one read for what it asks, `focus`; whitespace collapsed, capped), then the
/// context values, then — only when the
/// newest message looks like a follow-up — content terms of up to three earlier user turns that the
/// newer text does not already contain. A follow-up is a message that refers back ("it", "that",
/// "and …", "what about …") or has fewer than two content terms of its own.
pub fn retrieval_query(user_turns_latest_first: &[&str], context_values: &[&str]) -> String {
    let mut turns = user_turns_latest_first.iter().map(|t| t.trim());
    // Empty turns (attachments only, say) carry no question; the newest non-empty one is asked.
    let latest = turns.by_ref().find(|t| !t.is_empty()).unwrap_or("");
    let earlier: Vec<&str> = turns.filter(|t| !t.is_empty()).collect();

    let mut out = collapse_whitespace(&focus(latest), MAX_QUESTION_CHARS);
    let mut budget = MAX_CONTEXT_TOTAL_CHARS;
    for value in context_values {
        if budget == 0 {
            break;
        }
        let piece = collapse_whitespace(value, MAX_CONTEXT_ITEM_CHARS.min(budget));
        if piece.is_empty() {
            continue;
        }
        budget = budget.saturating_sub(piece.chars().count());
        push_word(&mut out, &piece);
    }

    if !earlier.is_empty() && is_follow_up(latest) {
        let mut seen: Vec<String> = terms(&out);
        for (turn, cap) in earlier.iter().zip(CARRY_PER_TURN) {
            let mut taken = 0;
            for term in content_words(turn) {
                if taken == cap {
                    break;
                }
                let key = Analyzer::AssistantKeywords.stem(&term);
                if seen.contains(&key) {
                    continue;
                }
                seen.push(key);
                push_word(&mut out, &term);
                taken += 1;
            }
        }
    }
    out
}

/// Whether a message leans on an earlier turn for its subject.
pub fn is_follow_up(message: &str) -> bool {
    let lower = message.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    let starts_with_link = matches!(
        words.first(),
        Some(&("and" | "or" | "but" | "also" | "then" | "y" | "et"))
    ) || lower.starts_with("what about")
        || lower.starts_with("how about");
    let refers_back = words.iter().any(|w| ANAPHORA.contains(w))
        || ["它", "这个", "那个", "这些", "那些"]
            .iter()
            .any(|p| lower.contains(p));
    starts_with_link || refers_back || terms(message).len() < 2
}

/// Normalized, de-duplicated content terms of `text`, in order of first appearance: the
/// [`Analyzer::AssistantKeywords`] terms (lowercased, stop words dropped, a plural `s` stripped,
/// runs of CJK ideographs as overlapping bigrams because that text has no spaces to split on).
pub fn terms(text: &str) -> Vec<String> {
    Analyzer::AssistantKeywords.distinct_terms(text, usize::MAX)
}

/// Like `terms`, but keeps the surface form (lowercased) so the query reads naturally.
fn content_words(text: &str) -> Vec<String> {
    let analyzer = Analyzer::AssistantKeywords;
    let mut out: Vec<String> = Vec::new();
    analyzer.pieces(text, |piece| {
        let word = match piece {
            Piece::Word(w) if !analyzer.is_stop_word(w) => w.to_owned(),
            Piece::Word(_) => return,
            Piece::Run(run) => run.iter().collect(),
        };
        if !out.contains(&word) {
            out.push(word);
        }
    });
    out
}

fn collapse_whitespace(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    for word in text.split_whitespace() {
        let len = word.chars().count();
        if count > 0 && count + 1 + len > max_chars {
            break;
        }
        if count == 0 && len > max_chars {
            out.extend(word.chars().take(max_chars));
            break;
        }
        if count > 0 {
            out.push(' ');
            count += 1;
        }
        out.push_str(word);
        count += len;
    }
    out
}

fn push_word(out: &mut String, word: &str) {
    if !out.is_empty() {
        out.push(' ');
    }
    out.push_str(word);
}

const ANAPHORA: &[&str] = &[
    "it", "its", "it's", "this", "that", "these", "those", "they", "them", "their", "there", "one",
    "ones", "same", "above", "eso", "esto", "ello", "ça", "cela", "celui", "celle",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_drop_stop_words_and_fold_plurals() {
        assert_eq!(
            terms("How do I start a static export job? Jobs!"),
            vec!["start", "static", "export", "job"]
        );
        assert_eq!(terms("entries policies"), vec!["entry", "policy"]);
    }

    #[test]
    fn terms_make_cjk_bigrams() {
        assert_eq!(
            terms("如何导出静态站点"),
            vec!["何导", "导出", "出静", "静态", "态站", "站点"]
        );
        assert_eq!(terms("API 密钥"), vec!["api", "密钥"]);
    }

    #[test]
    fn follow_up_query_carries_the_earlier_topic() {
        let q = retrieval_query(
            &["and how long is it valid?", "How do I generate a bundle?"],
            &[],
        );
        assert!(q.starts_with("and how long is it valid?"), "{q}");
        assert!(q.contains("generate") && q.contains("bundle"), "{q}");
    }

    #[test]
    fn pronoun_only_follow_up_uses_two_earlier_turns() {
        let q = retrieval_query(
            &[
                "what about it?",
                "and the link?",
                "How do I start a static export job?",
            ],
            &[],
        );
        assert!(q.contains("link"), "{q}");
        assert!(q.contains("static") && q.contains("export"), "{q}");
    }

    #[test]
    fn standalone_question_does_not_drag_old_topic() {
        let q = retrieval_query(
            &[
                "How do I configure the analytics dashboard?",
                "How do I generate a bundle?",
            ],
            &[],
        );
        assert_eq!(q, "How do I configure the analytics dashboard?");
    }

    #[test]
    fn context_values_are_trimmed_and_capped() {
        let long = "x ".repeat(1000);
        let q = retrieval_query(
            &["What does this do?"],
            &["  mint   export\n --output  ", &long, &long, "never"],
        );
        assert!(
            q.starts_with("What does this do? mint export --output x x"),
            "{q}"
        );
        assert!(q.chars().count() <= MAX_QUESTION_CHARS + MAX_CONTEXT_TOTAL_CHARS + 5);
        assert!(!q.contains("never"));
    }

    #[test]
    fn odd_input_is_fine_and_deterministic() {
        assert_eq!(retrieval_query(&[], &[]), "");
        assert_eq!(retrieval_query(&["", "  "], &[""]), "");
        let q = retrieval_query(&["它的有效期多长？", "如何生成导出包？"], &[]);
        assert!(q.contains("生成导出包"), "{q}");
        assert_eq!(
            q,
            retrieval_query(&["它的有效期多长？", "如何生成导出包？"], &[])
        );
    }
}
