//! Incremental Server-Sent Events decoding (WHATWG `text/event-stream` rules): lines end in LF, CR
//! or CRLF; `data:` lines accumulate until a blank line dispatches the event; `:` lines are comments.
//! Bytes are buffered until a line is complete, so a UTF-8 character split across pushes is whole
//! by the time it is decoded.

/// A line longer than this means the peer is not speaking SSE; stop buffering.
const MAX_LINE_BYTES: usize = 1 << 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, empty when absent.
    pub event: String,
    pub data: String,
}

#[derive(Debug, Default)]
pub struct SseDecoder {
    line: Vec<u8>,
    after_cr: bool,
    event: String,
    data: String,
    has_data: bool,
    overflowed: bool,
}

impl SseDecoder {
    pub fn push(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        for &b in bytes {
            if self.overflowed {
                break;
            }
            if self.after_cr {
                self.after_cr = false;
                if b == b'\n' {
                    continue;
                }
            }
            match b {
                b'\n' | b'\r' => {
                    self.after_cr = b == b'\r';
                    let line = std::mem::take(&mut self.line);
                    self.line_done(&line, &mut out);
                }
                _ => {
                    self.line.push(b);
                    if self.line.len() > MAX_LINE_BYTES {
                        self.overflowed = true;
                        self.line = Vec::new();
                    }
                }
            }
        }
        out
    }

    /// End of body: a last line without newline and an event without its blank line still count,
    /// because some servers close the connection right after the final `data:`.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut out = Vec::new();
        if !self.line.is_empty() && !self.overflowed {
            let line = std::mem::take(&mut self.line);
            self.line_done(&line, &mut out);
        }
        self.dispatch(&mut out);
        out
    }

    /// True once a line exceeded the cap; the stream is unusable.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    fn line_done(&mut self, line: &[u8], out: &mut Vec<SseEvent>) {
        if line.is_empty() {
            self.dispatch(out);
            return;
        }
        let line = String::from_utf8_lossy(line);
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line.as_ref(), ""),
        };
        match field {
            "event" => self.event = value.to_string(),
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            _ => {}
        }
    }

    fn dispatch(&mut self, out: &mut Vec<SseEvent>) {
        let event = std::mem::take(&mut self.event);
        if self.has_data {
            out.push(SseEvent {
                event,
                data: std::mem::take(&mut self.data),
            });
            self.has_data = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(event: &str, data: &str) -> SseEvent {
        SseEvent {
            event: event.into(),
            data: data.into(),
        }
    }

    #[test]
    fn handles_crlf_cr_comments_and_multiline_data() {
        let mut d = SseDecoder::default();
        let got =
            d.push(b": keepalive\r\nevent: a\r\ndata: x\r\ndata:y\r\n\r\ndata: z\r\rdata: w\n\n");
        assert_eq!(got, vec![ev("a", "x\ny"), ev("", "z"), ev("", "w")]);
    }

    #[test]
    fn crlf_split_between_pushes_is_one_line_end() {
        let mut d = SseDecoder::default();
        let mut got = d.push(b"data: a\r");
        got.extend(d.push(b"\n\r"));
        got.extend(d.push(b"\ndata: b\n\n"));
        assert_eq!(got, vec![ev("", "a"), ev("", "b")]);
    }

    #[test]
    fn finish_flushes_an_unterminated_event() {
        let mut d = SseDecoder::default();
        assert!(d.push(b"data: [DONE]").is_empty());
        assert_eq!(d.finish(), vec![ev("", "[DONE]")]);
    }

    #[test]
    fn overlong_line_stops_decoding() {
        let mut d = SseDecoder::default();
        d.push(&vec![b'x'; MAX_LINE_BYTES + 1]);
        assert!(d.overflowed());
        assert!(d.push(b"\ndata: a\n\n").is_empty());
    }
}
