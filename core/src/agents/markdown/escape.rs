//! Text into Markdown: characters that would otherwise start markup are backslash-escaped, and
//! only those, so the text stays readable (`snake_case` keeps its underscore).

/// Escapes inline text written in the middle of a line.
pub(crate) fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut start = 0;
    // Every character that may be escaped is ASCII, so byte positions are character boundaries.
    for (i, b) in s.bytes().enumerate() {
        let next = || s[i + 1..].chars().next();
        let escape = match b {
            b'\\' | b'`' | b'*' | b'[' | b']' => true,
            b'<' => next().is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?')),
            // Intraword underscores never emphasise; only those at a word edge can.
            b'_' => {
                let before = s[..i]
                    .chars()
                    .next_back()
                    .is_some_and(char::is_alphanumeric);
                let after = next().is_some_and(char::is_alphanumeric);
                !(before && after)
            }
            _ => false,
        };
        if escape {
            out.push_str(&s[start..i]);
            out.push('\\');
            start = i;
        }
    }
    out.push_str(&s[start..]);
    out
}

/// Escapes what would start a block when written at the start of a line (`# `, `> `, `- `, `1. `).
pub(crate) fn line_start(s: &str) -> String {
    let trimmed = s.trim_start();
    let lead = &s[..s.len() - trimmed.len()];
    let block_start = match trimmed.chars().next() {
        Some('#' | '>' | '=' | '|') => true,
        Some('-' | '+') => trimmed.chars().nth(1).is_none_or(char::is_whitespace),
        Some(c) if c.is_ascii_digit() => {
            let digits = trimmed.chars().take_while(char::is_ascii_digit).count();
            matches!(trimmed.chars().nth(digits), Some('.' | ')'))
        }
        _ => false,
    };
    if block_start {
        format!("{lead}\\{trimmed}")
    } else {
        s.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_only() {
        assert_eq!(
            text("a *b* [c] snake_case _x_ a < b <Tag>"),
            "a \\*b\\* \\[c\\] snake_case \\_x\\_ a < b \\<Tag>"
        );
        assert_eq!(line_start("# not a heading"), "\\# not a heading");
        assert_eq!(line_start("1. one"), "\\1. one");
        assert_eq!(line_start("-5 degrees"), "-5 degrees");
        assert_eq!(line_start("plain"), "plain");
    }
}
