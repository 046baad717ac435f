//! A text file of the upload as the parsers read it: UTF-8 (invalid bytes replaced), without a
//! byte order mark, every line ending (`\r\n`, a lone `\r`) as `\n`. Editors on Windows and old Mac
//! files write the other endings; normalising once here means no scan has to know them.

use std::borrow::Cow;

/// `bytes` as text with `\n` line endings and no byte order mark.
pub fn read(bytes: &[u8]) -> Cow<'_, str> {
    match String::from_utf8_lossy(bytes) {
        Cow::Borrowed(text) => normalise(text),
        Cow::Owned(text) => Cow::Owned(normalise(&text).into_owned()),
    }
}

/// `text` with `\n` line endings and no byte order mark; borrowed when it has neither to change.
pub fn normalise(text: &str) -> Cow<'_, str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if !text.contains('\r') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\r') {
        out.push_str(&rest[..at]);
        out.push('\n');
        rest = &rest[at + 1..];
        if let Some(after) = rest.strip_prefix('\n') {
            rest = after;
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Line breaks in `bytes` as [`read`] counts them (`\r\n` is one), so a line number found in the
/// normalised text is the line an editor shows.
pub fn line_breaks(bytes: &[u8]) -> usize {
    let mut count = 0;
    let mut after_cr = false;
    for &b in bytes {
        match b {
            b'\r' => count += 1,
            b'\n' if !after_cr => count += 1,
            _ => {}
        }
        after_cr = b == b'\r';
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_ending_becomes_lf_and_the_bom_goes() {
        assert_eq!(read(b"\xef\xbb\xbfa\r\nb\rc\n\r\rd\r"), "a\nb\nc\n\n\nd\n");
        assert!(matches!(read(b"plain\ntext"), Cow::Borrowed("plain\ntext")));
        assert_eq!(read(b"caf\xe9\r\n"), "caf\u{fffd}\n");
    }

    #[test]
    fn line_breaks_agree_with_the_normalised_text() {
        for raw in [&b"a\r\nb\rc\n\r\rd\r"[..], b"", b"\r\n\r\n", b"x\n\ny"] {
            assert_eq!(line_breaks(raw), read(raw).matches('\n').count(), "{raw:?}");
        }
    }
}
