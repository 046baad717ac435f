//! The retrieval query for a conversation turn, and the term normalization that answer composition
//! shares with it (so "what the question asks about" means the same thing in both places).
//!
//! Inputs are plain strings so this does not depend on the request types: the caller passes the
//! user turns newest first and the values of the request's `context` items.

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
/// message verbatim (whitespace collapsed, capped), then the context values, then — only when the
/// newest message looks like a follow-up — content terms of up to three earlier user turns that the
/// newer text does not already contain. A follow-up is a message that refers back ("it", "that",
/// "and …", "what about …") or has fewer than two content terms of its own.
pub fn retrieval_query(user_turns_latest_first: &[&str], context_values: &[&str]) -> String {
    let mut turns = user_turns_latest_first.iter().map(|t| t.trim());
    // Empty turns (attachments only, say) carry no question; the newest non-empty one is asked.
    let latest = turns.by_ref().find(|t| !t.is_empty()).unwrap_or("");
    let earlier: Vec<&str> = turns.filter(|t| !t.is_empty()).collect();

    let mut out = collapse_whitespace(latest, MAX_QUESTION_CHARS);
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
                let key = normalize_word(&term);
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

/// Normalized, de-duplicated content terms of `text`, in order of first appearance: lowercased,
/// stop words dropped, a plural `s` stripped; runs of CJK ideographs become overlapping bigrams
/// because that text has no spaces to split on.
pub fn terms(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // The set only answers "seen?"; order comes from `out`, so output stays deterministic.
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut push = |t: String| {
        if !t.is_empty() && seen.insert(t.clone()) {
            out.push(t);
        }
    };
    for token in tokens(text) {
        match token {
            Token::Word(w) => {
                if !is_stop_word(&w) {
                    push(normalize_word(&w));
                }
            }
            Token::Cjk(run) => {
                if run.len() == 1 {
                    push(run.iter().collect());
                }
                for pair in run.windows(2) {
                    let bigram: String = pair.iter().collect();
                    if !CJK_STOP_BIGRAMS.contains(&bigram.as_str()) {
                        push(bigram);
                    }
                }
            }
        }
    }
    out
}

/// Like `terms`, but keeps the surface form (lowercased) so the query reads naturally.
fn content_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for token in tokens(text) {
        match token {
            Token::Word(w) if !is_stop_word(&w) => {
                if !out.contains(&w) {
                    out.push(w);
                }
            }
            Token::Cjk(run) => {
                let s: String = run.into_iter().collect();
                if !out.contains(&s) {
                    out.push(s);
                }
            }
            Token::Word(_) => {}
        }
    }
    out
}

enum Token {
    Word(String),
    Cjk(Vec<char>),
}

fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut cjk: Vec<char> = Vec::new();
    for c in text.chars() {
        if is_cjk(c) {
            if !word.is_empty() {
                out.push(Token::Word(std::mem::take(&mut word)));
            }
            cjk.push(c);
        } else if c.is_alphanumeric() {
            if !cjk.is_empty() {
                out.push(Token::Cjk(std::mem::take(&mut cjk)));
            }
            word.extend(c.to_lowercase());
        } else {
            if !word.is_empty() {
                out.push(Token::Word(std::mem::take(&mut word)));
            }
            if !cjk.is_empty() {
                out.push(Token::Cjk(std::mem::take(&mut cjk)));
            }
        }
    }
    if !word.is_empty() {
        out.push(Token::Word(word));
    }
    if !cjk.is_empty() {
        out.push(Token::Cjk(cjk));
    }
    out
}

/// Han, kana and Hangul: scripts written without spaces between words.
pub fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{AC00}'..='\u{D7AF}'
        | '\u{F900}'..='\u{FAFF}')
}

/// Folds English plurals so "jobs" finds "job"; conservative because both sides get it.
fn normalize_word(word: &str) -> String {
    let n = word.chars().count();
    if !word.is_ascii() || n <= 3 {
        return word.to_string();
    }
    if let Some(stem) = word.strip_suffix("ies") {
        if n > 4 {
            return format!("{stem}y");
        }
    }
    if word.ends_with('s')
        && !word.ends_with("ss")
        && !word.ends_with("us")
        && !word.ends_with("is")
    {
        return word[..word.len() - 1].to_string();
    }
    word.to_string()
}

fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok() || (word.chars().count() == 1 && word.is_ascii())
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

/// Chinese question scaffolding that would otherwise match every page.
const CJK_STOP_BIGRAMS: &[&str] = &[
    "如何", "怎么", "什么", "哪些", "可以", "我的", "是否", "吗？", "么做",
];

/// Sorted (binary search): English, Spanish and French function words and question scaffolding.
const STOP_WORDS: &[&str] = &[
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        let mut sorted = STOP_WORDS.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, STOP_WORDS);
    }

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
