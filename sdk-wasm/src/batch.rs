//! The compact form in which one `push` hands its events to JavaScript.
//!
//! Building a JS object per event from Rust costs several boundary crossings per field; instead
//! each push fills two buffers that cross once each:
//! - `heap`: the UTF-8 text of every string and JSON value of the batch, one after the other
//!   (JS decodes it with one `TextDecoder` call);
//! - `records`: four `u32` per event, `[kind, start, end, line]`, where `start..end` is the
//!   event's slice of the decoded heap **in UTF-16 code units** (what `String.prototype.slice`
//!   counts), so JS never scans the text again.
//!
//! `sdk-wasm/js/parser.js` is the other half of this format; it learns the v4 kinds from
//! `v4PartNames()` and `v4StringParts()`.

use docs_edge_core::stream::PART_TYPES;

/// v4 parts: the index of their type in the core crate's `PART_TYPES` (`v4PartNames()` gives JS
/// their names in that order).
pub const fn part_kind(code: char) -> u32 {
    let mut i = 0;
    while i < PART_TYPES.len() {
        if PART_TYPES[i].code == code {
            return i as u32;
        }
        i += 1;
    }
    u32::MAX
}
/// A line that could not be decoded: `line` is its 1-based number, the slice its message.
pub const PARSE_ERROR: u32 = PART_TYPES.len() as u32;
/// A v5+ UI message chunk: the slice is its JSON object.
pub const UI_CHUNK: u32 = PARSE_ERROR + 1;
/// `data: [DONE]`; no slice.
pub const UI_DONE: u32 = PARSE_ERROR + 2;

#[cfg(test)]
pub const V4_TEXT: u32 = part_kind('0');
#[cfg(test)]
pub const V4_DATA: u32 = part_kind('2');
#[cfg(test)]
pub const V4_ERROR: u32 = part_kind('3');
#[cfg(test)]
pub const V4_REASONING: u32 = part_kind('g');

/// Events of one push, in the compact form described above.
#[derive(Debug, Default)]
pub struct EventBatch {
    pub records: Vec<u32>,
    pub heap: Vec<u8>,
    /// Length of `heap` in UTF-16 code units.
    heap_units: u32,
}

impl EventBatch {
    /// An event whose payload is a string, taken as it is.
    pub fn text(&mut self, kind: u32, text: &str) {
        let (start, end) = self.append(text.as_bytes());
        self.records.extend_from_slice(&[kind, start, end, 0]);
    }

    /// An event whose payload is a JSON value, written with serde (the tests' reference path).
    #[cfg(test)]
    pub fn json<T: serde::Serialize + ?Sized>(&mut self, kind: u32, value: &T) {
        let before = self.heap.len();
        // Writing our own derived types into a Vec cannot fail; if it ever did, the half-written
        // bytes are dropped and the event becomes a parse error rather than broken JSON.
        if serde_json::to_writer(&mut self.heap, value).is_err() {
            self.heap.truncate(before);
            self.error(0, "event could not be encoded");
            return;
        }
        let start = self.heap_units;
        self.heap_units += utf16_units(&self.heap[before..]);
        self.records
            .extend_from_slice(&[kind, start, self.heap_units, 0]);
    }

    pub fn error(&mut self, line: usize, message: &str) {
        let (start, end) = self.append(message.as_bytes());
        self.records
            .extend_from_slice(&[PARSE_ERROR, start, end, saturate(line)]);
    }

    pub fn marker(&mut self, kind: u32) {
        self.records.extend_from_slice(&[kind, 0, 0, 0]);
    }

    /// Room for the events of `input_bytes` of stream, so that a push does not grow the buffers
    /// step by step: event text is about as long as the input, and a token line about 8 bytes or
    /// more (a denser chunk only grows the records once more).
    pub fn reserve_for(&mut self, input_bytes: usize) {
        self.heap.reserve(input_bytes);
        self.records.reserve(input_bytes / 8 * 4 + 4);
    }

    pub fn len(&self) -> usize {
        self.records.len() / 4
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Hands the buffers over and starts an empty batch.
    pub fn take(&mut self) -> (Vec<u32>, Vec<u8>) {
        self.heap_units = 0;
        (
            std::mem::take(&mut self.records),
            std::mem::take(&mut self.heap),
        )
    }

    fn append(&mut self, bytes: &[u8]) -> (u32, u32) {
        let start = self.heap_units;
        self.heap.extend_from_slice(bytes);
        self.heap_units += utf16_units(bytes);
        (start, self.heap_units)
    }
}

/// UTF-16 length of valid UTF-8: one unit per character, two for characters outside the BMP
/// (those are exactly the ones with a 4-byte sequence, whose lead byte is 0xF0 or more).
pub fn utf16_units(utf8: &[u8]) -> u32 {
    // Most text is ASCII, which `is_ascii` checks a word at a time.
    if utf8.is_ascii() {
        return saturate(utf8.len());
    }
    let units = utf8
        .iter()
        .map(|&b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0))
        .sum::<usize>();
    saturate(units)
}

/// Line numbers and heap offsets fit in `u32` for any stream a page can hold; clamp rather than wrap.
fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_units_match_rust_encode_utf16() {
        for s in ["", "abc", "é", "中文", "🦀", "a🦀é\n中"] {
            assert_eq!(
                utf16_units(s.as_bytes()) as usize,
                s.encode_utf16().count(),
                "{s}"
            );
        }
    }

    #[test]
    fn slices_are_in_utf16_units() {
        let mut batch = EventBatch::default();
        batch.text(V4_TEXT, "🦀é");
        batch.json(V4_DATA, &["中"]);
        batch.error(7, "bad");
        batch.marker(UI_DONE);
        assert_eq!(batch.len(), 4);
        let (records, heap) = batch.take();
        assert_eq!(
            records,
            vec![
                V4_TEXT,
                0,
                3,
                0, //
                V4_DATA,
                3,
                8,
                0, // ["中"] is 5 units
                PARSE_ERROR,
                8,
                11,
                7, //
                UI_DONE,
                0,
                0,
                0,
            ]
        );
        assert_eq!(String::from_utf8(heap).unwrap(), "🦀é[\"中\"]bad");
        assert!(batch.is_empty());
    }
}
