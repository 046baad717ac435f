//! Names in a question: the words that say which product, format or standard it is about.

use super::is_cjk;

/// Words of `text` written with a capital that the sentence does not explain: one past its
/// sentence's first word (`Disqus`, `Netlify`), or one with a capital inside it (`HIPAA`, `MkDocs`,
/// `DevOps`, `maxRetries`). A word is a run of letters and digits outside CJK text, so a name inside
/// a Chinese sentence counts too. Lower-case words are never names: a question's ordinary words are
/// often paraphrases or inflections the docs spell differently ("remotely", "compruebo").
pub fn named_words(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let mut sentence_start = true;
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if c.is_alphanumeric() && !is_cjk(c) {
            start.get_or_insert(i);
            continue;
        }
        if let Some(s) = start.take() {
            if let Some(word) = text.get(s..i) {
                consider(word, sentence_start, &mut out);
            }
            sentence_start = false;
        }
        if matches!(c, '.' | '?' | '!' | ':' | '\n' | '。' | '？' | '！' | '：') {
            sentence_start = true;
        } else if is_cjk(c) {
            // A Latin word after CJK text starts nothing: "如何从 MkDocs" is mid-sentence.
            sentence_start = false;
        }
    }
    if let Some(s) = start {
        if let Some(word) = text.get(s..) {
            consider(word, sentence_start, &mut out);
        }
    }
    out
}

fn consider<'t>(word: &'t str, sentence_start: bool, out: &mut Vec<&'t str>) {
    // One letter is the pronoun "I" or a variable, never a product.
    if word.chars().nth(1).is_none() {
        return;
    }
    let mut letters = word.chars().filter(|c| c.is_alphabetic());
    let initial_capital = letters.next().is_some_and(char::is_uppercase);
    let inner_capital = letters.any(char::is_uppercase);
    if ((initial_capital && !sentence_start) || inner_capital) && !out.contains(&word) {
        out.push(word);
    }
}

#[cfg(test)]
mod tests {
    use super::named_words;

    #[test]
    fn capitals_past_the_first_word_and_inner_capitals_are_names() {
        assert_eq!(
            named_words("How do I connect an Azure DevOps repository?"),
            ["Azure", "DevOps"]
        );
        assert_eq!(
            named_words("Is Mintlify HIPAA compliant? Yes."),
            ["Mintlify", "HIPAA"]
        );
        assert_eq!(named_words("AccordionGroup"), ["AccordionGroup"]);
    }

    #[test]
    fn sentence_initial_and_lower_case_words_are_not() {
        assert!(named_words("How do I deploy docs from a subfolder? Where remotely.").is_empty());
        assert_eq!(named_words("Done. Then Netlify"), ["Netlify"]);
        assert!(named_words("Can I use start_trace?").is_empty());
    }

    #[test]
    fn names_inside_cjk_text_count() {
        assert_eq!(
            named_words("如何从MkDocs迁移到 Mintlify？"),
            ["MkDocs", "Mintlify"]
        );
        assert_eq!(named_words("Dify を Kubernetes で"), ["Kubernetes"]);
    }
}
