//! The AI SDK v4 data stream: one `CODE:JSON` line per part, the part types declared once in
//! [`PART_TYPES`] (code, `ai@4`'s name, payload type and shape).

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::json::{self, Field, Problem, Shape, Struct};
use super::lines::{Line, Lines};
use super::{clip, to_json, FinishReason, Usage};

/// One v4 part type.
#[derive(Debug)]
pub struct PartType {
    pub code: char,
    /// As `ai@4`'s `parseDataStreamPart` names it.
    pub name: &'static str,
    pub(crate) shape: Shape,
}

impl PartType {
    /// Its payload is a JSON string (text, reasoning, error), decoded in [`RawPart::Text`].
    pub fn is_string(&self) -> bool {
        matches!(self.shape, Shape::Str)
    }
}

macro_rules! data_stream_parts {
    ($($(#[$doc:meta])* $code:literal $name:literal $variant:ident($payload:ty) = $shape:expr;)*) => {
        /// One line of the v4 data stream.
        #[derive(Debug, Clone, PartialEq)]
        pub enum DataStreamPart {
            $($(#[$doc])* $variant($payload),)*
        }

        /// Every v4 part type, in the order of `ai@4`'s `dataStreamParts`. The SDK's record kinds
        /// index this table.
        pub const PART_TYPES: &[PartType] = &[
            $(PartType { code: $code, name: $name, shape: $shape },)*
        ];

        impl DataStreamPart {
            pub fn code(&self) -> char {
                match self {
                    $(DataStreamPart::$variant(_) => $code,)*
                }
            }

            fn payload_json(&self) -> String {
                match self {
                    $(DataStreamPart::$variant(v) => to_json(v),)*
                }
            }

            /// The typed part of a line `check_line` accepted.
            pub(super) fn typed(raw: RawPart<'_>) -> Result<DataStreamPart, String> {
                let code = PART_TYPES[raw.part()].code;
                let value = match raw {
                    RawPart::Text { value, .. } => Value::String(value.into_owned()),
                    RawPart::Json { json, .. } => serde_json::from_str(json)
                        .map_err(|e| format!("part `{code}` is not valid JSON: {e}"))?,
                };
                match code {
                    $($code => Ok(DataStreamPart::$variant(payload(code, value)?)),)*
                    _ => Err(format!("unknown part code `{code}`")),
                }
            }
        }
    };
}

data_stream_parts! {
    '0' "text" Text(String) = Shape::Str;
    /// Our worker sends `[{"type":"finish","threadId":…}]` just before `d`.
    '2' "data" Data(Vec<Value>) = Shape::Array;
    '3' "error" Error(String) = Shape::Str;
    '8' "message_annotations" MessageAnnotations(Vec<Value>) = Shape::Array;
    '9' "tool_call" ToolCall(ToolCall) = ToolCall::SHAPE;
    'a' "tool_result" ToolResult(ToolResult) = ToolResult::SHAPE;
    'b' "tool_call_streaming_start" ToolCallStart(ToolCallStart) = ToolCallStart::SHAPE;
    'c' "tool_call_delta" ToolCallDelta(ToolCallDelta) = ToolCallDelta::SHAPE;
    /// The last part.
    'd' "finish_message" FinishMessage(FinishMessage) = FinishMessage::SHAPE;
    'e' "finish_step" FinishStep(FinishStep) = FinishStep::SHAPE;
    'f' "start_step" StartStep(StartStep) = StartStep::SHAPE;
    'g' "reasoning" Reasoning(String) = Shape::Str;
    'h' "source" Source(Source) = Source::SHAPE;
    'i' "redacted_reasoning" RedactedReasoning(RedactedReasoning) = RedactedReasoning::SHAPE;
    'j' "reasoning_signature" ReasoningSignature(ReasoningSignature) = ReasoningSignature::SHAPE;
    'k' "file" File(File) = File::SHAPE;
}

/// Shape of a plain struct of string fields, in declaration order.
macro_rules! string_struct_shape {
    ($($name:literal),*) => {
        Shape::Struct(&Struct { fields: &[$(Field::required($name, Shape::Str)),*], from_array: true })
    };
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCall {
    pub tool_call_id: String,
    pub tool_name: String,
    pub args: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResult {
    pub tool_call_id: String,
    pub result: Value,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallStart {
    pub tool_call_id: String,
    pub tool_name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallDelta {
    pub tool_call_id: String,
    pub args_text_delta: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FinishMessage {
    pub finish_reason: FinishReason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// Ours: `ai@4` passes the parsed part to `onFinish` and ignores fields it does not know.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread_id: Option<String>,
    /// Any other field, kept so that decoding and re-encoding loses nothing.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FinishStep {
    pub finish_reason: FinishReason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// `ai@4` reads a missing value as `false`.
    #[serde(default)]
    pub is_continued: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StartStep {
    pub message_id: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceType {
    Url,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Source {
    pub source_type: SourceType,
    pub id: String,
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider_metadata: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RedactedReasoning {
    pub data: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReasoningSignature {
    pub signature: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct File {
    /// Base64.
    pub data: String,
    pub mime_type: String,
}

// The shapes of the payloads above, field by field (`shape_tests.rs` holds them to serde).
impl ToolCall {
    const SHAPE: Shape = Shape::Struct(&Struct {
        fields: &[
            Field::required("toolCallId", Shape::Str),
            Field::required("toolName", Shape::Str),
            Field::required("args", Shape::Any),
        ],
        from_array: true,
    });
}
impl ToolResult {
    const SHAPE: Shape = Shape::Struct(&Struct {
        fields: &[
            Field::required("toolCallId", Shape::Str),
            Field::required("result", Shape::Any),
        ],
        from_array: true,
    });
}
impl ToolCallStart {
    const SHAPE: Shape = string_struct_shape!("toolCallId", "toolName");
}
impl ToolCallDelta {
    const SHAPE: Shape = string_struct_shape!("toolCallId", "argsTextDelta");
}
impl FinishMessage {
    const SHAPE: Shape = Shape::Struct(&Struct {
        fields: &[
            Field::required("finishReason", FinishReason::SHAPE),
            Field::optional("usage", Usage::SHAPE),
            Field::optional("threadId", Shape::Str),
        ],
        // `flatten` reads maps only.
        from_array: false,
    });
}
impl FinishStep {
    const SHAPE: Shape = Shape::Struct(&Struct {
        fields: &[
            Field::required("finishReason", FinishReason::SHAPE),
            Field::optional("usage", Usage::SHAPE),
            Field {
                name: "isContinued",
                shape: Shape::Bool,
                optional: false,
                default: true,
            },
        ],
        from_array: true,
    });
}
impl StartStep {
    const SHAPE: Shape = string_struct_shape!("messageId");
}
impl Source {
    const SHAPE: Shape = Shape::Struct(&Struct {
        fields: &[
            Field::required(
                "sourceType",
                Shape::Enum {
                    names: &["url"],
                    open: false,
                },
            ),
            Field::required("id", Shape::Str),
            Field::required("url", Shape::Str),
            Field::optional("title", Shape::Str),
            Field::optional("providerMetadata", Shape::Any),
        ],
        from_array: true,
    });
}
impl RedactedReasoning {
    const SHAPE: Shape = string_struct_shape!("data");
}
impl ReasoningSignature {
    const SHAPE: Shape = string_struct_shape!("signature");
}
impl File {
    const SHAPE: Shape = string_struct_shape!("data", "mimeType");
}

impl DataStreamPart {
    /// `CODE:JSON\n`, as `formatDataStreamPart` of `@ai-sdk/ui-utils` writes it.
    pub fn encode(&self) -> String {
        format!("{}:{}\n", self.code(), self.payload_json())
    }

    /// Parses one line without its line end.
    pub fn decode_line(line: &str) -> Result<DataStreamPart, String> {
        DataStreamPart::typed(check_line(line)?)
    }
}

/// From a `Value`, whose map keeps the last of repeated keys as the shapes do. `check_line`
/// accepted the line already: an error here means a shape and its type disagree.
fn payload<T: DeserializeOwned>(code: char, value: Value) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| format!("part `{code}` has the wrong shape: {e}"))
}

/// A v4 line checked against its part type, not built.
#[derive(Debug, Clone, PartialEq)]
pub enum RawPart<'a> {
    /// A part whose payload is a string (text, reasoning, error): its value.
    Text { part: usize, value: Cow<'a, str> },
    /// Any other part: its JSON as sent.
    Json { part: usize, json: &'a str },
}

impl RawPart<'_> {
    /// Index of the part's type in [`PART_TYPES`].
    pub fn part(&self) -> usize {
        match self {
            RawPart::Text { part, .. } | RawPart::Json { part, .. } => *part,
        }
    }
}

/// Checks one line (without its line end) against its part type.
pub fn check_line(line: &str) -> Result<RawPart<'_>, String> {
    let Some((code, payload)) = line.split_once(':') else {
        return Err("missing `:` after the part code".to_string());
    };
    let part = match code.as_bytes() {
        &[c] => PART_TYPES.iter().position(|p| p.code == char::from(c)),
        _ => None,
    }
    .ok_or_else(|| format!("unknown part code `{}`", clip(code)))?;
    let shape = &PART_TYPES[part].shape;
    if let Shape::Str = shape {
        // Most lines: a token, a string with nothing around it.
        if let Some(value) = json::string_value(payload) {
            return Ok(RawPart::Text { part, value });
        }
    }
    json::check(payload, shape).map_err(|problem| match problem {
        Problem::Syntax(e) => format!("part `{code}` is not valid JSON: {e}"),
        Problem::Shape(e) => format!("part `{code}` has the wrong shape: {e}"),
    })?;
    Ok(match shape {
        Shape::Str => {
            let trimmed = payload.trim_matches(|c| c == ' ' || c == '\t');
            let value = json::string_value(trimmed).unwrap_or_default();
            RawPart::Text { part, value }
        }
        _ => RawPart::Json {
            part,
            json: payload,
        },
    })
}

#[derive(Debug, Clone, PartialEq)]
pub enum DecodedEvent {
    Part(DataStreamPart),
    Error { line: usize, message: String },
}

/// A decoded line, its part not built.
#[derive(Debug, Clone, PartialEq)]
pub enum RawDataEvent<'a> {
    Part { line: usize, part: RawPart<'a> },
    Error { line: usize, message: String },
}

/// Incremental v4 data stream decoder, raw: each part checked and handed out as sent. Blank lines
/// are skipped (but counted).
#[derive(Debug, Default)]
pub struct RawDataStreamDecoder {
    lines: Lines,
}

impl RawDataStreamDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, bytes: &[u8], mut emit: impl FnMut(RawDataEvent<'_>)) {
        self.lines.push(bytes, |line| raw_event(line, &mut emit));
    }

    /// Decodes a last line that has no line end; the decoder can then be reused.
    pub fn finish(&mut self, mut emit: impl FnMut(RawDataEvent<'_>)) {
        self.lines.finish(|line| raw_event(line, &mut emit));
    }
}

fn raw_event(line: Line<'_>, emit: &mut impl FnMut(RawDataEvent<'_>)) {
    let event = match line.text {
        Err(error) => RawDataEvent::Error {
            line: line.number,
            message: error.to_string(),
        },
        Ok(text) if text.trim().is_empty() => return,
        Ok(text) => match check_line(text) {
            Ok(part) => RawDataEvent::Part {
                line: line.number,
                part,
            },
            Err(message) => RawDataEvent::Error {
                line: line.number,
                message,
            },
        },
    };
    emit(event);
}

/// Incremental v4 data stream decoder, typed: the raw decoder's parts built with serde.
#[derive(Debug, Default)]
pub struct DataStreamDecoder {
    raw: RawDataStreamDecoder,
}

impl DataStreamDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push_bytes(&mut self, bytes: &[u8]) -> Vec<DecodedEvent> {
        let mut events = Vec::new();
        self.raw.push(bytes, |e| events.push(typed_event(e)));
        events
    }

    pub fn push_str(&mut self, text: &str) -> Vec<DecodedEvent> {
        self.push_bytes(text.as_bytes())
    }

    /// Decodes a last line that has no line end; the decoder can then be reused.
    pub fn finish(&mut self) -> Vec<DecodedEvent> {
        let mut events = Vec::new();
        self.raw.finish(|e| events.push(typed_event(e)));
        events
    }
}

fn typed_event(event: RawDataEvent<'_>) -> DecodedEvent {
    match event {
        RawDataEvent::Part { line, part } => match DataStreamPart::typed(part) {
            Ok(part) => DecodedEvent::Part(part),
            Err(message) => DecodedEvent::Error { line, message },
        },
        RawDataEvent::Error { line, message } => DecodedEvent::Error { line, message },
    }
}
