//! Line splitting for the v4 parser without a copy per line.
//!
//! Same rules as the core decoders' splitter (LF, CRLF or CR, a CRLF split across chunks, lines over
//! `MAX_LINE_BYTES` reported and skipped, UTF-8 checked per complete line, 1-based numbers), but a
//! line that lies whole inside a chunk is handed out as a slice of it: measured in wasm, the
//! allocation per line of the core splitter cost more than decoding the line. `decoder_tests.rs`
//! checks that both give the same events on every split of the samples and on random input.

use docs_edge_core::stream::MAX_LINE_BYTES;

/// A complete line: its 1-based number and its text, or why it cannot be read.
pub type LineResult<'a> = (usize, Result<&'a str, String>);

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

fn read(bytes: &[u8]) -> Result<&str, String> {
    if bytes.len() > MAX_LINE_BYTES {
        return Err(overlong());
    }
    std::str::from_utf8(bytes).map_err(|_| "line is not valid UTF-8".to_string())
}

/// The longest prefix of `bytes` that is valid UTF-8.
fn valid_prefix(bytes: &[u8]) -> &str {
    match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default(),
    }
}

fn overlong() -> String {
    format!("line is longer than {MAX_LINE_BYTES} bytes")
}

impl Lines {
    pub fn push(&mut self, chunk: &[u8], mut emit: impl FnMut(LineResult)) {
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
                let line = match valid.get(at..end) {
                    Some(text) if text.len() <= MAX_LINE_BYTES => Ok(text),
                    _ => read(&chunk[at..end]),
                };
                emit((self.seen, line));
            } else {
                self.append(&chunk[at..end]);
                emit((self.seen, self.buffered()));
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
    pub fn finish(&mut self, mut emit: impl FnMut(LineResult)) {
        self.after_cr = false;
        if !self.buf.is_empty() || self.overlong {
            self.seen += 1;
            emit((self.seen, self.buffered()));
            self.reset_line();
        }
    }

    fn buffered(&self) -> Result<&str, String> {
        if self.overlong {
            Err(overlong())
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
