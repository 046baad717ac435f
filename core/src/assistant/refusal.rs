//! The sentence an answer opens with when the documentation does not cover the question. The
//! extractive backend writes it; the system prompt (`prompt::system_prompt`) tells a model to open
//! with it, word for word: in Chinese, Japanese or Korean for a question in that language, in
//! English otherwise. An answer that opens with it is marked unanswered, whichever backend wrote it
//! (`session::AnswerSession::outcome`), so the widget offers the support link and analytics count a
//! coverage gap.

pub const NOT_COVERED_EN: &str = "The documentation doesn't cover this question.";
pub const NOT_COVERED_ZH: &str = "文档中没有涉及这个问题。";
pub const NOT_COVERED_JA: &str = "この質問はドキュメントで扱っていません。";
pub const NOT_COVERED_KO: &str = "문서에서 이 질문을 다루지 않습니다.";

/// The system prompt's rule for an unanswerable question.
pub fn prompt_rule() -> String {
    format!(
        "- If the passages do not answer the question, open your answer with exactly this sentence: \"{NOT_COVERED_EN}\" (for a question in Chinese, Japanese or Korean: \"{NOT_COVERED_ZH}\", \"{NOT_COVERED_JA}\" or \"{NOT_COVERED_KO}\"), then point to the closest passage if there is one. Do not guess and do not use outside knowledge.\n"
    )
}

/// Does `text` open with the sentence, as a model may render it: after Markdown emphasis or a
/// quote marker, in any case, with a typographic apostrophe or "does not"?
pub fn opens_with_refusal(text: &str) -> bool {
    let text = text.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '_' | '>'));
    if [NOT_COVERED_ZH, NOT_COVERED_JA, NOT_COVERED_KO]
        .iter()
        .any(|s| text.starts_with(s))
    {
        return true;
    }
    let opening: String = text
        .chars()
        .take(40)
        .map(|c| {
            if c == '’' {
                '\''
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect();
    [
        "the documentation doesn't cover",
        "the documentation does not cover",
    ]
    .iter()
    .any(|s| opening.starts_with(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_opens_with_the_sentence_in_any_rendering() {
        for text in [
            NOT_COVERED_EN,
            "  **The documentation doesn’t cover this question.** The closest is [1].",
            "> the documentation does not cover this question.",
            "この質問はドキュメントで扱っていません。最も近いのは [1] です。",
            NOT_COVERED_KO,
        ] {
            assert!(opens_with_refusal(text), "{text}");
        }
        for text in [
            "The free plan doesn't cover SSO [1].",
            "Set `hidden: true` [1]. The documentation doesn't cover this question otherwise.",
            "",
            "The docs don't state this directly; the closest is [1].",
        ] {
            assert!(!opens_with_refusal(text), "{text}");
        }
    }

    #[test]
    fn the_prompt_names_every_sentence_the_check_knows() {
        let rule = prompt_rule();
        for sentence in [
            NOT_COVERED_EN,
            NOT_COVERED_ZH,
            NOT_COVERED_JA,
            NOT_COVERED_KO,
        ] {
            assert!(
                rule.contains(sentence) && opens_with_refusal(sentence),
                "{sentence}"
            );
        }
    }
}
