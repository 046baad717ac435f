//! Cuts the answer into stream-sized pieces so the client renders it progressively, like a model's
//! tokens. Pure function of the text: concatenating the pieces gives the text back exactly.

use crate::text::is_cjk;

/// Cut after whitespace once a piece has this many bytes (about six English words).
const TARGET_BYTES: usize = 40;
/// Chinese and Japanese have no spaces: cut after any ideograph, kana or CJK punctuation past this
/// size (~16 characters).
const CJK_TARGET_BYTES: usize = 48;
/// Long URLs or code tokens are cut anywhere (on a char boundary) past this.
const HARD_BYTES: usize = 120;

pub fn stream_chunks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        current.push(c);
        let len = current.len();
        let cjk_break = is_cjk(c) || matches!(c, '。' | '，' | '、' | '！' | '？' | '；' | '：');
        if (len >= TARGET_BYTES && c.is_whitespace())
            || (len >= CJK_TARGET_BYTES && cjk_break)
            || len >= HARD_BYTES
        {
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_concatenate_to_the_text() {
        for text in [
            "",
            "short",
            &"word ".repeat(50),
            &"长文本没有空格".repeat(30),
            &"x".repeat(500),
            "a\n\n```\ncode\n```",
        ] {
            let pieces = stream_chunks(text);
            assert_eq!(pieces.concat(), text);
            assert!(pieces
                .iter()
                .all(|p| !p.is_empty() && p.len() <= HARD_BYTES + 4));
        }
    }

    #[test]
    fn english_breaks_at_spaces_and_chinese_within_runs() {
        let pieces = stream_chunks(&"word ".repeat(50));
        assert!(pieces.iter().all(|p| p.ends_with(' ')));
        assert!(stream_chunks(&"长".repeat(100)).len() > 4);
    }
}
