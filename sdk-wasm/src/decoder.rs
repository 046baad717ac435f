//! The incremental stream parser JavaScript drives: the core crate's raw decoders (one stream
//! layer for the worker and the SDK), their events written into an [`EventBatch`] per push.
//!
//! Raw means each part is checked against its type's shape and handed over as sent: strings
//! decoded, JSON payloads as their text (JS `JSON.parse`s them), which keeps every field and
//! skips building anything here. `decoder_tests.rs` checks that the events equal the core's typed
//! decoder's on every split of tricky lines and on random input.

use docs_edge_core::stream::{
    RawDataEvent, RawDataStreamDecoder, RawPart, RawUiEvent, RawUiStreamDecoder, PART_TYPES,
};
use wasm_bindgen::prelude::*;

use crate::batch::*;

enum Protocol {
    /// AI SDK v4 data stream (`CODE:JSON` lines).
    Data(RawDataStreamDecoder),
    /// AI SDK v5+ UI message stream (server-sent events).
    Ui(RawUiStreamDecoder),
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
            Protocol::Ui(RawUiStreamDecoder::new())
        } else {
            Protocol::Data(RawDataStreamDecoder::new())
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
        let batch = &mut self.batch;
        match &mut self.protocol {
            Protocol::Data(d) => d.push(bytes, |e| data_event(batch, e)),
            Protocol::Ui(d) => d.push(bytes, |e| ui_event(batch, e)),
        }
        self.hand_over()
    }

    #[wasm_bindgen(js_name = pushString)]
    pub fn push_string(&mut self, text: &str) -> Vec<u32> {
        self.push_bytes(text.as_bytes())
    }

    /// Ends the stream: a last line without line end, a last event without blank line.
    pub fn finish(&mut self) -> Vec<u32> {
        let batch = &mut self.batch;
        match &mut self.protocol {
            Protocol::Data(d) => d.finish(|e| data_event(batch, e)),
            Protocol::Ui(d) => d.finish(|e| ui_event(batch, e)),
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

/// `ai@4`'s names of the v4 part types, comma-separated, in record-kind order.
#[wasm_bindgen(js_name = v4PartNames)]
pub fn v4_part_names() -> String {
    let names: Vec<&str> = PART_TYPES.iter().map(|p| p.name).collect();
    names.join(",")
}

/// The record kinds of v4 parts whose value is a string (the others carry JSON).
#[wasm_bindgen(js_name = v4StringParts)]
pub fn v4_string_parts() -> Vec<u32> {
    PART_TYPES
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_string())
        .map(|(i, _)| i as u32)
        .collect()
}

pub fn data_event(batch: &mut EventBatch, event: RawDataEvent<'_>) {
    match event {
        RawDataEvent::Part { part, .. } => match part {
            RawPart::Text { part, value } => batch.text(part as u32, &value),
            RawPart::Json { part, json } => batch.text(part as u32, json),
        },
        RawDataEvent::Error { line, message } => batch.error(line, &message),
    }
}

fn ui_event(batch: &mut EventBatch, event: RawUiEvent<'_>) {
    match event {
        RawUiEvent::Chunk { json, .. } => batch.text(UI_CHUNK, json),
        RawUiEvent::Done => batch.marker(UI_DONE),
        RawUiEvent::Error { line, message } => batch.error(line, &message),
    }
}

/// The core's typed decoder's events, in the same form (the tests compare both paths through this):
/// each part encoded again and read back, structured values re-serialized.
#[cfg(test)]
pub fn write_data_events(
    batch: &mut EventBatch,
    events: Vec<docs_edge_core::stream::DecodedEvent>,
) {
    use docs_edge_core::stream::{check_line, DecodedEvent};
    for event in events {
        match event {
            DecodedEvent::Part(part) => {
                let line = part.encode();
                match check_line(line.trim_end_matches('\n')) {
                    Ok(RawPart::Json { part, json }) => {
                        let value: serde_json::Value = serde_json::from_str(json).unwrap();
                        batch.json(part as u32, &value)
                    }
                    Ok(raw) => data_event(batch, RawDataEvent::Part { line: 0, part: raw }),
                    Err(message) => panic!("the core encoded a line it refuses: {message}"),
                }
            }
            DecodedEvent::Error { line, message } => batch.error(line, &message),
        }
    }
}
