//! What kind of sentence a unit is: one that can open an answer, or an aside, a pointer elsewhere, a
//! title line or a bare intro.

use crate::text::is_cjk;

pub(super) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// Opens with a pronoun or determiner pointing at what came before ("This", "These", "It", "Cela",
/// "Esto", "这", "これ"): read first, it points at nothing. "This guide …" names its page, and stands.
pub(super) fn refers_back(sentence: &str) -> bool {
    const PAGE_NOUNS: [&str; 9] = [
        "guide",
        "page",
        "reference",
        "section",
        "document",
        "documentation",
        "tutorial",
        "article",
        "quickstart",
    ];
    const WORDS: [&str; 22] = [
        "this", "these", "that", "those", "it", "they", "such", "cela", "ceci", "ce", "cette",
        "ces", "il", "elle", "ils", "esto", "esta", "este", "estos", "estas", "eso", "ello",
    ];
    const CJK: [&str; 7] = ["这", "此", "它", "该", "これ", "この", "それ"];
    let text = sentence.trim_start();
    let lower = text.to_lowercase();
    let mut words = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty());
    let (first, second) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    (WORDS.contains(&first) && !PAGE_NOUNS.contains(&second))
        || CJK.iter().any(|w| text.starts_with(w))
}

/// An intro that says nothing but that a list follows ("Try the following:", "Essayez les étapes
/// suivantes :"); one that says something ("Sign in to your Dify host:") leads with its block.
pub(super) fn is_bare_intro(text: &str) -> bool {
    let words = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .count();
    ends_with_colon(text) && words + text.chars().filter(|&c| is_cjk(c)).count() / 2 < 5
}

/// A line without final punctuation (nor a list's `:`) is a label or a title ("External Knowledge
/// Base Architecture"), not a sentence.
pub(super) fn is_title_line(text: &str) -> bool {
    !(ends_as_sentence(text) || ends_with_colon(text))
}

/// Ends with a full stop or an exclamation, past closing quotes and brackets.
pub(super) fn ends_as_sentence(text: &str) -> bool {
    text.trim_end()
        .trim_end_matches(['"', '\'', '”', '’', '*', '_', ')', '）', '」'])
        .ends_with(['.', '!', '。', '！', '…'])
}

/// "See …", "For more information, see …", "Consulta …", "Voir …", "参见 …": a sentence whose
/// substance is a link elsewhere.
pub(super) fn is_cross_reference(sentence: &str) -> bool {
    const OPENERS: [&str; 22] = [
        "see ",
        "refer to ",
        "for more information",
        "for more details",
        "for details",
        "learn more",
        "to learn more",
        "read more",
        "check out ",
        "consulta ",
        "ver ",
        "para más información",
        "para obtener más información",
        "voir ",
        "consultez ",
        "pour plus d'informations",
        "pour en savoir plus",
        "参见",
        "请参阅",
        "详见",
        "詳しくは",
        "詳細は",
    ];
    // "If you use a cloud-hosted instance, see the GitHub page." points elsewhere too.
    const CLAUSES: [&str; 5] = [
        ", see ",
        ", refer to ",
        ", consulta ",
        ", consultez ",
        ", voir ",
    ];
    let lower = sentence.trim_start().to_lowercase().replace('’', "'");
    OPENERS.iter().any(|o| lower.starts_with(o)) || CLAUSES.iter().any(|c| lower.contains(c))
}

pub(super) fn ends_with_colon(text: &str) -> bool {
    text.ends_with(':') || text.ends_with('：')
}
