//! The incremental stream parser JavaScript drives, its events written into an [`EventBatch`] per
//! push.
//!
//! v5+ UI message streams go through the core crate's decoder as they are. v4 data streams, the
//! format whose throughput matters (every token is a line), take a fast path for the parts that are
//! one JSON string (text, reasoning, error) and a one-step check against the core types for the
//! structured parts every answer carries; every other line, and any line those paths refuse, goes to
//! the core crate's `DataStreamPart::decode_line`, which stays the one definition of the format.
//! `decoder_tests.rs` checks that the events (types, line numbers, messages, string values) equal the
//! core decoder's on every split of tricky lines and on random input.

use std::borrow::Cow;

use docs_edge_core::stream::{
    DataStreamPart, FinishMessage, FinishStep, Source, StartStep, UiChunk, UiEvent, UiStreamDecoder,
};
use wasm_bindgen::prelude::*;

use crate::batch::*;
use crate::lines::{LineResult, Lines};

enum Protocol {
    /// AI SDK v4 data stream (`CODE:JSON` lines).
    Data(Lines),
    /// AI SDK v5+ UI message stream (server-sent events).
    Ui(UiStreamDecoder),
}

/// One stream being decoded. Each push returns the records of its events; `heap()` must be
/// called right after to get their text (see `batch.rs` for the format).
#[wasm_bindgen]
pub struct StreamDecoder {
    protocol: Protocol,
    batch: EventBatch,
    heap: Vec<u8>,
}

#[wasm_bindgen]
impl StreamDecoder {
    /// `ui`: decode the v5+ UI message stream instead of the v4 data stream.
    #[wasm_bindgen(constructor)]
    pub fn new(ui: bool) -> StreamDecoder {
        let protocol = if ui {
            Protocol::Ui(UiStreamDecoder::new())
        } else {
            Protocol::Data(Lines::default())
        };
        StreamDecoder {
            protocol,
            batch: EventBatch::default(),
            heap: Vec::new(),
        }
    }

    #[wasm_bindgen(js_name = pushBytes)]
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Vec<u32> {
        self.batch.reserve_for(bytes.len());
        match &mut self.protocol {
            Protocol::Data(lines) => {
                let batch = &mut self.batch;
                lines.push(bytes, |line| data_line(batch, line));
            }
            Protocol::Ui(d) => write_ui_events(&mut self.batch, d.push_bytes(bytes)),
        }
        self.hand_over()
    }

    #[wasm_bindgen(js_name = pushString)]
    pub fn push_string(&mut self, text: &str) -> Vec<u32> {
        self.push_bytes(text.as_bytes())
    }

    /// Ends the stream: a last line without line end, a last event without blank line.
    pub fn finish(&mut self) -> Vec<u32> {
        match &mut self.protocol {
            Protocol::Data(lines) => {
                let batch = &mut self.batch;
                lines.finish(|line| data_line(batch, line));
            }
            Protocol::Ui(d) => write_ui_events(&mut self.batch, d.finish()),
        }
        self.hand_over()
    }

    /// The text of the last push's events, as UTF-8 (JS decodes it in one `TextDecoder` call;
    /// returning a `String` instead would validate it here once more).
    pub fn heap(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.heap)
    }
}

impl StreamDecoder {
    fn hand_over(&mut self) -> Vec<u32> {
        let (records, heap) = self.batch.take();
        self.heap = heap;
        records
    }
}

/// One line of a v4 data stream; blank lines are skipped (but were counted), as in the core decoder.
fn data_line(batch: &mut EventBatch, (number, line): LineResult) {
    let text = match line {
        Ok(text) => text,
        Err(message) => return batch.error(number, &message),
    };
    if text.trim().is_empty() {
        return;
    }
    if let Some((kind, value)) = string_part(text) {
        return batch.text(kind, &value);
    }
    if let Some((kind, json)) = frequent_part(text) {
        return batch.text(kind, json);
    }
    match DataStreamPart::decode_line(text) {
        // The core types checked the shape; JS gets the JSON as sent (and `JSON.parse`s it), which
        // keeps every field and skips re-encoding, the larger half of a structured line's cost.
        Ok(part) => {
            let kind = kind_of(&part);
            match (&part, text.split_once(':')) {
                // Strings the fast path left to the core (none known): the decoded value.
                (
                    DataStreamPart::Text(v)
                    | DataStreamPart::Reasoning(v)
                    | DataStreamPart::Error(v),
                    _,
                ) => batch.text(kind, v),
                (_, Some((_, json))) => batch.text(kind, json),
                (_, None) => batch.error(number, "missing `:` after the part code"),
            }
        }
        Err(message) => batch.error(number, &message),
    }
}

/// The structured parts every answer carries (start, sources, finish), checked against their core
/// types in one step. The core decoder reads a `Value` first and converts it, which costs twice as
/// much; a line this check refuses goes to the core decoder, so accepted lines and error messages
/// stay the core's.
fn frequent_part(line: &str) -> Option<(u32, &str)> {
    fn check<T: serde::de::DeserializeOwned>(json: &str) -> bool {
        serde_json::from_str::<T>(json).is_ok()
    }
    let (code, json) = (line.as_bytes().get(..2)?, line.get(2..)?);
    let (kind, ok) = match code {
        b"f:" => (V4_START_STEP, check::<StartStep>(json)),
        b"h:" => (V4_SOURCE, check::<Source>(json)),
        b"2:" => (V4_DATA, check::<Vec<serde_json::Value>>(json)),
        b"e:" => (V4_FINISH_STEP, check::<FinishStep>(json)),
        b"d:" => (V4_FINISH_MESSAGE, check::<FinishMessage>(json)),
        _ => return None,
    };
    ok.then_some((kind, json))
}

