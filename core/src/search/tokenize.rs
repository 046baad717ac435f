//! Text to index terms. Index and query go through the same function so both sides always agree.
//!
//! Rules, in order:
//! - Han and kana characters form runs that become character bigrams (and unigrams at index time):
//!   Chinese and Japanese have no spaces, and bigrams match them without a dictionary.
//! - Everything else alphanumeric (Unicode) forms words; anything else separates them. Lowercased,
//!   with common Latin accents folded (`configuración` = `configuracion`) so queries typed without
//!   accents still match.
//! - Small English stopword list, dropped on both sides.
//! - Light English stemming on pure ASCII-letter words only (see [`stem`]); it is not linguistically
//!   right, only consistent, which is all matching needs.

/// Query time emits bigrams only for CJK runs of two or more characters: unigrams would match far
/// too much and dilute the query's coverage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Index,
    Query,
}

/// Longer "words" are base64, hashes or minified code: noise that bloats the dictionary.
const MAX_WORD_CHARS: usize = 40;

const STOPWORDS: &[&str] = &[
    "a", "about", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by",
    "can", "could", "d", "did", "do", "does", "each", "for", "from", "had", "has", "have", "he",
    "her", "his", "how", "i", "if", "in", "into", "is", "it", "its", "just", "ll", "m", "may",
    "me", "more", "my", "no", "not", "of", "on", "or", "our", "re", "s", "she", "should", "so",
    "some", "such", "t", "than", "that", "the", "their", "them", "then", "there", "these", "they",
    "this", "those", "to", "us", "ve", "was", "we", "were", "what", "when", "where", "which",
    "while", "who", "why", "will", "with", "would", "you", "your",
];

/// Calls `emit` with each term of `text`, in order, duplicates included.
pub(crate) fn tokenize(text: &str, mode: Mode, mut emit: impl FnMut(&str)) {
    let mut word = String::new();
    let mut word_chars = 0usize;
    let mut run: Vec<char> = Vec::new();
    let mut scratch = String::new();
    for ch in text.chars() {
        if is_cjk(ch) {
            flush_word(&mut word, &mut word_chars, &mut emit);
            run.push(ch);
        } else if ch.is_alphanumeric() {
            flush_run(&mut run, mode, &mut scratch, &mut emit);
            for lower in ch.to_lowercase() {
                push_folded(&mut word, lower);
            }
            word_chars += 1;
        } else {
            flush_word(&mut word, &mut word_chars, &mut emit);
            flush_run(&mut run, mode, &mut scratch, &mut emit);
        }
    }
    flush_word(&mut word, &mut word_chars, &mut emit);
    flush_run(&mut run, mode, &mut scratch, &mut emit);
}

/// The distinct terms of a query, in first-seen order.
pub(crate) fn query_terms(text: &str, max_terms: usize) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    tokenize(text, Mode::Query, |term| {
        if terms.len() < max_terms && !terms.iter().any(|t| t == term) {
            terms.push(term.to_owned());
        }
    });
    terms
}

fn flush_word(word: &mut String, chars: &mut usize, emit: &mut impl FnMut(&str)) {
    if !word.is_empty() && *chars <= MAX_WORD_CHARS && !is_stopword(word) {
        stem(word);
        emit(word);
    }
    word.clear();
    *chars = 0;
}

fn flush_run(run: &mut Vec<char>, mode: Mode, scratch: &mut String, emit: &mut impl FnMut(&str)) {
    let unigrams = mode == Mode::Index || run.len() == 1;
    if unigrams {
        for &ch in run.iter() {
            scratch.clear();
            scratch.push(ch);
            emit(scratch);
        }
    }
    for pair in run.windows(2) {
        scratch.clear();
        scratch.extend(pair);
        emit(scratch);
    }
    run.clear();
}

fn is_stopword(word: &str) -> bool {
    STOPWORDS.binary_search(&word).is_ok()
}

