//! Text to terms: the one analyzer behind every match in the crate.
//!
//! Why one module: the search index, the assistant's retrieval query and extractive answers, and
//! the static export's offline search each had a tokenizer of their own, with their own stop list
//! and their own idea of which characters are CJK (one counted Hangul, two did not, one knew
//! half-width katakana). A Korean question tokenized one way and matched against pages tokenized
//! another. Now the rules live here once; what legitimately differs between the uses is a named
//! analyzer's settings (one table each, in [`analyzers`]), not a code path. The browser's copy
//! (`export/static/site.js`, the [`Analyzer::OfflineShard`] rules) is held to `vectors.json` by
//! this crate's tests and by `tests/analyzer-vectors.test.mjs`.
//!
//! The rules, in order:
//! - Han and kana characters ([`is_cjk`]) form runs that become unigrams and/or bigrams (per
//!   analyzer): Chinese and Japanese have no spaces, and bigrams match them without a dictionary.
//! - Everything else alphanumeric (Unicode `Alphabetic` or `Numeric`) forms words; anything else
//!   separates them. Words are lowercased, and for some analyzers common Latin accents are folded.
//! - An English irregular form becomes its base word (`hidden` -> `hide`, `lemmas`) where the
//!   analyzer says so; words over the analyzer's length limit, and its stop words, are dropped; the
//!   rest is stemmed as the analyzer says.
//!
//! Hangul is not CJK here, decided once for every use: Korean separates words with spaces, so a
//! Korean word is a word like any other. Bigrams over Hangul would match a stem inside words with
//! particles attached (`서버를`, `서버에서`), which is what Lucene's CJK bigrams do, but they also
//! double the index's terms for Korean text and, since the same class decides where streamed
//! answers may break and whether sentences join without a space, would treat Korean prose as if it
//! had no spaces. The search relevance tests (tuned on the index side, which never bigrammed
//! Hangul) and the extractive answers' rules read right with Hangul as words.

mod analyzers;
mod clippings;
mod lemmas;
mod names;
pub mod question;
mod stem;
#[cfg(test)]
mod tests;

use analyzers::{Cjk, Settings, Stem, MAX_STOP_WORD_BYTES};
pub use names::named_words;

/// A named set of analysis rules. See [`analyzers`] for what each one does and why they differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Analyzer {
    /// Terms the search index stores.
    Index,
    /// Terms a search query looks up (the index's rules; CJK as bigrams only).
    Query,
    /// The assistant's question and passage terms (retrieval query, extractive answers).
    AssistantKeywords,
    /// The static export's offline search files, and the browser's query (`site.js`).
    OfflineShard,
}

/// A piece of text before stop words and stemming: a word (lowercased, folded when the analyzer
/// folds) or a run of Han/kana characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece<'a> {
    Word(&'a str),
    Run(&'a [char]),
}

impl Analyzer {
    fn settings(self) -> &'static Settings {
        match self {
            Analyzer::Index => &analyzers::INDEX,
            Analyzer::Query => &analyzers::QUERY,
            Analyzer::AssistantKeywords => &analyzers::ASSISTANT_KEYWORDS,
            Analyzer::OfflineShard => &analyzers::OFFLINE_SHARD,
        }
    }

    /// Calls `emit` with each term of `text`, in order, duplicates included.
    pub fn terms(self, text: &str, mut emit: impl FnMut(&str)) {
        let s = self.settings();
        let mut scratch = String::new();
        pieces(text, s.fold_accents, |piece, chars| match piece {
            Piece::Word(word) => {
                let word = self.base_word(word);
                if chars > s.max_word_chars || self.is_stop_word(word) {
                    return;
                }
                scratch.clear();
                scratch.push_str(word);
                stem(s.stem, &mut scratch);
                emit(&scratch);
            }
            Piece::Run(run) => {
                let unigrams = match s.cjk {
                    Cjk::Unigrams => true,
                    Cjk::Bigrams { always_unigrams } => always_unigrams || run.len() == 1,
                };
                if unigrams {
                    for &ch in run {
                        scratch.clear();
                        scratch.push(ch);
                        emit(&scratch);
                    }
                }
                if let Cjk::Bigrams { .. } = s.cjk {
                    for pair in run.windows(2) {
                        scratch.clear();
                        scratch.extend(pair);
                        if !s.cjk_stop_bigrams.contains(&scratch.as_str()) {
                            emit(&scratch);
                        }
                    }
                }
            }
        });
    }

    /// The terms of `text` as a list, duplicates included.
    pub fn analyze(self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.terms(text, |t| out.push(t.to_owned()));
        out
    }

    /// The distinct terms of `text`, in first-seen order, at most `max_terms` of them.
    pub fn distinct_terms(self, text: &str, max_terms: usize) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        // The set only answers "seen?"; order comes from `out`.
        let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
        self.terms(text, |t| {
            if out.len() < max_terms && !seen.contains(t) {
                seen.insert(t.to_owned());
                out.push(t.to_owned());
            }
        });
        out
    }

    /// Words and CJK runs of `text` in order, before stop words, length limit and stemming.
    pub fn pieces(self, text: &str, mut f: impl FnMut(Piece<'_>)) {
        pieces(text, self.settings().fold_accents, |piece, _| f(piece));
    }

    /// Whether `word` (lowercased, folded as this analyzer folds) is one of its stop words.
    pub fn is_stop_word(self, word: &str) -> bool {
        let s = self.settings();
        // Most words are longer than every stop word: that check is one comparison, the search ~7.
        (word.len() <= MAX_STOP_WORD_BYTES && s.stop_words.binary_search(&word).is_ok())
            || (s.drop_single_ascii && word.len() == 1 && word.is_ascii())
    }

    /// `word` stemmed as this analyzer stems, an irregular form through its base word (no stop
    /// words, no folding): the term a word of
    /// [`Analyzer::pieces`] becomes.
    pub fn stem(self, word: &str) -> String {
        let s = self.settings();
        let mut out = self.base_word(word).to_owned();
        stem(s.stem, &mut out);
        out
    }

    /// `word`'s base word when this analyzer maps irregular forms and `word` is one, else `word`.
    fn base_word(self, word: &str) -> &str {
        let s = self.settings();
        let word = match s.irregular_forms {
            true => lemmas::base_word(word).unwrap_or(word),
            false => word,
        };
        match s.clipped_forms {
            true => clippings::clipped(word).unwrap_or(word),
            false => word,
        }
    }
}

