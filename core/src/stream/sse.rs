//! Server-sent events (WHATWG `text/event-stream`) over [`Lines`]: the framing of the UI message
//! stream and of the model providers' streams.
//!
//! `data:` fields of one event are joined with `\n`, a blank line ends the event, one space after
//! the colon belongs to the syntax, `:` lines are comments, `id:` and `retry:` carry nothing here.
//! A line that cannot be read (see [`Lines`]) is reported, and the event it belongs to is dropped
//! at its end. One leniency: [`SseFramer::finish`] still delivers an event whose closing blank line
//! never came, as some servers close the connection right after the last `data:`.

use super::lines::{Line, LineError, Lines};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, empty when absent.
    pub event: String,
    pub data: String,
    /// The line of the event's first `data:` field.
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SseItem {
    Event(SseEvent),
    /// A line that could not be read; its event is dropped.
    Unreadable {
        line: usize,
        error: LineError,
    },
}

#[derive(Debug, Default)]
pub struct SseFramer {
    lines: Lines,
    event: EventInProgress,
}

#[derive(Debug, Default)]
struct EventInProgress {
    event: String,
    /// Data so far and the line of its first `data:` field.
    data: Option<(String, usize)>,
    /// The event contains a line that could not be read.
    broken: bool,
}

impl SseFramer {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, bytes: &[u8], mut emit: impl FnMut(SseItem)) {
        let event = &mut self.event;
        self.lines.push(bytes, |line| event.line(line, &mut emit));
    }

    /// End of the body: a last line without line end, a last event without blank line.
    pub fn finish(&mut self, mut emit: impl FnMut(SseItem)) {
        let event = &mut self.event;
        self.lines.finish(|line| event.line(line, &mut emit));
        event.dispatch(&mut emit);
    }

    /// The line being read is already too long to be read.
    pub fn is_overlong(&self) -> bool {
        self.lines.is_overlong()
    }
}

impl EventInProgress {
    fn line(&mut self, line: Line<'_>, emit: &mut impl FnMut(SseItem)) {
        let text = match line.text {
            Ok(text) => text,
            Err(error) => {
                self.data = None;
                self.broken = true;
                return emit(SseItem::Unreadable {
                    line: line.number,
                    error,
                });
            }
        };
        if text.is_empty() {
            return self.dispatch(emit);
        }
        let (field, value) = text.split_once(':').unwrap_or((text, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "data" if !self.broken => match &mut self.data {
                Some((data, _)) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some((value.to_string(), line.number)),
            },
            "event" => value.clone_into(&mut self.event),
            // Comments (empty field name), `id:`, `retry:` and unknown fields carry nothing for us.
            _ => {}
        }
    }

    fn dispatch(&mut self, emit: &mut impl FnMut(SseItem)) {
        self.broken = false;
        let event = std::mem::take(&mut self.event);
        if let Some((data, line)) = self.data.take() {
            emit(SseItem::Event(SseEvent { event, data, line }));
        }
    }
}

/// The events of a provider's stream, which is unusable from its first unreadable line on: a peer
/// that sends a line over [`MAX_LINE_BYTES`](super::lines::MAX_LINE_BYTES) or bytes that are not
/// UTF-8 is not speaking SSE.
#[derive(Debug, Default)]
pub struct SseDecoder {
    framer: SseFramer,
    failed: Option<LineError>,
}

impl SseDecoder {
    pub fn push(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        if self.failed.is_none() {
            let failed = &mut self.failed;
            self.framer
                .push(bytes, |item| collect(item, failed, &mut out));
        }
        out
    }

    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut out = Vec::new();
        if self.failed.is_none() {
            let failed = &mut self.failed;
            self.framer.finish(|item| collect(item, failed, &mut out));
        }
        out
    }

    /// Why the stream became unusable, as soon as it is known (an overlong line before its end).
    pub fn failure(&self) -> Option<LineError> {
        self.failed
            .or(self.framer.is_overlong().then_some(LineError::TooLong))
    }
}

fn collect(item: SseItem, failed: &mut Option<LineError>, out: &mut Vec<SseEvent>) {
    match item {
        SseItem::Event(event) if failed.is_none() => out.push(event),
        SseItem::Unreadable { error, .. } => {
            failed.get_or_insert(error);
        }
        SseItem::Event(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::lines::MAX_LINE_BYTES;
    use super::*;

    fn ev(event: &str, data: &str, line: usize) -> SseEvent {
        SseEvent {
            event: event.into(),
            data: data.into(),
            line,
        }
    }

    #[test]
    fn handles_crlf_cr_comments_and_multiline_data() {
        let mut d = SseDecoder::default();
        let got =
            d.push(b": keepalive\r\nevent: a\r\ndata: x\r\ndata:y\r\n\r\ndata: z\r\rdata: w\n\n");
        assert_eq!(
            got,
            vec![ev("a", "x\ny", 3), ev("", "z", 6), ev("", "w", 8)]
        );
    }

    #[test]
    fn crlf_split_between_pushes_is_one_line_end() {
        let mut d = SseDecoder::default();
        let mut got = d.push(b"data: a\r");
        got.extend(d.push(b"\n\r"));
        got.extend(d.push(b"\ndata: b\n\n"));
        assert_eq!(got, vec![ev("", "a", 1), ev("", "b", 3)]);
    }

    #[test]
    fn finish_flushes_an_unterminated_event() {
        let mut d = SseDecoder::default();
        assert!(d.push(b"data: [DONE]").is_empty());
        assert_eq!(d.finish(), vec![ev("", "[DONE]", 1)]);
    }

    #[test]
    fn overlong_line_stops_decoding() {
        let mut d = SseDecoder::default();
        d.push(&vec![b'x'; MAX_LINE_BYTES + 1]);
        assert_eq!(d.failure(), Some(LineError::TooLong));
        assert!(d.push(b"\ndata: a\n\n").is_empty());
        assert!(d.finish().is_empty());
    }

    #[test]
    fn a_provider_line_that_is_not_utf8_stops_decoding_after_the_events_before_it() {
        let mut d = SseDecoder::default();
        assert_eq!(
            d.push(b"data: a\n\ndata: \xff\n\ndata: b\n\n"),
            vec![ev("", "a", 1)]
        );
        assert_eq!(d.failure(), Some(LineError::NotUtf8));
    }

    #[test]
    fn the_framer_drops_only_the_event_with_the_unreadable_line() {
        let mut framer = SseFramer::new();
        let mut items = Vec::new();
        framer.push(b"data: a\ndata: \xff\ndata: b\n\nevent: e\ndata: c", |i| {
            items.push(i)
        });
        framer.finish(|i| items.push(i));
        assert_eq!(
            items,
            vec![
                SseItem::Unreadable {
                    line: 2,
                    error: LineError::NotUtf8
                },
                SseItem::Event(ev("e", "c", 6)),
            ]
        );
    }
}
