//! The named analyzers' settings, one table each. Everything that differs between them is here;
//! the code in `mod.rs` is shared.
//!
//! Why they still differ (unifying any of these moves existing relevance or answer tests):
//! - Index/Query: the BM25F index. Accents folded, light English stemming, a short English stop
//!   list; Han and kana index as unigrams and bigrams, queries ask for bigrams (a lone character
//!   for a one-character run).
//! - AssistantKeywords: the retrieval query and extractive answers. Questions carry Spanish and
//!   French scaffolding ("cómo", "pour") and words like "explain" or "use" that match every page,
//!   so the stop list is long and trilingual; plurals only are folded; accents are kept (the stop
//!   list spells them); Chinese question scaffolding bigrams ("如何") are dropped. English
//!   irregular forms meet their base word (`hidden` = `hide`), so the sentence an answer leads with
//!   is the one that says pages are "hidden" when the question asks to "hide" one.
//!   The index does not map them: measured on the three eval sets, it moved no page into the top
//!   five and cost the fixture a question ("hide an endpoint" then ranked every page titled
//!   "Hidden pages" above the `x-hidden` section: MRR 0.811 -> 0.810, fact 0.719 -> 0.712); the
//!   offline search follows the index it mirrors.
//! - OfflineShard: the static export's search files, mirrored by `site.js` in the browser. The
//!   browser prefix-matches the last typed word against the terms, so terms are not stemmed and
//!   not folded; Han and kana are single characters, which keeps the shard keys (two characters)
//!   meaningful and the mirror small.

/// What a run of Han or kana becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cjk {
    /// Each character is a term.
    Unigrams,
    /// Overlapping pairs; `always_unigrams` adds every character too (index time), otherwise a
    /// character is a term only when it is a run on its own (query time: unigrams would match far
    /// too much and dilute the query's coverage).
    Bigrams { always_unigrams: bool },
}

/// Suffix folding applied to a word after the stop list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stem {
    None,
    /// English plurals only (`jobs` -> `job`, `policies` -> `policy`): [`super::stem::plural`].
    Plural,
    /// Plurals, `-ing`, `-ed`, a final `e`: [`super::stem::light`].
    Light,
}

#[derive(Debug)]
pub(super) struct Settings {
    /// `configuración` = `configuracion` (common Latin accents and ligatures, see `fold`).
    pub fold_accents: bool,
    /// Longer words (counted in characters of the text) are base64, hashes or minified code:
    /// noise that bloats the dictionary. They are dropped.
    pub max_word_chars: usize,
    /// Sorted (binary search), lowercase, as the words appear after folding.
    pub stop_words: &'static [&'static str],
    /// One ASCII letter or digit is no term ("a", "x", "2").
    pub drop_single_ascii: bool,
    /// English irregular forms become their base word before the stop list and stemming
    /// (`hidden` -> `hide`, `children` -> `child`: `super::lemmas`). Assistant only (above).
    pub irregular_forms: bool,
    /// A whole word becomes its clipped form (`maximum` -> `max`: `super::clippings`). Not in the
    /// offline shards, which `site.js` mirrors and prefix-matches as typed.
    pub clipped_forms: bool,
    pub stem: Stem,
    pub cjk: Cjk,
    /// Bigrams never emitted.
    pub cjk_stop_bigrams: &'static [&'static str],
}

/// `Analyzer::Index`: what the search index stores.
pub(super) const INDEX: Settings = Settings {
    fold_accents: true,
    max_word_chars: 40,
    stop_words: SEARCH_STOP_WORDS,
    drop_single_ascii: false,
    irregular_forms: false,
    clipped_forms: true,
    stem: Stem::Light,
    cjk: Cjk::Bigrams {
        always_unigrams: true,
    },
    cjk_stop_bigrams: &[],
};

/// `Analyzer::Query`: the index's rules at query time.
pub(super) const QUERY: Settings = Settings {
    cjk: Cjk::Bigrams {
        always_unigrams: false,
    },
    ..INDEX
};

/// `Analyzer::AssistantKeywords`: question and passage terms of the assistant.
pub(super) const ASSISTANT_KEYWORDS: Settings = Settings {
    fold_accents: false,
    max_word_chars: usize::MAX,
    stop_words: ASSISTANT_STOP_WORDS,
    drop_single_ascii: true,
    irregular_forms: true,
    clipped_forms: true,
    stem: Stem::Plural,
    cjk: Cjk::Bigrams {
        always_unigrams: false,
    },
    cjk_stop_bigrams: ASSISTANT_CJK_STOP_BIGRAMS,
};

