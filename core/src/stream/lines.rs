//! The one line splitter of every stream this crate reads: the v4 data stream, the UI message
//! stream and the providers' server-sent events.
//!
//! Rules: a line ends at LF, CRLF or CR, wherever the chunks were split (a CRLF across two chunks is
//! one line end); lines are numbered from 1, blank ones included; a line is checked as UTF-8 only
//! once complete (no UTF-8 character contains a CR or LF byte, so a character split across chunks
//! is whole by then), and one that is not UTF-8 is an error for that line only; a line longer than
//! [`MAX_LINE_BYTES`] is an error, its bytes are dropped as they come and splitting goes on after
//! it, so a stream without line ends cannot grow the buffer without bound.
//!
//! A line that lies whole inside a chunk is handed out as a slice of it, without a copy: in wasm
//! the allocation per line cost more than decoding the line.

use std::fmt;

/// A longer line is reported as an error and skipped.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Why a complete line cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineError {
    TooLong,
    NotUtf8,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::TooLong => write!(f, "line is longer than {MAX_LINE_BYTES} bytes"),
            LineError::NotUtf8 => f.write_str("line is not valid UTF-8"),
        }
    }
}

/// A complete line without its line end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// 1-based.
    pub number: usize,
    pub text: Result<&'a str, LineError>,
}

#[derive(Debug, Default)]
pub struct Lines {
    /// The start of a line whose end has not arrived yet.
    buf: Vec<u8>,
    seen: usize,
    /// The previous chunk ended in CR, so an LF opening this one belongs to the same line end.
    after_cr: bool,
    /// The buffered line passed `MAX_LINE_BYTES`; its bytes are being dropped.
    overlong: bool,
}

fn read(bytes: &[u8]) -> Result<&str, LineError> {
    if bytes.len() > MAX_LINE_BYTES {
        return Err(LineError::TooLong);
    }
    std::str::from_utf8(bytes).map_err(|_| LineError::NotUtf8)
}

/// The longest prefix of `bytes` that is valid UTF-8.
fn valid_prefix(bytes: &[u8]) -> &str {
    match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default(),
    }
}

impl Lines {
    pub fn new() -> Self {
        Self::default()
    }