fn kind_of(part: &DataStreamPart) -> u32 {
    match part {
        DataStreamPart::Text(_) => V4_TEXT,
        DataStreamPart::Data(_) => V4_DATA,
        DataStreamPart::Error(_) => V4_ERROR,
        DataStreamPart::MessageAnnotations(_) => V4_MESSAGE_ANNOTATIONS,
        DataStreamPart::ToolCall(_) => V4_TOOL_CALL,
        DataStreamPart::ToolResult(_) => V4_TOOL_RESULT,
        DataStreamPart::ToolCallStart(_) => V4_TOOL_CALL_START,
        DataStreamPart::ToolCallDelta(_) => V4_TOOL_CALL_DELTA,
        DataStreamPart::FinishMessage(_) => V4_FINISH_MESSAGE,
        DataStreamPart::FinishStep(_) => V4_FINISH_STEP,
        DataStreamPart::StartStep(_) => V4_START_STEP,
        DataStreamPart::Reasoning(_) => V4_REASONING,
        DataStreamPart::Source(_) => V4_SOURCE,
        DataStreamPart::RedactedReasoning(_) => V4_REDACTED_REASONING,
        DataStreamPart::ReasoningSignature(_) => V4_REASONING_SIGNATURE,
        DataStreamPart::File(_) => V4_FILE,
    }
}

/// `0:`, `g:` and `3:` lines whose payload is a valid JSON string. Without escapes (most tokens) the
/// value is the text between the quotes as it is; otherwise serde_json reads the string. Anything
/// else, errors included, is left to the core decoder so that messages stay the core's.
fn string_part(line: &str) -> Option<(u32, Cow<'_, str>)> {
    let kind = match line.as_bytes().get(..2)? {
        b"0:" => V4_TEXT,
        b"g:" => V4_REASONING,
        b"3:" => V4_ERROR,
        _ => return None,
    };
    // Index 2 is a character boundary: the two bytes before it are ASCII.
    let json = &line[2..];
    let bytes = json.as_bytes();
    if bytes.len() >= 2 && bytes[0] == b'"' && bytes[bytes.len() - 1] == b'"' {
        let inner = &json[1..json.len() - 1];
        if inner.bytes().all(|b| b != b'"' && b != b'\\' && b >= 0x20) {
            return Some((kind, Cow::Borrowed(inner)));
        }
    }
    serde_json::from_str::<String>(json)
        .ok()
        .map(|value| (kind, Cow::Owned(value)))
}

/// The core decoder's events, in the same form (the tests compare both paths through this).
#[cfg(test)]
pub fn write_data_events(
    batch: &mut EventBatch,
    events: Vec<docs_edge_core::stream::DecodedEvent>,
) {
    use docs_edge_core::stream::DecodedEvent;
    for event in events {
        match event {
            DecodedEvent::Part(part) => write_part(batch, &part),
            DecodedEvent::Error { line, message } => batch.error(line, &message),
        }
    }
}

#[cfg(test)]
fn write_part(batch: &mut EventBatch, part: &DataStreamPart) {
    match part {
        DataStreamPart::Text(s) => batch.text(V4_TEXT, s),
        DataStreamPart::Data(v) => batch.json(V4_DATA, v),
        DataStreamPart::Error(s) => batch.text(V4_ERROR, s),
        DataStreamPart::MessageAnnotations(v) => batch.json(V4_MESSAGE_ANNOTATIONS, v),
        DataStreamPart::ToolCall(v) => batch.json(V4_TOOL_CALL, v),
        DataStreamPart::ToolResult(v) => batch.json(V4_TOOL_RESULT, v),
        DataStreamPart::ToolCallStart(v) => batch.json(V4_TOOL_CALL_START, v),
        DataStreamPart::ToolCallDelta(v) => batch.json(V4_TOOL_CALL_DELTA, v),
        DataStreamPart::FinishMessage(v) => batch.json(V4_FINISH_MESSAGE, v),
        DataStreamPart::FinishStep(v) => batch.json(V4_FINISH_STEP, v),
        DataStreamPart::StartStep(v) => batch.json(V4_START_STEP, v),
        DataStreamPart::Reasoning(s) => batch.text(V4_REASONING, s),
        DataStreamPart::Source(v) => batch.json(V4_SOURCE, v),
        DataStreamPart::RedactedReasoning(v) => batch.json(V4_REDACTED_REASONING, v),
        DataStreamPart::ReasoningSignature(v) => batch.json(V4_REASONING_SIGNATURE, v),
        DataStreamPart::File(v) => batch.json(V4_FILE, v),
    }
}

pub fn write_ui_events(batch: &mut EventBatch, events: Vec<UiEvent>) {
    for event in events {
        match event {
            // Raw chunks are kept as received; serde knows only the typed ones.
            UiEvent::Chunk(UiChunk::Data(raw) | UiChunk::Other(raw)) => batch.json(UI_CHUNK, &raw),
            UiEvent::Chunk(chunk) => batch.json(UI_CHUNK, &chunk),
            UiEvent::Done => batch.marker(UI_DONE),
            UiEvent::Error { line, message } => batch.error(line, &message),
        }
    }
}
