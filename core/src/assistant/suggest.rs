//! Follow-up questions offered after an answer, built from what retrieval found (no model needed, so
//! every backend offers the same ones): the other sections of the pages the answer drew on first,
//! then the other retrieved pages, each asked about in the question's language.
//!
//! A suggestion is never the section the answer quoted, never a topic whose every term the question
//! already names (asking it again would repeat the answer), never a skill or another of the
//! repository's private files (they have no page), at most [`MAX_SUGGESTIONS`], each at most
//! [`MAX_TOPIC_CHARS`] of topic, no two alike.

use super::extractive::ask_about;
use super::passage::Passage;
use super::query::terms;

pub const MAX_SUGGESTIONS: usize = 3;
/// A longer heading is a sentence, not a topic to ask about.
pub const MAX_TOPIC_CHARS: usize = 80;

/// Up to [`MAX_SUGGESTIONS`] follow-ups for `question`, answered from `passages[answered]` (an empty
/// `answered` means the top passage: what any backend answers from first).
pub fn follow_ups(question: &str, passages: &[Passage], answered: &[usize]) -> Vec<String> {
    let lead = [0];
    let answered = if answered.is_empty() {
        &lead[..]
    } else {
        answered
    };
    let is_answered = |p: &Passage| {
        answered
            .iter()
            .filter_map(|&i| passages.get(i))
            .any(|a| a.path == p.path && a.heading == p.heading)
    };
    let cited_page = |p: &Passage| {
        answered
            .iter()
            .filter_map(|&i| passages.get(i))
            .any(|a| a.path == p.path)
    };
    // A question's few distinct terms: a list to look in (a set would cost the script a sort of
    // strings).
    let asked = terms(question);
    // The cited pages' other sections first, then the other pages, each in retrieval order.
    let candidates = passages
        .iter()
        .filter(|p| cited_page(p))
        .chain(passages.iter().filter(|p| !cited_page(p)));
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for p in candidates {
        if out.len() == MAX_SUGGESTIONS {
            break;
        }
        if is_private(p) || is_answered(p) {
            continue;
        }
        let Some(topic) = topic(p) else { continue };
        let topic_terms = terms(&topic);
        let key = topic.to_lowercase();
        if topic_terms.is_empty()
            || topic_terms.iter().all(|t| asked.contains(t))
            || seen.contains(&key)
        {
            continue;
        }
        let suggestion = ask_about(question, &topic);
        if suggestion.trim().eq_ignore_ascii_case(question.trim()) {
            continue;
        }
        seen.push(key);
        out.push(suggestion);
    }
    out
}

/// A skill or another file of the repository's own (`.mintlify/…`) has no public page.
fn is_private(p: &Passage) -> bool {
    p.url.is_empty() || p.path.starts_with('.') || p.path.contains("/.")
}

/// What a section is about: its heading (with its page's title when the heading is one word, such as
/// "Installation", which says little alone), or the page's title for its intro.
fn topic(p: &Passage) -> Option<String> {
    let (title, heading) = (
        p.title.trim(),
        p.heading.trim().trim_end_matches([':', '：']),
    );
    let topic = if heading.is_empty() || heading == title {
        title.to_string()
    } else if heading.split_whitespace().count() == 1
        && !title.is_empty()
        && !heading.chars().any(crate::text::is_cjk)
    {
        format!("{heading} ({title})")
    } else {
        heading.to_string()
    };
    let fits = !topic.is_empty()
        && topic.chars().count() <= MAX_TOPIC_CHARS
        && !topic.contains(['\n', '[', ']']);
    fits.then_some(topic)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(path: &str, title: &str, heading: &str) -> Passage {
        Passage {
            path: path.into(),
            url: format!("https://d/{path}"),
            title: title.into(),
            heading: heading.into(),
            text: "t".into(),
            score: 1.0,
            coverage: 1.0,
            ..Default::default()
        }
    }

    fn retrieved() -> Vec<Passage> {
        vec![
            section("export", "Static export", "Start an export job"),
            section("keys", "API keys", "Rotate a key"),
            section("export", "Static export", "Download the bundle"),
            section("export", "Static export", "Limits"),
            section("publish", "Publishing", ""),
        ]
    }

    #[test]
    fn the_cited_pages_other_sections_come_first_then_other_pages_bounded() {
        let got = follow_ups("How do I start a static export job?", &retrieved(), &[0]);
        assert_eq!(
            got,
            [
                "Tell me about Download the bundle",
                "Tell me about Limits (Static export)",
                "Tell me about Rotate a key"
            ]
        );
        assert_eq!(got.len(), MAX_SUGGESTIONS);
    }

    #[test]
    fn never_the_question_itself_nor_what_was_quoted_nor_twice_the_same() {
        let mut passages = retrieved();
        passages.push(section("other", "Other", "download the BUNDLE"));
        // The question names every term of "Download the bundle": not suggested.
        let got = follow_ups("Where do I download the bundle?", &passages, &[2]);
        assert!(
            got.iter()
                .all(|s| !s.to_lowercase().contains("download the bundle")),
            "{got:?}"
        );
        assert!(
            !got.iter().any(|s| s.contains("Start an export job")) || got.len() <= MAX_SUGGESTIONS
        );
        let got = follow_ups("How do I rotate?", &passages, &[1, 2]);
        assert!(
            got.iter()
                .all(|s| !s.contains("Rotate a key") && !s.contains("Download")),
            "{got:?}"
        );
        let unique: std::collections::BTreeSet<String> =
            got.iter().map(|s| s.to_lowercase()).collect();
        assert_eq!(unique.len(), got.len());
    }

    #[test]
    fn never_a_skill_or_private_file_and_nothing_from_nothing() {
        let mut skill = section(
            ".mintlify/assistant/skills/rotate/skill",
            "Rotate",
            "Secret steps",
        );
        skill.url.clear();
        let private = section(".mintlify/Assistant", "Assistant", "Persona");
        let got = follow_ups(
            "How do I rotate?",
            &[section("keys", "API keys", "Create a key"), skill, private],
            &[],
        );
        assert!(
            got.is_empty(),
            "the top passage is what was answered; the rest is private: {got:?}"
        );
        assert!(follow_ups("anything", &[], &[]).is_empty());
    }

    #[test]
    fn long_or_markup_headings_are_skipped_and_the_language_follows_the_question() {
        let long = section("a", "A", &"word ".repeat(30));
        let got = follow_ups(
            "static export",
            &[
                section("export", "Static export", ""),
                long,
                section("b", "B", "Webhooks"),
            ],
            &[],
        );
        assert_eq!(got, ["Tell me about Webhooks (B)"]);
        let ja = follow_ups(
            "エクスポートの方法は？",
            &[
                section("export", "エクスポート", ""),
                section("keys", "キー", "キーの更新"),
            ],
            &[],
        );
        assert_eq!(ja, ["「キーの更新」について教えてください"]);
    }
}