    /// Hands every line `chunk` completes to `emit`, in order.
    pub fn push(&mut self, chunk: &[u8], mut emit: impl FnMut(Line<'_>)) {
        let mut at = 0;
        if self.after_cr {
            if let Some(&first) = chunk.first() {
                self.after_cr = false;
                if first == b'\n' {
                    at = 1;
                }
            }
        }
        // One UTF-8 check for the whole chunk instead of one per line: a line that lies inside the
        // valid part is a slice of it between ASCII bytes, so `get` finds it on char boundaries.
        let valid = valid_prefix(chunk);
        while let Some(len) = chunk[at..].iter().position(|&b| b == b'\n' || b == b'\r') {
            let end = at + len;
            self.seen += 1;
            if self.buf.is_empty() && !self.overlong {
                let text = match valid.get(at..end) {
                    Some(text) if text.len() <= MAX_LINE_BYTES => Ok(text),
                    _ => read(&chunk[at..end]),
                };
                emit(Line {
                    number: self.seen,
                    text,
                });
            } else {
                self.append(&chunk[at..end]);
                emit(Line {
                    number: self.seen,
                    text: self.buffered(),
                });
                self.reset_line();
            }
            let is_cr = chunk[end] == b'\r';
            let crlf = is_cr && chunk.get(end + 1) == Some(&b'\n');
            self.after_cr = is_cr && end + 1 == chunk.len();
            at = end + if crlf { 2 } else { 1 };
        }
        self.append(&chunk[at..]);
    }

    /// The last line, if it has no line end; the splitter can then be reused.
    pub fn finish(&mut self, mut emit: impl FnMut(Line<'_>)) {
        self.after_cr = false;
        if !self.buf.is_empty() || self.overlong {
            self.seen += 1;
            emit(Line {
                number: self.seen,
                text: self.buffered(),
            });
            self.reset_line();
        }
    }

    /// The line being buffered is already longer than [`MAX_LINE_BYTES`].
    pub fn is_overlong(&self) -> bool {
        self.overlong
    }

    fn buffered(&self) -> Result<&str, LineError> {
        if self.overlong {
            Err(LineError::TooLong)
        } else {
            read(&self.buf)
        }
    }

    fn append(&mut self, bytes: &[u8]) {
        if self.overlong || self.buf.len() + bytes.len() > MAX_LINE_BYTES {
            self.overlong = true;
            self.buf.clear();
        } else {
            self.buf.extend_from_slice(bytes);
        }
    }

    /// Keeps the buffer's capacity for the next long line.
    fn reset_line(&mut self) {
        self.buf.clear();
        self.overlong = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(chunks: &[&[u8]]) -> Vec<(usize, Result<String, LineError>)> {
        let mut lines = Lines::new();
        let mut out = Vec::new();
        let mut keep = |l: Line<'_>| out.push((l.number, l.text.map(str::to_string)));
        for chunk in chunks {
            lines.push(chunk, &mut keep);
        }
        lines.finish(&mut keep);
        out
    }

    #[test]
    fn every_line_end_and_every_split_give_the_same_lines() {
        let input = "a\nb\r\nc\rd\r\n\r\né🦀\n\nlast".as_bytes();
        let expected: Vec<(usize, Result<String, LineError>)> =
            ["a", "b", "c", "d", "", "é🦀", "", "last"]
                .iter()
                .enumerate()
                .map(|(i, s)| (i + 1, Ok(s.to_string())))
                .collect();
        assert_eq!(split(&[input]), expected);
        for at in 0..=input.len() {
            assert_eq!(
                split(&[&input[..at], &input[at..]]),
                expected,
                "split at {at}"
            );
        }
        let bytes: Vec<&[u8]> = input.chunks(1).collect();
        assert_eq!(split(&bytes), expected);
    }

    #[test]
    fn a_line_that_is_not_utf8_is_an_error_for_that_line_only() {
        let input = b"ok\n\xff\xfe\nal\xc3\xa9\n\xc3\n";
        for at in 0..=input.len() {
            assert_eq!(
                split(&[&input[..at], &input[at..]]),
                vec![
                    (1, Ok("ok".into())),
                    (2, Err(LineError::NotUtf8)),
                    (3, Ok("alé".into())),
                    (4, Err(LineError::NotUtf8)),
                ],
                "split at {at}"
            );
        }
    }

    #[test]
    fn an_overlong_line_is_reported_skipped_and_splitting_goes_on() {
        let long = vec![b'x'; MAX_LINE_BYTES + 1];
        let exact = vec![b'y'; MAX_LINE_BYTES];
        let input = [&long[..], b"\r\n", &exact, b"\nz"].concat();
        let expected = vec![
            (1, Err(LineError::TooLong)),
            (2, Ok("y".repeat(MAX_LINE_BYTES))),
            (3, Ok("z".into())),
        ];
        assert_eq!(split(&[&input]), expected);
        let mut lines = Lines::new();
        lines.push(&long[..MAX_LINE_BYTES], |_| {});
        assert!(!lines.is_overlong());
        lines.push(b"x", |_| {});
        assert!(lines.is_overlong(), "known before the line ends");
        let third = input.len() / 3;
        assert_eq!(
            split(&[
                &input[..third],
                &input[third..2 * third],
                &input[2 * third..]
            ]),
            expected
        );
        assert_eq!(
            split(&[&long]),
            vec![(1, Err(LineError::TooLong))],
            "at finish too"
        );
        assert_eq!(
            LineError::TooLong.to_string(),
            format!("line is longer than {MAX_LINE_BYTES} bytes")
        );
    }

    #[test]
    fn a_cr_ending_one_chunk_and_an_lf_opening_the_next_are_one_line_end() {
        assert_eq!(
            split(&[b"a\r", b"\nb\r", b"", b"\n"]),
            vec![(1, Ok("a".into())), (2, Ok("b".into()))]
        );
        assert_eq!(
            split(&[b"a\r", b"\r\n"]),
            vec![(1, Ok("a".into())), (2, Ok("".into()))]
        );
    }
}