fn stem(how: Stem, word: &mut String) {
    match how {
        Stem::None => {}
        Stem::Plural => stem::plural(word),
        Stem::Light => stem::light(word),
    }
}

/// Han (with its extensions and compatibility ideographs) and kana, full and half width: the
/// scripts written without spaces between words. Hangul is not among them (see the module doc).
/// `site.js` mirrors this range list.
pub fn is_cjk(c: char) -> bool {
    is_kana(c)
        || matches!(c as u32,
        0x3400..=0x4DBF       // Han extension A
        | 0x4E00..=0x9FFF     // Han
        | 0xF900..=0xFAFF     // Han compatibility
        | 0x20000..=0x2FA1F   // Han extensions B-F, compatibility supplement
        | 0x30000..=0x323AF) // Han extensions G, H
}

/// Hiragana and katakana, full and half width: what tells Japanese text from Chinese.
pub fn is_kana(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF       // hiragana, katakana
        | 0x31F0..=0x31FF     // katakana phonetic extensions
        | 0xFF66..=0xFF9F) // half-width katakana
}

/// Splits `text` into words and CJK runs; `f` gets each with its length in characters of `text`.
fn pieces(text: &str, fold_accents: bool, mut f: impl FnMut(Piece<'_>, usize)) {
    let mut word = String::new();
    let mut word_chars = 0usize;
    let mut run: Vec<char> = Vec::new();
    let flush_word = |word: &mut String, chars: &mut usize, f: &mut dyn FnMut(Piece<'_>, usize)| {
        if !word.is_empty() {
            f(Piece::Word(word), *chars);
            word.clear();
        }
        *chars = 0;
    };
    let flush_run = |run: &mut Vec<char>, f: &mut dyn FnMut(Piece<'_>, usize)| {
        if !run.is_empty() {
            f(Piece::Run(run), run.len());
            run.clear();
        }
    };
    for ch in text.chars() {
        // ASCII, most text: a letter or digit lowercases to itself folded, anything else separates.
        if ch.is_ascii() {
            if ch.is_ascii_alphanumeric() {
                flush_run(&mut run, &mut f);
                word.push(ch.to_ascii_lowercase());
                word_chars += 1;
            } else {
                flush_word(&mut word, &mut word_chars, &mut f);
                flush_run(&mut run, &mut f);
            }
        } else if is_cjk(ch) {
            flush_word(&mut word, &mut word_chars, &mut f);
            run.push(ch);
        } else if ch.is_alphanumeric() {
            flush_run(&mut run, &mut f);
            for lower in ch.to_lowercase() {
                if fold_accents {
                    fold(&mut word, lower);
                } else {
                    word.push(lower);
                }
            }
            word_chars += 1;
        } else {
            flush_word(&mut word, &mut word_chars, &mut f);
            flush_run(&mut run, &mut f);
        }
    }
    flush_word(&mut word, &mut word_chars, &mut f);
    flush_run(&mut run, &mut f);
}

/// Pushes lowercase `ch` with common Latin accents and ligatures folded.
fn fold(word: &mut String, ch: char) {
    let folded = match ch {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
        'ç' => 'c',
        'è' | 'é' | 'ê' | 'ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' => 'i',
        'ñ' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' => 'o',
        'ù' | 'ú' | 'û' | 'ü' => 'u',
        'ý' | 'ÿ' => 'y',
        'œ' => return word.push_str("oe"),
        'æ' => return word.push_str("ae"),
        'ß' => return word.push_str("ss"),
        other => other,
    };
    word.push(folded);
}