/// `Analyzer::OfflineShard`: the export's offline index and `site.js`.
pub(super) const OFFLINE_SHARD: Settings = Settings {
    fold_accents: false,
    max_word_chars: 40,
    stop_words: OFFLINE_STOP_WORDS,
    drop_single_ascii: false,
    irregular_forms: false,
    clipped_forms: false,
    stem: Stem::None,
    cjk: Cjk::Unigrams,
    cjk_stop_bigrams: &[],
};

/// English function words; single letters are what contractions leave ("don't" -> "don", "t").
pub(super) const SEARCH_STOP_WORDS: &[&str] = &[
    "a", "about", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by",
    "can", "could", "d", "did", "do", "does", "each", "for", "from", "had", "has", "have", "he",
    "her", "his", "how", "i", "if", "in", "into", "is", "it", "its", "just", "ll", "m", "may",
    "me", "more", "my", "no", "not", "of", "on", "or", "our", "re", "s", "she", "should", "so",
    "some", "such", "t", "than", "that", "the", "their", "them", "then", "there", "these", "they",
    "this", "those", "to", "us", "ve", "was", "we", "were", "what", "when", "where", "which",
    "while", "who", "why", "will", "with", "would", "you", "your",
];

/// English, Spanish and French function words and question scaffolding.
pub(super) const ASSISTANT_STOP_WORDS: &[&str] = &[
    "a", "about", "al", "all", "also", "am", "an", "and", "any", "are", "as", "at", "au", "aux",
    "be", "been", "being", "both", "but", "by", "can", "ce", "cette", "comment", "como", "con",
    "could", "cuál", "cómo", "dans", "de", "del", "des", "did", "do", "does", "doing", "done",
    "du", "each", "el", "ella", "elle", "en", "es", "est", "esta", "está", "et", "etc", "explain",
    "for", "from", "get", "got", "had", "has", "have", "having", "he", "her", "here", "his", "how",
    "i", "if", "il", "in", "into", "is", "it", "its", "je", "just", "la", "las", "le", "les",
    "let", "lo", "los", "me", "mes", "mi", "mis", "mon", "more", "most", "my", "need", "no", "not",
    "nous", "o", "of", "on", "or", "other", "ou", "our", "par", "para", "pas", "please", "por",
    "pour", "puedo", "que", "quel", "quelle", "qui", "quoi", "qué", "se", "she", "should", "show",
    "so", "some", "son", "sont", "su", "sus", "than", "that", "the", "their", "them", "then",
    "there", "these", "they", "this", "those", "to", "too", "un", "una", "une", "uno", "unos",
    "us", "use", "using", "very", "vous", "want", "was", "way", "we", "were", "what", "when",
    "where", "which", "who", "why", "will", "with", "would", "y", "yes", "you", "your",
];

/// Chinese question scaffolding that would otherwise match every page.
pub(super) const ASSISTANT_CJK_STOP_BIGRAMS: &[&str] = &[
    "如何", "怎么", "什么", "哪些", "可以", "我的", "是否", "么做",
];

/// Words too common to help ranking; their postings would be the largest files. `site.js` holds
/// the same list (checked through `vectors.json`).
pub(super) const OFFLINE_STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "has", "have",
    "how", "i", "if", "in", "is", "it", "its", "of", "on", "or", "that", "the", "this", "to",
    "was", "we", "were", "what", "will", "with", "you", "your",
];

/// The longest stop word of any analyzer, in bytes: a longer word needs no search of the lists.
pub(super) const MAX_STOP_WORD_BYTES: usize = longest(
    OFFLINE_STOP_WORDS,
    longest(ASSISTANT_STOP_WORDS, longest(SEARCH_STOP_WORDS, 0)),
);

/// The longer of `at_least` and the longest of `words`.
const fn longest(words: &[&str], at_least: usize) -> usize {
    let (mut i, mut max) = (0, at_least);
    while i < words.len() {
        if words[i].len() > max {
            max = words[i].len();
        }
        i += 1;
    }
    max
}
