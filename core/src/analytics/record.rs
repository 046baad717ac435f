//! What one answer leaves in the analytics store: the question and its grouping key, retrieval
//! scores, cited pages, whether anything relevant was found, backend, timings and a fingerprint
//! hashed with a secret salt. Never the client's IP address or key, and the question only masked
//! (`crate::privacy`): the grouping key is made from the masked text, and the answer's copy has
//! masked whatever of the reader's data it repeats.

use serde::{Deserialize, Serialize};

use crate::privacy::Masked;
use crate::security::signing::{hmac_sha256, to_hex};

/// Characters of a question kept (the thread keeps the whole conversation).
pub const MAX_QUESTION_CHARS: usize = 2000;
/// Characters of an answer kept for the conversations export.
pub const MAX_ANSWER_CHARS: usize = 8000;
/// Retrieval scores kept per answer (the best ones, in rank order).
pub const MAX_SCORES: usize = 10;

/// One row of the `answers` table (see `worker/migrations`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnswerRow {
    pub message_id: String,
    pub thread_id: String,
    pub org_id: String,
    pub domain: String,
    pub created_at: u64,
    pub day: String,
    pub question: String,
    pub question_key: String,
    pub answer: String,
    /// JSON array of retrieval scores, best first.
    pub scores: String,
    /// JSON array of the cited pages' paths, in citation order.
    pub sources: String,
    pub found: bool,
    /// Found only something close, quoted as such ("The docs don't state this directly"): with the
    /// answers that found nothing, a coverage gap.
    pub uncertain: bool,
    pub backend: String,
    pub first_byte_ms: u64,
    pub total_ms: u64,
    pub fingerprint: Option<String>,
    /// The answer opened its thread: conversations are counted by these.
    pub new_thread: bool,
}

/// What the assistant knows when an answer is done.
pub struct AnswerFacts<'a> {
    pub message_id: &'a str,
    pub thread_id: &'a str,
    pub org_id: &'a str,
    pub domain: &'a str,
    pub started_ms: u64,
    pub first_byte_ms: u64,
    pub finished_ms: u64,
    pub question: &'a Masked,
    pub answer: &'a str,
    pub scores: &'a [f32],
    pub cited_paths: &'a [String],
    pub uncertain: bool,
    /// The answer says the docs do not cover the question, or the model refused: nothing found,
    /// whatever the model was given (`session::CompletedAnswer::unanswered`).
    pub unanswered: bool,
    pub backend: &'a str,
    /// The client's `fp` field, if any; only its salted hash is kept.
    pub fingerprint: Option<&'a str>,
    pub salt: Option<&'a [u8]>,
    pub new_thread: bool,
}

impl AnswerRow {
    pub fn new(facts: &AnswerFacts<'_>) -> AnswerRow {
        let scores: Vec<f64> = facts
            .scores
            .iter()
            .take(MAX_SCORES)
            .map(|s| (f64::from(*s) * 10_000.0).round() / 10_000.0)
            .collect();
        AnswerRow {
            message_id: facts.message_id.into(),
            thread_id: facts.thread_id.into(),
            org_id: facts.org_id.into(),
            domain: facts.domain.into(),
            created_at: facts.started_ms,
            day: super::range::day_of_ms(facts.started_ms),
            question: truncate(facts.question.as_str(), MAX_QUESTION_CHARS),
            question_key: question_key(facts.question.as_str()),
            answer: truncate(&facts.question.mask_echoes(facts.answer), MAX_ANSWER_CHARS),
            scores: serde_json::to_string(&scores).unwrap_or_else(|_| "[]".into()),
            sources: serde_json::to_string(facts.cited_paths).unwrap_or_else(|_| "[]".into()),
            // A backend that cites nothing, or says the docs do not cover the question, found
            // nothing it could stand on: a coverage gap.
            found: !facts.cited_paths.is_empty() && !facts.unanswered,
            uncertain: facts.uncertain && !facts.cited_paths.is_empty() && !facts.unanswered,
            backend: facts.backend.into(),
            first_byte_ms: facts.first_byte_ms.saturating_sub(facts.started_ms),
            total_ms: facts.finished_ms.saturating_sub(facts.started_ms),
            fingerprint: match (facts.fingerprint, facts.salt) {
                (Some(fp), Some(salt)) if !fp.is_empty() => Some(fingerprint_hash(salt, fp)),
                _ => None,
            },
            new_thread: facts.new_thread,
        }
    }
}

/// Questions that differ only in case, punctuation or spacing are the same question.
pub fn question_key(question: &str) -> String {
    let mut key = String::with_capacity(question.len());
    for word in question
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if !key.is_empty() {
            key.push(' ');
        }
        key.extend(word.chars().flat_map(char::to_lowercase));
        if key.len() > 300 {
            break;
        }
    }
    truncate(&key, 200)
}