/// Han (with extensions and compatibility ideographs) and kana. Hangul is left out: Korean separates
/// words with spaces.
fn is_cjk(ch: char) -> bool {
    matches!(ch as u32,
        0x3040..=0x30FF | 0x31F0..=0x31FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF
        | 0x20000..=0x2FA1F)
}

fn push_folded(word: &mut String, ch: char) {
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

/// Light suffix stripping for ASCII-letter words:
/// 1. `ies`/`ied` -> `y` (`policies`, `applied`);
/// 2. otherwise a plural `s` goes unless the word ends in `ss`, `us` or `is` (`class`, `status`,
///    `analysis`), then `ing` or `ed` goes when what is left has a vowel (`string`, `need` stay),
///    undoubling a final consonant pair except `ll`/`ss`/`zz` (`running` -> `run`);
/// 3. a final `e` goes (not `ee`), so `configure`, `configured`, `configuring` all meet at `configur`.
pub(crate) fn stem(word: &mut String) {
    if word.len() < 3 || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return;
    }
    if word.len() > 4 && (word.ends_with("ies") || word.ends_with("ied")) {
        word.truncate(word.len() - 3);
        word.push('y');
        return;
    }
    if word.ends_with('s')
        && !(word.ends_with("ss") || word.ends_with("us") || word.ends_with("is"))
    {
        word.pop();
    }
    let suffix = if word.ends_with("ing") {
        3
    } else if word.ends_with("ed") && !word.ends_with("eed") {
        2
    } else {
        0
    };
    if suffix > 0 {
        let rest = word.len() - suffix;
        if rest >= 2 && word.bytes().take(rest).any(is_vowel) {
            word.truncate(rest);
            undouble(word);
        }
    }
    if word.len() >= 3 && word.ends_with('e') && !word.ends_with("ee") {
        word.pop();
    }
}

fn undouble(word: &mut String) {
    let bytes = word.as_bytes();
    let n = bytes.len();
    if n >= 4 {
        let (a, b) = (bytes[n - 2], bytes[n - 1]);
        if a == b && !is_vowel(b) && !matches!(b, b'l' | b's' | b'z') {
            word.pop();
        }
    }
}

fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str, mode: Mode) -> Vec<String> {
        let mut out = Vec::new();
        tokenize(text, mode, |t| out.push(t.to_owned()));
        out
    }

    fn stemmed(word: &str) -> String {
        let mut w = word.to_owned();
        stem(&mut w);
        w
    }

    #[test]
    fn stopwords_are_sorted_for_binary_search() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn inflections_meet_at_one_stem() {
        for group in [
            &["configure", "configured", "configuring", "configures"][..],
            &["page", "pages"],
            &["policy", "policies"],
            &["run", "running"],
            &["setting", "settings"],
            &["add", "added", "adding"],
            &["class", "classes"],
            &["create", "created", "creating", "creates"],
        ] {
            let first = stemmed(group[0]);
            for word in group {
                assert_eq!(stemmed(word), first, "{word}");
            }
        }
        assert_eq!(stemmed("status"), "status");
        assert_eq!(stemmed("string"), "string");
        assert_eq!(stemmed("need"), "need");
    }

    #[test]
    fn words_split_on_punctuation_and_lowercase() {
        assert_eq!(
            terms("Static-Export API_key v2", Mode::Query),
            ["static", "export", "api", "key", "v2"]
        );
        assert_eq!(terms("How do I use the API?", Mode::Query), ["us", "api"]);
    }

    #[test]
    fn accents_fold_and_non_english_is_not_stemmed_twice() {
        assert_eq!(
            terms("Configuración", Mode::Query),
            terms("configuracion", Mode::Query)
        );
    }

    #[test]
    fn cjk_runs_become_bigrams() {
        assert_eq!(
            terms("自定义域名", Mode::Query),
            ["自定", "定义", "义域", "域名"]
        );
        let index = terms("域名", Mode::Index);
        assert_eq!(index, ["域", "名", "域名"]);
        assert_eq!(terms("配置API密钥", Mode::Query), ["配置", "api", "密钥"]);
    }
}
