//! What a message asks. Shared by the assistant's retrieval query and the search endpoints: a
//! question pasted into either carries narrative around what it asks.

use super::Analyzer;

fn terms(text: &str) -> Vec<String> {
    Analyzer::AssistantKeywords.distinct_terms(text, usize::MAX)
}

fn push_word(out: &mut String, word: &str) {
    if !out.is_empty() {
        out.push(' ');
    }
    out.push_str(word);
}

/// A message with more content terms than this is read for what it asks ([`focus`]).
const FOCUS_MIN_TERMS: usize = 12;

/// What a long message asks. A real question carries narrative around the ask (the setup, what was
/// tried, a pasted error), and every narrative word retrieval must match dilutes what the docs are
/// asked. Kept: the sentences that ask (a `?`, or an opening such as "How", "Which", "Is there"),
/// the sentence just before the first of them (usually the symptom they ask about), and from the
/// rest only what names things: code spans, quoted messages, identifiers (`AUTH_TYPE`,
/// `app.mount`, `v4.4`, `x-vocode-signature`) and product nouns. All but the asking sentences' own
/// prose comes lower-cased: a name that a pasted error or a setup detail happens to carry
/// (`AttributeError`, `Colima`) is context, and is not held to search's rule that a question naming
/// something the docs never mention is not covered; a name the question asks about still is. A
/// message with nothing that asks is kept whole.
pub fn focus(message: &str) -> String {
    if terms(message).len() <= FOCUS_MIN_TERMS {
        return message.to_string();
    }
    let sentences = split_sentences(message);
    let Some(first_ask) = sentences.iter().position(|s| asks(s)) else {
        return message.to_string();
    };
    // The ask first: the caller caps the query's length.
    let mut out = String::new();
    let mut context = String::new();
    for (i, sentence) in sentences.iter().enumerate() {
        if asks(sentence) {
            push_word(&mut out, &lower_quoted(sentence));
        } else if i + 1 == first_ask {
            push_word(&mut context, &lower_marking_codes(sentence));
        } else {
            for name in identifiers(sentence) {
                push_word(&mut context, &name.to_lowercase());
            }
            for message in quoted_messages(sentence) {
                push_word(&mut context, &message.to_lowercase());
            }
        }
    }
    push_word(&mut out, &context);
    out.trim().to_string()
}

