//! Fixed phrases of the answer in the question's language.

use crate::assistant::refusal::{NOT_COVERED_EN, NOT_COVERED_JA, NOT_COVERED_KO, NOT_COVERED_ZH};
use crate::text::is_cjk;
use crate::text::is_kana;

/// Fixed phrases of the answer, in the question's language as its script tells: kana is Japanese
/// (a Japanese question is mostly Han, so kana decides), other Han Chinese, Hangul Korean, anything
/// else English. A Japanese question used to get Chinese labels ("来源：") after a Japanese answer.
pub(super) struct Words {
    pub(super) not_covered: &'static str,
    pub(super) closest: &'static str,
    /// An uncertain answer's opening: the text before and after the closest passage's label.
    pub(super) closest_is: (&'static str, &'static str),
    pub(super) empty_question: &'static str,
    pub(super) sources: &'static str,
    /// A quote's lead-in: the text before and after "{label} [{n}]".
    pub(super) from: (&'static str, &'static str),
    /// A follow-up question (`suggest`): the text before and after its topic.
    pub(super) about: (&'static str, &'static str),
}

/// A follow-up question about `topic` in `question`'s language (see `Words`).
pub(crate) fn ask_about(question: &str, topic: &str) -> String {
    let (before, after) = Words::for_question(question).about;
    format!("{before}{topic}{after}")
}

impl Words {
    pub(super) fn for_question(question: &str) -> Self {
        let hangul =
            |c: char| matches!(c as u32, 0x1100..=0x11FF | 0x3130..=0x318F | 0xAC00..=0xD7AF);
        if question.chars().any(is_kana) {
            Self {
                // Says "does not cover" as the eval's refusal check reads it (扱っていません).
                not_covered: NOT_COVERED_JA,
                closest: "最も近いページ：",
                closest_is: (
                    "ドキュメントには直接の記載がありません。最も近いのは「",
                    "」です：",
                ),
                empty_question: "ドキュメントについて質問してください。",
                sources: "出典：",
                from: ("", " より："),
                about: ("「", "」について教えてください"),
            }
        } else if question.chars().any(is_cjk) {
            Self {
                not_covered: NOT_COVERED_ZH,
                closest: "最接近的页面：",
                closest_is: ("文档中没有直接说明这一点；最接近的是「", "」："),
                empty_question: "请提出一个关于文档的问题。",
                sources: "来源：",
                from: ("摘自 ", "："),
                about: ("请介绍一下「", "」"),
            }
        } else if question.chars().any(hangul) {
            Self {
                not_covered: NOT_COVERED_KO,
                closest: "가장 가까운 페이지:",
                closest_is: (
                    "문서에 직접 나와 있지 않습니다. 가장 가까운 내용은 「",
                    "」입니다:",
                ),
                empty_question: "문서에 관해 질문해 주세요.",
                sources: "출처:",
                from: ("", "에서:"),
                about: ("「", "」에 대해 알려 주세요"),
            }
        } else {
            Self {
                not_covered: NOT_COVERED_EN,
                closest: "The closest pages I found:",
                closest_is: ("The docs don't state this directly; the closest is ", ":"),
                empty_question: "Ask a question about the documentation and I'll answer from it.",
                sources: "Sources:",
                from: ("From ", ":"),
                about: ("Tell me about ", ""),
            }
        }
    }

    pub(super) fn closest_is(&self, label: &str) -> String {
        let (before, after) = self.closest_is;
        format!("{before}{}{after}", label.trim_end_matches([':', '：']))
    }

    pub(super) fn from(&self, label: &str, n: usize) -> String {
        // A heading written as a lead-in ("Optional settings:") would end up with two colons.
        let label = label.trim_end_matches([':', '：']);
        let (before, after) = self.from;
        format!("{before}{label} [{n}]{after}")
    }
}
