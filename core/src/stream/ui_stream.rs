//! The AI SDK v5+ UI message stream: server-sent events `data: {json}`, ended by `data: [DONE]`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::json::{self, Field, Problem, Shape, Struct};
use super::sse::{SseFramer, SseItem};
use super::{clip, to_json, FinishReason};

/// One UI message stream chunk (`uiMessageChunkSchema` of `ai@5`).
///
/// Data chunks (`data-<name>`) and every other type (`tool-input-*`, `tool-output-*`, `abort`,
/// types added later) are kept raw, `type` included, and encoded back unchanged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum UiChunk {
    Start {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message_metadata: Option<Value>,
    },
    StartStep,
    FinishStep,
    TextStart {
        id: String,
    },
    TextDelta {
        id: String,
        delta: String,
    },
    TextEnd {
        id: String,
    },
    ReasoningStart {
        id: String,
    },
    ReasoningDelta {
        id: String,
        delta: String,
    },
    ReasoningEnd {
        id: String,
    },
    SourceUrl {
        source_id: String,
        url: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
    },
    SourceDocument {
        source_id: String,
        media_type: String,
        title: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        filename: Option<String>,
    },
    File {
        url: String,
        media_type: String,
    },
    Error {
        error_text: String,
    },
    Finish {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        finish_reason: Option<FinishReason>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message_metadata: Option<Value>,
        /// Ours, as the hosted service documents it (`event.threadId` on `finish`). Careful:
        /// `DefaultChatTransport` validates chunks with `z.strictObject`, so a stock v5+ client
        /// fails on this field; for those, send the thread in `message_metadata` (or a
        /// `data-*` chunk) and leave this `None`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        thread_id: Option<String>,
    },
    MessageMetadata {
        message_metadata: Value,
    },
    /// `data-<name>` chunks: `{type, id?, data, transient?}`.
    // Skipped by serde: `from_json` and `encode_sse` handle the raw variants themselves, which
    // keeps serde's precise errors for the known types.
    #[serde(skip)]
    Data(Value),
    /// Any other chunk type.
    #[serde(skip)]
    Other(Value),
}

/// The chunk types [`UiChunk`] knows, with the shape of each (`shape_tests.rs` holds them to serde).
const KNOWN_UI_CHUNKS: &[(&str, &Struct)] = &[
    (
        "start",
        &Struct {
            fields: &[
                Field::optional("messageId", Shape::Str),
                Field::optional("messageMetadata", Shape::Any),
            ],
            from_array: false,
        },
    ),
    (
        "start-step",
        &Struct {
            fields: &[],
            from_array: false,
        },
    ),
    (
        "finish-step",
        &Struct {
            fields: &[],
            from_array: false,
        },
    ),
    ("text-start", ID),
    ("text-delta", ID_DELTA),
    ("text-end", ID),
    ("reasoning-start", ID),
    ("reasoning-delta", ID_DELTA),
    ("reasoning-end", ID),
    (
        "source-url",
        &Struct {
            fields: &[
                Field::required("sourceId", Shape::Str),
                Field::required("url", Shape::Str),
                Field::optional("title", Shape::Str),
            ],
            from_array: false,
        },
    ),
    (
        "source-document",
        &Struct {
            fields: &[
                Field::required("sourceId", Shape::Str),
                Field::required("mediaType", Shape::Str),
                Field::required("title", Shape::Str),
                Field::optional("filename", Shape::Str),
            ],
            from_array: false,
        },
    ),
    (
        "file",
        &Struct {
            fields: &[
                Field::required("url", Shape::Str),
                Field::required("mediaType", Shape::Str),
            ],
            from_array: false,
        },
    ),
    (
        "error",
        &Struct {
            fields: &[Field::required("errorText", Shape::Str)],
            from_array: false,
        },
    ),
    (
        "finish",
        &Struct {
            fields: &[
                Field::optional("finishReason", FinishReason::SHAPE),
                Field::optional("messageMetadata", Shape::Any),
                Field::optional("threadId", Shape::Str),
            ],
            from_array: false,
        },
    ),
    (
        "message-metadata",
        &Struct {
            fields: &[Field::required("messageMetadata", Shape::Any)],
            from_array: false,
        },
    ),
];

const ID: &Struct = &Struct {
    fields: &[Field::required("id", Shape::Str)],
    from_array: false,
};
const ID_DELTA: &Struct = &Struct {
    fields: &[
        Field::required("id", Shape::Str),
        Field::required("delta", Shape::Str),
    ],
    from_array: false,
};

/// What kind of chunk a checked chunk is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChunkKind {
    /// One of [`UiChunk`]'s typed variants.
    Known,
    /// `data-<name>`.
    Data,
    /// A type this crate does not know.
    Other,
}

