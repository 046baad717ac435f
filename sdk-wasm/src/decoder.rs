//! The incremental stream parser JavaScript drives: the core crate's decoders (the same code the
//! worker's tests encode with), their events written into an [`EventBatch`] per push.

use docs_edge_core::stream::{
    DataStreamDecoder, DataStreamPart, DecodedEvent, UiChunk, UiEvent, UiStreamDecoder,
};
use wasm_bindgen::prelude::*;

use crate::batch::*;

enum Protocol {
    /// AI SDK v4 data stream (`CODE:JSON` lines).
    Data(DataStreamDecoder),
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
            Protocol::Data(DataStreamDecoder::new())
        };
        StreamDecoder {
            protocol,
            batch: EventBatch::default(),
            heap: Vec::new(),
        }
    }

    #[wasm_bindgen(js_name = pushBytes)]
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Vec<u32> {
        match &mut self.protocol {
            Protocol::Data(d) => write_data_events(&mut self.batch, d.push_bytes(bytes)),
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
            Protocol::Data(d) => write_data_events(&mut self.batch, d.finish()),
            Protocol::Ui(d) => write_ui_events(&mut self.batch, d.finish()),
        }
        self.hand_over()
    }

    /// The text of the last push's events, as one string.
    pub fn heap(&mut self) -> String {
        // Only ever filled from `&str`s and serde_json output, so always UTF-8; lossy is a
        // no-op fallback that keeps this free of panics.
        let bytes = std::mem::take(&mut self.heap);
        String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

impl StreamDecoder {
    fn hand_over(&mut self) -> Vec<u32> {
        let (records, heap) = self.batch.take();
        self.heap = heap;
        records
    }
}

pub fn write_data_events(batch: &mut EventBatch, events: Vec<DecodedEvent>) {
    for event in events {
        match event {
            DecodedEvent::Part(part) => write_part(batch, &part),
            DecodedEvent::Error { line, message } => batch.error(line, &message),
        }
    }
}

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