/// Lower-cased, with a word written all in capitals (`ECONNREFUSED`, `EADDRINUSE`; five letters
/// or more, so not `VS` or `API`) marked as code: an error code the reader pasted is a name a section's
/// heading may hold, and in code it is not held to search's unknown-name rule, which reads capitals.
fn lower_marking_codes(text: &str) -> String {
    text.split(' ')
        .map(|word| {
            let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
            let letters = bare.chars().filter(char::is_ascii_alphabetic).count();
            let code = letters >= 5 && !bare.chars().any(char::is_lowercase) && !word.contains('`');
            match code {
                true => word.replacen(bare, &format!("`{}`", bare.to_lowercase()), 1),
                false => word.to_lowercase(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The messages a narrative sentence quotes in `'…'` or `"…"` (a pasted error, a button's label):
/// the docs' troubleshooting sections quote them as written.
fn quoted_messages(sentence: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut open: Option<(char, usize)> = None;
    let mut before = ' ';
    for (i, c) in sentence.char_indices() {
        match open {
            Some((q, start)) if c == q => {
                let after = sentence[i + 1..].chars().next().unwrap_or(' ');
                if !after.is_alphanumeric() {
                    out.push(&sentence[start..i]);
                    open = None;
                }
            }
            None if (c == '\'' || c == '"') && (before.is_whitespace() || before == '(') => {
                open = Some((c, i + 1));
            }
            _ => {}
        }
        before = c;
    }
    out
}

/// The sentence with its code spans and quoted messages lower-cased: what the reader pasted (an
/// error's `SyntaxError`, a `'FastMCP' object`) is not what they name as their subject.
fn lower_quoted(sentence: &str) -> String {
    let mut out = String::with_capacity(sentence.len());
    let mut quote: Option<char> = None;
    for c in sentence.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            None if c == '`' || c == '"' => quote = Some(c),
            _ => {}
        }
        if quote.is_some() {
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Sentences of `text`: cut after `.`, `?`, `!` (and their CJK forms) followed by a space or the
/// end, and at line breaks; never inside a code span or a quoted message.
fn split_sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut quote: Option<char> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => continue,
            None if c == '`' || c == '"' => quote = Some(c),
            None => {}
        }
        let ends = c == '\n'
            || matches!(c, '。' | '？' | '！')
            || matches!(c, '.' | '?' | '!') && next.is_none_or(char::is_whitespace);
        if ends && quote.is_none() {
            let end = i + c.len_utf8();
            if let Some(s) = text
                .get(start..end)
                .map(str::trim)
                .filter(|s| !s.is_empty())
            {
                out.push(s);
            }
            start = end;
        }
    }
    if let Some(s) = text.get(start..).map(str::trim).filter(|s| !s.is_empty()) {
        out.push(s);
    }
    out
}

/// A sentence that asks: it holds a question mark outside its code, or opens as a question does.
fn asks(sentence: &str) -> bool {
    const OPENERS: [&str; 26] = [
        "how", "what", "what's", "which", "where", "why", "when", "who", "can", "could", "should",
        "is", "are", "does", "do", "did", "will", "would", "any", "tell", "explain", "cómo", "qué",
        "comment", "quel", "pourquoi",
    ];
    let prose: String = sentence.split('`').step_by(2).collect();
    let first = prose.split_whitespace().next().unwrap_or("").to_lowercase();
    prose.contains(['?', '？'])
        || OPENERS.contains(&first.trim_matches(|c: char| !c.is_alphanumeric() && c != '\''))
}

/// What a narrative sentence names: its code spans and quoted messages whole, and its words shaped
/// like identifiers (an inner `_ . / = : - @`, a digit, a capital past the first letter) or written
/// with a capital past the sentence's first word (a product noun).
pub(crate) fn identifiers(sentence: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for (n, part) in sentence.split('`').enumerate() {
        if n % 2 == 1 {
            out.push(part);
            continue;
        }
        for (w, raw) in part.split_whitespace().enumerate() {
            let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
            let mut chars = word.chars();
            let Some(first) = chars.next() else { continue };
            let shaped = word.contains(['_', '.', '/', '=', ':', '-', '@'])
                || word.chars().any(|c| c.is_ascii_digit())
                || chars.any(char::is_uppercase);
            // One letter is the pronoun "I", not a name.
            let noun = first.is_uppercase() && (w > 0 || n > 0) && word.chars().nth(1).is_some();
            if shaped || noun {
                out.push(word);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_message_is_read_for_what_it_asks() {
        let message = "We host the docs ourselves on a small Hetzner box behind Caddy, and last week we \
            moved everything to the new build. The export job now finishes, but the bundle link in the \
            email returns 403 after a while and our CDN_TOKEN is unchanged. How long is the bundle link valid?";
        let q = focus(message);
        assert!(q.starts_with("How long is the bundle link valid?"), "{q}");
        // The sentence before the ask (the symptom) stays; the setup keeps only its names and identifiers.
        assert!(
            q.contains("the bundle link in the email returns 403"),
            "{q}"
        );
        assert!(
            q.contains("cdn_token") && q.contains("hetzner") && q.contains("caddy"),
            "{q}"
        );
        assert!(!q.contains("last week") && !q.contains("ourselves"), "{q}");
        // Only the asking sentence's own names are held to search's unknown-name rule.
        assert!(super::super::named_words(&q).is_empty(), "{q}");
        let named = focus(&message.replace(
            "How long is the bundle link valid?",
            "Can Netlify host the bundle link instead?",
        ));
        assert_eq!(
            super::super::named_words(&named),
            vec!["Netlify"],
            "{named}"
        );
    }

    #[test]
    fn a_pasted_error_code_keeps_its_capitals() {
        let q = focus(
            "Ollama is running on a Linux box in the office and I want Continue on my laptop to use \
             it. From VS Code I just get ECONNREFUSED. What needs to change on both sides?",
        );
        assert!(q.contains("from vs code i just get `econnrefused`."), "{q}");
        // A pasted code is not held to the unknown-name rule.
        assert!(super::super::named_words(&q).is_empty(), "{q}");
    }

    #[test]
    fn a_message_pasted_in_quotes_stays_with_the_ask() {
        let q = focus(
            "On my Mac I use Colima instead of Docker Desktop. `shuttle run` with a shared database \
             fails with 'got unexpected error while inspecting docker container: no such file'. \
             Docker itself works fine from the CLI. How do I fix this?",
        );
        // The error as written, which a troubleshooting section quotes, not only its shaped words.
        assert!(
            q.contains("got unexpected error while inspecting docker container: no such file"),
            "{q}"
        );
        assert_eq!(
            quoted_messages("it's the users' \"Run block\" button (\'api_token\') that fails"),
            vec!["Run block", "api_token"]
        );
    }

    #[test]
    fn focus_keeps_short_questions_and_messages_that_ask_nothing() {
        let short = "How do I start a static export job with the CLI on a Windows machine?";
        assert_eq!(focus(short), short);
        let statement = "The export job finishes, the bundle link returns 403 after a while, the CDN token \
            is unchanged, the job log shows no error and the storage bucket policy allows public reads.";
        assert_eq!(focus(statement), statement);
    }

    #[test]
    fn sentences_are_not_cut_inside_code_or_quoted_messages() {
        let s = split_sentences("It fails with `Error: spawn ENAMETOOLONG. Retry?` on start. It says \"no. way\" here!\nWhy?");
        assert_eq!(
            s,
            vec![
                "It fails with `Error: spawn ENAMETOOLONG. Retry?` on start.",
                "It says \"no. way\" here!",
                "Why?"
            ]
        );
        assert!(
            asks("Any workaround?")
                && asks("Is there a way to cap it")
                && !asks("It prints `--help?` output.")
        );
        assert_eq!(
            identifiers("Ran `cn -p` with AUTH_TYPE=oidc on v4.4 under Docker, twice."),
            vec!["cn -p", "AUTH_TYPE=oidc", "v4.4", "Docker"]
        );
    }
}