/// A stable, unlinkable visitor id: HMAC-SHA256 under a secret salt, 128 bits in hex.
pub fn fingerprint_hash(salt: &[u8], fingerprint: &str) -> String {
    let mac = hmac_sha256(salt, fingerprint.as_bytes());
    to_hex(&mac[..16])
}

fn truncate(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((at, _)) => text[..at].to_string(),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::privacy::Masker;
    use std::sync::LazyLock;

    static QUESTION: LazyLock<Masked> =
        LazyLock::new(|| Masker::default().mask("How do I set a Custom Domain?"));

    fn facts<'a>(
        cited: &'a [String],
        fp: Option<&'a str>,
        salt: Option<&'a [u8]>,
    ) -> AnswerFacts<'a> {
        AnswerFacts {
            message_id: "msg_1",
            thread_id: "thr_1",
            org_id: "org_1",
            domain: "docs.example.com",
            started_ms: 86_400_000 + 1000,
            first_byte_ms: 86_400_000 + 1040,
            finished_ms: 86_400_000 + 1300,
            question: &QUESTION,
            answer: "Like this.",
            scores: &[0.912_345, 0.5],
            cited_paths: cited,
            uncertain: false,
            unanswered: false,
            backend: "extractive",
            fingerprint: fp,
            salt,
            new_thread: true,
        }
    }

    #[test]
    fn an_answer_row_keeps_what_the_report_needs_and_hashes_the_fingerprint() {
        let cited = vec!["guides/domains".to_string()];
        let row = AnswerRow::new(&facts(&cited, Some("visitor-1"), Some(b"salt")));
        assert_eq!(row.day, "1970-01-02");
        assert_eq!((row.first_byte_ms, row.total_ms), (40, 300));
        assert_eq!(row.question_key, "how do i set a custom domain");
        assert_eq!(row.scores, "[0.9123,0.5]");
        assert_eq!(row.sources, "[\"guides/domains\"]");
        assert!(row.found);
        let hash = row.fingerprint.clone().unwrap();
        assert_eq!(hash.len(), 32);
        assert!(!hash.contains("visitor"));
        let other_salt = AnswerRow::new(&facts(&cited, Some("visitor-1"), Some(b"pepper")));
        assert_ne!(other_salt.fingerprint, row.fingerprint);
        let no_salt = AnswerRow::new(&facts(&[], Some("visitor-1"), None));
        assert_eq!(no_salt.fingerprint, None);
        assert!(!no_salt.found);
        assert!(!row.uncertain);
    }

    #[test]
    fn an_uncertain_answer_is_recorded_as_such_only_when_it_quotes_something() {
        let cited = vec!["guides/domains".to_string()];
        let hedged = AnswerRow::new(&AnswerFacts {
            uncertain: true,
            ..facts(&cited, None, None)
        });
        assert!(hedged.found && hedged.uncertain);
        let refused = AnswerRow::new(&AnswerFacts {
            uncertain: true,
            ..facts(&[], None, None)
        });
        assert!(
            !refused.found && !refused.uncertain,
            "a refusal is unanswered, not uncertain"
        );
        let model_refused = AnswerRow::new(&AnswerFacts {
            uncertain: true,
            unanswered: true,
            ..facts(&cited, None, None)
        });
        assert!(
            !model_refused.found && !model_refused.uncertain,
            "a model given passages that says they do not cover it found nothing"
        );
    }

    #[test]
    fn the_row_keeps_the_question_masked_and_groups_by_what_is_left() {
        let masker = Masker::default();
        let first = masker.mask("Why is jane@example.com locked out?");
        let second = masker.mask("why is  bob@example.org locked out");
        let answer = "Accounts like jane@example.com unlock after 0.0.0.0 resets.";
        let row = AnswerRow::new(&AnswerFacts {
            question: &first,
            answer,
            ..facts(&[], None, None)
        });
        assert_eq!(row.question, "Why is [email] locked out?");
        assert_eq!(row.question_key, "why is email locked out");
        assert_eq!(
            row.question_key,
            AnswerRow::new(&AnswerFacts {
                question: &second,
                ..facts(&[], None, None)
            })
            .question_key
        );
        assert_eq!(
            row.answer, "Accounts like [email] unlock after 0.0.0.0 resets.",
            "the docs' own example stays"
        );
    }

    #[test]
    fn questions_group_across_case_punctuation_and_spacing() {
        assert_eq!(
            question_key("  What is  BM25F?? "),
            question_key("what is bm25f")
        );
        assert_eq!(question_key("Qu'est-ce que c'est ?"), "qu est ce que c est");
        assert_eq!(question_key("東京 の 天気"), "東京 の 天気");
        assert!(question_key(&"word ".repeat(200)).chars().count() <= 200);
    }
}