/// Checks one chunk's JSON. A known type with the wrong shape is an error, so that a broken chunk
/// is never mistaken for an unknown one.
pub fn check_chunk(json: &str) -> Result<ChunkKind, String> {
    let kind = match json::string_field(json, "type") {
        Err(e) => return Err(format!("chunk is not valid JSON: {e}")),
        Ok(None) => return Err("chunk must be an object with a string `type`".to_string()),
        Ok(Some(kind)) => kind,
    };
    if kind.starts_with("data-") {
        return Ok(ChunkKind::Data);
    }
    let Some((_, shape)) = KNOWN_UI_CHUNKS.iter().find(|(name, _)| *name == kind) else {
        return Ok(ChunkKind::Other);
    };
    match json::check(json, &Shape::Struct(shape)) {
        Ok(()) => Ok(ChunkKind::Known),
        Err(Problem::Shape(e)) => Err(format!("chunk `{}` has the wrong shape: {e}", clip(&kind))),
        Err(Problem::Syntax(e)) => Err(format!("chunk is not valid JSON: {e}")),
    }
}

impl UiChunk {
    /// `data: {json}\n\n`.
    pub fn encode_sse(&self) -> String {
        let json = match self {
            UiChunk::Data(raw) | UiChunk::Other(raw) => to_json(raw),
            known => to_json(known),
        };
        format!("data: {json}\n\n")
    }

    /// Parses the JSON of one event (see [`check_chunk`]).
    pub fn from_json(json: &str) -> Result<UiChunk, String> {
        let kind = check_chunk(json)?;
        let value: Value =
            serde_json::from_str(json).map_err(|e| format!("chunk is not valid JSON: {e}"))?;
        match kind {
            ChunkKind::Data => Ok(UiChunk::Data(value)),
            ChunkKind::Other => Ok(UiChunk::Other(value)),
            // `check_chunk` accepted it: an error here means a shape and its type disagree.
            ChunkKind::Known => {
                serde_json::from_value(value).map_err(|e| format!("chunk has the wrong shape: {e}"))
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum UiEvent {
    Chunk(UiChunk),
    /// `data: [DONE]`.
    Done,
    /// `line` is the line of the event's first `data:` field (or the bad line itself).
    Error {
        line: usize,
        message: String,
    },
}

/// A decoded event, its chunk checked but not built.
#[derive(Debug, Clone, PartialEq)]
pub enum RawUiEvent<'a> {
    /// The chunk's JSON as sent (its `data:` fields joined).
    Chunk {
        line: usize,
        json: &'a str,
    },
    Done,
    Error {
        line: usize,
        message: String,
    },
}

/// Incremental UI message stream decoder, raw: each chunk checked and handed out as sent. Follows
/// the SSE rules of [`super::sse`], `[DONE]` included.
#[derive(Debug, Default)]
pub struct RawUiStreamDecoder {
    sse: SseFramer,
}

impl RawUiStreamDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, bytes: &[u8], mut emit: impl FnMut(RawUiEvent<'_>)) {
        self.sse.push(bytes, |item| raw_event(item, &mut emit));
    }

    /// Ends the stream: decodes a last line without line end and a last event without blank line.
    pub fn finish(&mut self, mut emit: impl FnMut(RawUiEvent<'_>)) {
        self.sse.finish(|item| raw_event(item, &mut emit));
    }
}

fn raw_event(item: SseItem, emit: &mut impl FnMut(RawUiEvent<'_>)) {
    match item {
        SseItem::Unreadable { line, error } => emit(RawUiEvent::Error {
            line,
            message: error.to_string(),
        }),
        SseItem::Event(event) if event.data == "[DONE]" => emit(RawUiEvent::Done),
        SseItem::Event(event) => emit(match check_chunk(&event.data) {
            Ok(_) => RawUiEvent::Chunk {
                line: event.line,
                json: &event.data,
            },
            Err(message) => RawUiEvent::Error {
                line: event.line,
                message,
            },
        }),
    }
}

/// Incremental UI message stream decoder, typed: the raw decoder's chunks built with serde.
#[derive(Debug, Default)]
pub struct UiStreamDecoder {
    raw: RawUiStreamDecoder,
}

impl UiStreamDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push_bytes(&mut self, bytes: &[u8]) -> Vec<UiEvent> {
        let mut events = Vec::new();
        self.raw.push(bytes, |e| events.push(typed_event(e)));
        events
    }

    pub fn push_str(&mut self, text: &str) -> Vec<UiEvent> {
        self.push_bytes(text.as_bytes())
    }

    /// Ends the stream: decodes a last line without line end and a last event without blank line.
    pub fn finish(&mut self) -> Vec<UiEvent> {
        let mut events = Vec::new();
        self.raw.finish(|e| events.push(typed_event(e)));
        events
    }
}

fn typed_event(event: RawUiEvent<'_>) -> UiEvent {
    match event {
        RawUiEvent::Chunk { line, json } => match UiChunk::from_json(json) {
            Ok(chunk) => UiEvent::Chunk(chunk),
            Err(message) => UiEvent::Error { line, message },
        },
        RawUiEvent::Done => UiEvent::Done,
        RawUiEvent::Error { line, message } => UiEvent::Error { line, message },
    }
}
