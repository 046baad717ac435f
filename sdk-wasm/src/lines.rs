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

fn overlong() -> String {
    format!("line is longer than {MAX_LINE_BYTES} bytes")
}

impl Lines {
    pub fn push(&mut self, mut bytes: &[u8], mut emit: impl FnMut(LineResult)) {
        if self.after_cr {
            if let Some((&first, rest)) = bytes.split_first() {
                self.after_cr = false;
                if first == b'\n' {
                    bytes = rest;
                }
            }
        }
        while let Some(end) = bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
            self.seen += 1;
            if self.buf.is_empty() && !self.overlong {
                emit((self.seen, read(&bytes[..end])));
            } else {
                self.append(&bytes[..end]);
                emit((self.seen, self.buffered()));
                self.reset_line();
            }
            let is_cr = bytes[end] == b'\r';
            let crlf = is_cr && bytes.get(end + 1) == Some(&b'\n');
            self.after_cr = is_cr && end + 1 == bytes.len();
            bytes = &bytes[end + if crlf { 2 } else { 1 }..];
        }
        self.append(bytes);
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
