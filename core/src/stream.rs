//! The two assistant stream formats (AI SDK v4 data stream, AI SDK v5+ UI message stream).
//!
//! Shared by the worker (encoding) and the wasm SDK (decoding), so it uses serde only.
//!
//! - v4 data stream (`ai@4`, `@ai-sdk/ui-utils@1` `data-stream-parts.ts`): one `CODE:JSON\n` line
//!   per part; response header [`DATA_STREAM_HEADER`].
//! - v5+ UI message stream (`ai@5` `ui-message-chunks.ts`): server-sent events `data: {json}\n\n`
//!   ended by [`SSE_DONE`]; response header [`UI_MESSAGE_STREAM_HEADER`].
//!
//! The decoders take bytes split anywhere (inside a UTF-8 character too) and accept LF, CRLF and
//! CR line ends. Unlike the `ai@4` client, which rejects a whole batch for one bad line, a bad
//! line becomes an error event naming its 1-based line number and decoding goes on.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `(name, value)` of the response header `ai@4` `useChat` expects with `streamProtocol: 'data'`.
pub const DATA_STREAM_HEADER: (&str, &str) = ("x-vercel-ai-data-stream", "v1");
/// `(name, value)` of the response header of an AI SDK v5+ UI message stream.
pub const UI_MESSAGE_STREAM_HEADER: (&str, &str) = ("x-vercel-ai-ui-message-stream", "v1");
/// Last event of a UI message stream.
pub const SSE_DONE: &str = "data: [DONE]\n\n";
/// A longer line is reported as an error and skipped, so a stream without line ends cannot
/// grow the decoder's buffer without bound.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// `stop`, `length`, … as both protocols spell them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FinishReason {
    Stop,
    Length,
    ContentFilter,
    ToolCalls,
    Error,
    Other,
    /// Also what any reason this crate does not know decodes to. Never send it in a v5+
    /// `finish` chunk: recent clients reject `unknown` there.
    #[serde(other)]
    Unknown,
}

impl FinishReason {
    /// A provider's reason, already in AI SDK terms (`stop`, `length`, …); anything else is `Other`.
    pub fn from_ai_sdk(reason: &str) -> FinishReason {
        match reason {
            "stop" => FinishReason::Stop,
            "length" => FinishReason::Length,
            "content-filter" => FinishReason::ContentFilter,
            "tool-calls" => FinishReason::ToolCalls,
            "error" => FinishReason::Error,
            _ => FinishReason::Other,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

// ---------------------------------------------------------------------------------------------
// AI SDK v4 data stream

/// One line of the v4 data stream.
#[derive(Debug, Clone, PartialEq)]
pub enum DataStreamPart {
    /// `0`
    Text(String),
    /// `2`: our worker sends `[{"type":"finish","threadId":…}]` just before `d`.
    Data(Vec<Value>),
    /// `3`
    Error(String),
    /// `8`
    MessageAnnotations(Vec<Value>),
    /// `9`
    ToolCall(ToolCall),
    /// `a`
    ToolResult(ToolResult),
    /// `b`
    ToolCallStart(ToolCallStart),
    /// `c`
    ToolCallDelta(ToolCallDelta),
    /// `d`: the last part.
    FinishMessage(FinishMessage),
    /// `e`
    FinishStep(FinishStep),
    /// `f`
    StartStep(StartStep),
    /// `g`
    Reasoning(String),
    /// `h`
    Source(Source),
    /// `i`
    RedactedReasoning(RedactedReasoning),
    /// `j`
    ReasoningSignature(ReasoningSignature),
    /// `k`
    File(File),
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

/// Serializes one of our own types. It cannot fail (string keys only, derived impls), and a
/// panic would take the whole worker instance down, so a failure degrades to `null`.
fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_string())
}

impl DataStreamPart {
    pub fn code(&self) -> char {
        match self {
            DataStreamPart::Text(_) => '0',
            DataStreamPart::Data(_) => '2',
            DataStreamPart::Error(_) => '3',
            DataStreamPart::MessageAnnotations(_) => '8',
            DataStreamPart::ToolCall(_) => '9',
            DataStreamPart::ToolResult(_) => 'a',
            DataStreamPart::ToolCallStart(_) => 'b',
            DataStreamPart::ToolCallDelta(_) => 'c',
            DataStreamPart::FinishMessage(_) => 'd',
            DataStreamPart::FinishStep(_) => 'e',
            DataStreamPart::StartStep(_) => 'f',
            DataStreamPart::Reasoning(_) => 'g',
            DataStreamPart::Source(_) => 'h',
            DataStreamPart::RedactedReasoning(_) => 'i',
            DataStreamPart::ReasoningSignature(_) => 'j',
            DataStreamPart::File(_) => 'k',
        }
    }

    /// `CODE:JSON\n`, as `formatDataStreamPart` of `@ai-sdk/ui-utils` writes it.
    pub fn encode(&self) -> String {
        let json = match self {
            DataStreamPart::Text(s) | DataStreamPart::Error(s) | DataStreamPart::Reasoning(s) => {
                to_json(s)
            }
            DataStreamPart::Data(v) | DataStreamPart::MessageAnnotations(v) => to_json(v),
            DataStreamPart::ToolCall(v) => to_json(v),
            DataStreamPart::ToolResult(v) => to_json(v),
            DataStreamPart::ToolCallStart(v) => to_json(v),
            DataStreamPart::ToolCallDelta(v) => to_json(v),
            DataStreamPart::FinishMessage(v) => to_json(v),
            DataStreamPart::FinishStep(v) => to_json(v),
            DataStreamPart::StartStep(v) => to_json(v),
            DataStreamPart::Source(v) => to_json(v),
            DataStreamPart::RedactedReasoning(v) => to_json(v),
            DataStreamPart::ReasoningSignature(v) => to_json(v),
            DataStreamPart::File(v) => to_json(v),
        };
        format!("{}:{json}\n", self.code())
    }

    /// Parses one line without its line end.
    pub fn decode_line(line: &str) -> Result<DataStreamPart, String> {
        let Some((code, json)) = line.split_once(':') else {
            return Err("missing `:` after the part code".to_string());
        };
        Ok(match code {
            "0" => DataStreamPart::Text(payload(code, json)?),
            "2" => DataStreamPart::Data(payload(code, json)?),
            "3" => DataStreamPart::Error(payload(code, json)?),
            "8" => DataStreamPart::MessageAnnotations(payload(code, json)?),
            "9" => DataStreamPart::ToolCall(payload(code, json)?),
            "a" => DataStreamPart::ToolResult(payload(code, json)?),
            "b" => DataStreamPart::ToolCallStart(payload(code, json)?),
            "c" => DataStreamPart::ToolCallDelta(payload(code, json)?),
            "d" => DataStreamPart::FinishMessage(payload(code, json)?),
            "e" => DataStreamPart::FinishStep(payload(code, json)?),
            "f" => DataStreamPart::StartStep(payload(code, json)?),
            "g" => DataStreamPart::Reasoning(payload(code, json)?),
            "h" => DataStreamPart::Source(payload(code, json)?),
            "i" => DataStreamPart::RedactedReasoning(payload(code, json)?),
            "j" => DataStreamPart::ReasoningSignature(payload(code, json)?),
            "k" => DataStreamPart::File(payload(code, json)?),
            _ => return Err(format!("unknown part code `{}`", clip(code))),
        })
    }
}

/// Two steps, because a typed parse reports `{` where a string belongs as a type error before
/// it ever sees that the JSON is broken.
fn payload<T: DeserializeOwned>(code: &str, json: &str) -> Result<T, String> {
    let value: Value =
        serde_json::from_str(json).map_err(|e| format!("part `{code}` is not valid JSON: {e}"))?;
    serde_json::from_value(value).map_err(|e| format!("part `{code}` has the wrong shape: {e}"))
}

/// Keeps error messages short when a garbage line has no early `:`.
fn clip(s: &str) -> String {
    const MAX: usize = 20;
    match s.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum DecodedEvent {
    Part(DataStreamPart),
    Error { line: usize, message: String },
}

/// Incremental v4 data stream decoder; blank lines are skipped (but counted).
#[derive(Debug, Default)]
pub struct DataStreamDecoder {
    lines: LineSplitter,
}

impl DataStreamDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push_bytes(&mut self, bytes: &[u8]) -> Vec<DecodedEvent> {
        let mut events = Vec::new();
        self.lines
            .push(bytes, |line| events.extend(decode_data_line(line)));
        events
    }

    pub fn push_str(&mut self, text: &str) -> Vec<DecodedEvent> {
        self.push_bytes(text.as_bytes())
    }

    /// Decodes a last line that has no line end; the decoder can then be reused.
    pub fn finish(&mut self) -> Vec<DecodedEvent> {
        self.lines
            .finish()
            .and_then(decode_data_line)
            .into_iter()
            .collect()
    }
}

fn decode_data_line(line: Line) -> Option<DecodedEvent> {
    let error = |message| {
        Some(DecodedEvent::Error {
            line: line.number,
            message,
        })
    };
    match &line.text {
        Err(message) => error(message.clone()),
        Ok(text) if text.trim().is_empty() => None,
        Ok(text) => match DataStreamPart::decode_line(text) {
            Ok(part) => Some(DecodedEvent::Part(part)),
            Err(message) => error(message),
        },
    }
}

// ---------------------------------------------------------------------------------------------
// AI SDK v5+ UI message stream

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

const KNOWN_UI_CHUNKS: &[&str] = &[
    "start",
    "start-step",
    "finish-step",
    "text-start",
    "text-delta",
    "text-end",
    "reasoning-start",
    "reasoning-delta",
    "reasoning-end",
    "source-url",
    "source-document",
    "file",
    "error",
    "finish",
    "message-metadata",
];

impl UiChunk {
    /// `data: {json}\n\n`.
    pub fn encode_sse(&self) -> String {
        let json = match self {
            UiChunk::Data(raw) | UiChunk::Other(raw) => to_json(raw),
            known => to_json(known),
        };
        format!("data: {json}\n\n")
    }

    /// Parses the JSON of one event. A known type with the wrong shape is an error, so that a
    /// broken chunk is never mistaken for an unknown one.
    pub fn from_json(json: &str) -> Result<UiChunk, String> {
        let value: Value =
            serde_json::from_str(json).map_err(|e| format!("chunk is not valid JSON: {e}"))?;
        let Some(kind) = value.get("type").and_then(Value::as_str) else {
            return Err("chunk must be an object with a string `type`".to_string());
        };
        if kind.starts_with("data-") {
            Ok(UiChunk::Data(value))
        } else if KNOWN_UI_CHUNKS.contains(&kind) {
            let kind = kind.to_string();
            serde_json::from_value(value)
                .map_err(|e| format!("chunk `{}` has the wrong shape: {e}", clip(&kind)))
        } else {
            Ok(UiChunk::Other(value))
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

/// Incremental server-sent events decoder for the UI message stream.
///
/// Follows the SSE rules that matter here: `data:` fields of one event are joined with `\n`,
/// a blank line ends the event, `:` comments and other fields (`event:`, `id:`, `retry:`) are
/// ignored. One leniency: [`finish`](Self::finish) still delivers an event whose closing blank
/// line never came, instead of dropping it as browsers do.
#[derive(Debug, Default)]
pub struct UiStreamDecoder {
    lines: LineSplitter,
    /// Data of the event being read, and the line its first `data:` field was on.
    pending: Option<(String, usize)>,
    /// The event being read contains a bad line; it is dropped at its end.
    broken: bool,
}

impl UiStreamDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push_bytes(&mut self, bytes: &[u8]) -> Vec<UiEvent> {
        let mut events = Vec::new();
        let mut lines = Vec::new();
        self.lines.push(bytes, |line| lines.push(line));
        for line in lines {
            events.extend(self.line(line));
        }
        events
    }

    pub fn push_str(&mut self, text: &str) -> Vec<UiEvent> {
        self.push_bytes(text.as_bytes())
    }

    /// Ends the stream: decodes a last line without line end and a last event without blank line.
    pub fn finish(&mut self) -> Vec<UiEvent> {
        let mut events: Vec<UiEvent> = self
            .lines
            .finish()
            .and_then(|l| self.line(l))
            .into_iter()
            .collect();
        events.extend(self.dispatch());
        events
    }

    fn line(&mut self, line: Line) -> Option<UiEvent> {
        let text = match line.text {
            Ok(text) => text,
            Err(message) => {
                self.pending = None;
                self.broken = true;
                return Some(UiEvent::Error {
                    line: line.number,
                    message,
                });
            }
        };
        if text.is_empty() {
            return self.dispatch();
        }
        let (field, value) = text.split_once(':').unwrap_or((text.as_str(), ""));
        // A leading space after the colon belongs to the syntax, not to the value.
        let value = value.strip_prefix(' ').unwrap_or(value);
        if field == "data" && !self.broken {
            match &mut self.pending {
                Some((data, _)) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.pending = Some((value.to_string(), line.number)),
            }
        }
        // Everything else, comments (empty field name) included, carries nothing for us.
        None
    }

    fn dispatch(&mut self) -> Option<UiEvent> {
        self.broken = false;
        let (data, line) = self.pending.take()?;
        Some(if data == "[DONE]" {
            UiEvent::Done
        } else {
            match UiChunk::from_json(&data) {
                Ok(chunk) => UiEvent::Chunk(chunk),
                Err(message) => UiEvent::Error { line, message },
            }
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Line splitting shared by both decoders

#[derive(Debug)]
struct Line {
    /// 1-based.
    number: usize,
    /// The line without its end, or why it cannot be read.
    text: Result<String, String>,
}

/// Cuts a byte stream into lines at LF, CRLF or CR, wherever the chunks were split. Lines are
/// decoded as UTF-8 only once complete: a UTF-8 character never contains a CR or LF byte, so a
/// character split across chunks is whole again by then.
#[derive(Debug, Default)]
struct LineSplitter {
    buf: Vec<u8>,
    lines_seen: usize,
    /// The previous chunk ended in CR, so an LF opening this one belongs to the same line end.
    after_cr: bool,
    /// The current line passed `MAX_LINE_BYTES`; its bytes are being dropped.
    overlong: bool,
}

impl LineSplitter {
    fn push(&mut self, mut bytes: &[u8], mut emit: impl FnMut(Line)) {
        if self.after_cr {
            if let Some((&first, rest)) = bytes.split_first() {
                self.after_cr = false;
                if first == b'\n' {
                    bytes = rest;
                }
            }
        }
        while let Some(end) = bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
            self.append(&bytes[..end]);
            emit(self.take_line());
            let is_cr = bytes[end] == b'\r';
            let crlf = is_cr && bytes.get(end + 1) == Some(&b'\n');
            self.after_cr = is_cr && end + 1 == bytes.len();
            bytes = &bytes[end + if crlf { 2 } else { 1 }..];
        }
        self.append(bytes);
    }

    fn finish(&mut self) -> Option<Line> {
        self.after_cr = false;
        (!self.buf.is_empty() || self.overlong).then(|| self.take_line())
    }

    fn append(&mut self, bytes: &[u8]) {
        if self.overlong || self.buf.len() + bytes.len() > MAX_LINE_BYTES {
            self.overlong = true;
            self.buf.clear();
        } else {
            self.buf.extend_from_slice(bytes);
        }
    }

    fn take_line(&mut self) -> Line {
        self.lines_seen += 1;
        let bytes = std::mem::take(&mut self.buf);
        let text = if std::mem::take(&mut self.overlong) {
            Err(format!("line is longer than {MAX_LINE_BYTES} bytes"))
        } else {
            String::from_utf8(bytes).map_err(|_| "line is not valid UTF-8".to_string())
        };
        Line {
            number: self.lines_seen,
            text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn usage() -> Usage {
        Usage {
            prompt_tokens: 1,
            completion_tokens: 2,
        }
    }

    fn every_v4_part() -> Vec<DataStreamPart> {
        vec![
            DataStreamPart::StartStep(StartStep {
                message_id: "msg_x".into(),
            }),
            DataStreamPart::Reasoning("think é".into()),
            DataStreamPart::RedactedReasoning(RedactedReasoning { data: "zzz".into() }),
            DataStreamPart::ReasoningSignature(ReasoningSignature {
                signature: "sig".into(),
            }),
            DataStreamPart::Text("Hello é 中文 🦀\n\"quoted\"".into()),
            DataStreamPart::Data(vec![json!({"type": "finish", "threadId": "t1"})]),
            DataStreamPart::MessageAnnotations(vec![json!({"a": 1}), json!("b")]),
            DataStreamPart::ToolCallStart(ToolCallStart {
                tool_call_id: "c1".into(),
                tool_name: "search".into(),
            }),
            DataStreamPart::ToolCallDelta(ToolCallDelta {
                tool_call_id: "c1".into(),
                args_text_delta: "{\"q\":".into(),
            }),
            DataStreamPart::ToolCall(ToolCall {
                tool_call_id: "c1".into(),
                tool_name: "search".into(),
                args: json!({"q": "x"}),
            }),
            DataStreamPart::ToolResult(ToolResult {
                tool_call_id: "c1".into(),
                result: json!([1, 2]),
            }),
            DataStreamPart::Source(Source {
                source_type: SourceType::Url,
                id: "s1".into(),
                url: "https://docs.example.com/a".into(),
                title: Some("A".into()),
                provider_metadata: None,
            }),
            DataStreamPart::File(File {
                data: "AAAA".into(),
                mime_type: "image/png".into(),
            }),
            DataStreamPart::Error("boom".into()),
            DataStreamPart::FinishStep(FinishStep {
                finish_reason: FinishReason::Stop,
                usage: Some(usage()),
                is_continued: false,
            }),
            DataStreamPart::FinishMessage(FinishMessage {
                finish_reason: FinishReason::Stop,
                usage: Some(usage()),
                thread_id: Some("t1".into()),
                extra: Map::new(),
            }),
        ]
    }

    fn decode_all(chunks: &[&[u8]]) -> Vec<DecodedEvent> {
        let mut decoder = DataStreamDecoder::new();
        let mut events: Vec<DecodedEvent> =
            chunks.iter().flat_map(|c| decoder.push_bytes(c)).collect();
        events.extend(decoder.finish());
        events
    }

    fn parts(parts: Vec<DataStreamPart>) -> Vec<DecodedEvent> {
        parts.into_iter().map(DecodedEvent::Part).collect()
    }

    #[test]
    fn v4_parts_encode_as_ai_sdk_4_expects() {
        assert_eq!(
            DataStreamPart::Text("Hello".into()).encode(),
            "0:\"Hello\"\n"
        );
        assert_eq!(
            DataStreamPart::StartStep(StartStep {
                message_id: "msg_x".into()
            })
            .encode(),
            "f:{\"messageId\":\"msg_x\"}\n"
        );
        assert_eq!(
            DataStreamPart::FinishStep(FinishStep { finish_reason: FinishReason::Stop, usage: Some(usage()), is_continued: false }).encode(),
            "e:{\"finishReason\":\"stop\",\"usage\":{\"promptTokens\":1,\"completionTokens\":2},\"isContinued\":false}\n"
        );
        let finish = FinishMessage {
            finish_reason: FinishReason::ToolCalls,
            usage: Some(usage()),
            thread_id: Some("t1".into()),
            extra: Map::new(),
        };
        assert_eq!(
            DataStreamPart::FinishMessage(finish).encode(),
            "d:{\"finishReason\":\"tool-calls\",\"usage\":{\"promptTokens\":1,\"completionTokens\":2},\"threadId\":\"t1\"}\n"
        );
        assert_eq!(
            DataStreamPart::Source(Source {
                source_type: SourceType::Url,
                id: "s".into(),
                url: "u".into(),
                title: None,
                provider_metadata: None
            })
            .encode(),
            "h:{\"sourceType\":\"url\",\"id\":\"s\",\"url\":\"u\"}\n"
        );
        assert_eq!(
            DataStreamPart::File(File {
                data: "AA".into(),
                mime_type: "image/png".into()
            })
            .encode(),
            "k:{\"data\":\"AA\",\"mimeType\":\"image/png\"}\n"
        );
    }

    #[test]
    fn every_v4_part_roundtrips_through_encode_and_decode() {
        for part in every_v4_part() {
            let line = part.encode();
            assert!(
                line.ends_with('\n') && line.matches('\n').count() == 1,
                "{line}"
            );
            assert_eq!(
                DataStreamPart::decode_line(line.trim_end()).unwrap(),
                part,
                "{line}"
            );
        }
    }

    #[test]
    fn v4_finish_message_keeps_unknown_fields() {
        let line = r#"d:{"finishReason":"stop","threadId":"t","extraThing":[1]}"#;
        let part = DataStreamPart::decode_line(line).unwrap();
        let DataStreamPart::FinishMessage(finish) = &part else {
            panic!("{part:?}")
        };
        assert_eq!(finish.thread_id.as_deref(), Some("t"));
        assert_eq!(finish.extra.get("extraThing"), Some(&json!([1])));
        assert_eq!(part.encode().trim_end(), line);
    }

    #[test]
    fn v4_finish_step_without_is_continued_reads_false() {
        let part = DataStreamPart::decode_line(r#"e:{"finishReason":"length"}"#).unwrap();
        assert_eq!(
            part,
            DataStreamPart::FinishStep(FinishStep {
                finish_reason: FinishReason::Length,
                usage: None,
                is_continued: false
            })
        );
    }

    #[test]
    fn v4_stream_split_at_every_byte_decodes_the_same() {
        let stream: String = every_v4_part().iter().map(DataStreamPart::encode).collect();
        let bytes = stream.as_bytes();
        let expected = parts(every_v4_part());
        assert_eq!(decode_all(&[bytes]), expected);
        for at in 0..=bytes.len() {
            assert_eq!(
                decode_all(&[&bytes[..at], &bytes[at..]]),
                expected,
                "split at {at}"
            );
        }
        let one_by_one: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(decode_all(&one_by_one), expected);
    }

    #[test]
    fn v4_crlf_and_blank_lines_are_tolerated() {
        let stream: String = every_v4_part()
            .iter()
            .map(|p| p.encode().replace('\n', "\r\n\r\n"))
            .collect();
        let bytes = stream.as_bytes();
        let expected = parts(every_v4_part());
        for at in 0..=bytes.len() {
            assert_eq!(
                decode_all(&[&bytes[..at], &bytes[at..]]),
                expected,
                "split at {at}"
            );
        }
    }

    #[test]
    fn v4_last_line_without_newline_is_decoded_at_finish() {
        let mut decoder = DataStreamDecoder::new();
        assert_eq!(
            decoder.push_str("0:\"a\"\n0:\"b\""),
            parts(vec![DataStreamPart::Text("a".into())])
        );
        assert_eq!(
            decoder.finish(),
            parts(vec![DataStreamPart::Text("b".into())])
        );
    }

    #[test]
    fn v4_malformed_lines_become_errors_and_decoding_continues() {
        let stream = concat!(
            "0:\"one\"\n",
            "0:{not json\n",
            "\n",
            "z:\"x\"\n",
            "9:{\"toolCallId\":\"c\"}\n",
            "no separator\n",
            "1:{\"function_call\":{}}\n",
            "0:\"two\"\n",
        );
        let events = decode_all(&[stream.as_bytes()]);
        assert_eq!(events.len(), 7, "{events:#?}");
        assert_eq!(
            events[0],
            DecodedEvent::Part(DataStreamPart::Text("one".into()))
        );
        let errors: Vec<(usize, &str)> = events[1..6]
            .iter()
            .map(|e| match e {
                DecodedEvent::Error { line, message } => (*line, message.as_str()),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(errors[0].0, 2);
        assert!(
            errors[0].1.starts_with("part `0` is not valid JSON"),
            "{}",
            errors[0].1
        );
        assert_eq!(errors[1], (4, "unknown part code `z`"));
        assert_eq!(errors[2].0, 5);
        assert!(
            errors[2]
                .1
                .starts_with("part `9` has the wrong shape: missing field `toolName`"),
            "{}",
            errors[2].1
        );
        assert_eq!(errors[3], (6, "missing `:` after the part code"));
        assert_eq!(errors[4], (7, "unknown part code `1`"));
        assert_eq!(
            events[6],
            DecodedEvent::Part(DataStreamPart::Text("two".into()))
        );
    }

    #[test]
    fn v4_invalid_utf8_is_an_error_for_that_line_only() {
        let events = decode_all(&[b"0:\"\xff\"\n0:\"ok\"\n"]);
        assert_eq!(
            events,
            vec![
                DecodedEvent::Error {
                    line: 1,
                    message: "line is not valid UTF-8".into()
                },
                DecodedEvent::Part(DataStreamPart::Text("ok".into())),
            ]
        );
    }

    #[test]
    fn overlong_lines_are_reported_and_skipped() {
        let mut decoder = DataStreamDecoder::new();
        let chunk = vec![b'x'; MAX_LINE_BYTES / 2 + 1];
        assert!(decoder.push_bytes(b"0:\"").is_empty());
        assert!(decoder.push_bytes(&chunk).is_empty());
        assert!(decoder.push_bytes(&chunk).is_empty());
        let events = decoder.push_bytes(b"\"\n0:\"ok\"\n");
        assert_eq!(
            events,
            vec![
                DecodedEvent::Error {
                    line: 1,
                    message: format!("line is longer than {MAX_LINE_BYTES} bytes")
                },
                DecodedEvent::Part(DataStreamPart::Text("ok".into())),
            ]
        );
    }

    // --- UI message stream

    fn every_ui_chunk() -> Vec<UiChunk> {
        vec![
            UiChunk::Start {
                message_id: Some("msg_1".into()),
                message_metadata: Some(json!({"k": "v"})),
            },
            UiChunk::StartStep,
            UiChunk::ReasoningStart { id: "r1".into() },
            UiChunk::ReasoningDelta {
                id: "r1".into(),
                delta: "hmm é".into(),
            },
            UiChunk::ReasoningEnd { id: "r1".into() },
            UiChunk::SourceUrl {
                source_id: "s1".into(),
                url: "https://x/a".into(),
                title: Some("A".into()),
            },
            UiChunk::SourceDocument {
                source_id: "d1".into(),
                media_type: "text/plain".into(),
                title: "D".into(),
                filename: None,
            },
            UiChunk::File {
                url: "https://x/f.png".into(),
                media_type: "image/png".into(),
            },
            UiChunk::TextStart { id: "t1".into() },
            UiChunk::TextDelta {
                id: "t1".into(),
                delta: "Hello é 中文 🦀\n\nbye".into(),
            },
            UiChunk::TextEnd { id: "t1".into() },
            UiChunk::Data(
                json!({"type": "data-thread", "data": {"threadId": "t1"}, "transient": true}),
            ),
            UiChunk::Other(
                json!({"type": "tool-input-start", "toolCallId": "c1", "toolName": "search"}),
            ),
            UiChunk::Error {
                error_text: "partial failure".into(),
            },
            UiChunk::MessageMetadata {
                message_metadata: json!({"threadId": "t1"}),
            },
            UiChunk::FinishStep,
            UiChunk::Finish {
                finish_reason: Some(FinishReason::Stop),
                message_metadata: None,
                thread_id: Some("t1".into()),
            },
        ]
    }

    fn ui_stream() -> String {
        let mut stream: String = every_ui_chunk().iter().map(UiChunk::encode_sse).collect();
        stream.push_str(SSE_DONE);
        stream
    }

    fn ui_expected() -> Vec<UiEvent> {
        let mut events: Vec<UiEvent> = every_ui_chunk().into_iter().map(UiEvent::Chunk).collect();
        events.push(UiEvent::Done);
        events
    }

    fn ui_decode_all(chunks: &[&[u8]]) -> Vec<UiEvent> {
        let mut decoder = UiStreamDecoder::new();
        let mut events: Vec<UiEvent> = chunks.iter().flat_map(|c| decoder.push_bytes(c)).collect();
        events.extend(decoder.finish());
        events
    }

    #[test]
    fn ui_chunks_encode_with_ai_sdk_5_field_names() {
        assert_eq!(
            UiChunk::TextDelta {
                id: "t".into(),
                delta: "Hi".into()
            }
            .encode_sse(),
            "data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"Hi\"}\n\n"
        );
        assert_eq!(
            UiChunk::Start {
                message_id: Some("m".into()),
                message_metadata: None
            }
            .encode_sse(),
            "data: {\"type\":\"start\",\"messageId\":\"m\"}\n\n"
        );
        assert_eq!(
            UiChunk::StartStep.encode_sse(),
            "data: {\"type\":\"start-step\"}\n\n"
        );
        assert_eq!(
            UiChunk::SourceUrl {
                source_id: "s".into(),
                url: "u".into(),
                title: None
            }
            .encode_sse(),
            "data: {\"type\":\"source-url\",\"sourceId\":\"s\",\"url\":\"u\"}\n\n"
        );
        assert_eq!(
            UiChunk::Error {
                error_text: "x".into()
            }
            .encode_sse(),
            "data: {\"type\":\"error\",\"errorText\":\"x\"}\n\n"
        );
        assert_eq!(
            UiChunk::Finish { finish_reason: Some(FinishReason::ContentFilter), message_metadata: Some(json!({"threadId": "t"})), thread_id: None }.encode_sse(),
            "data: {\"type\":\"finish\",\"finishReason\":\"content-filter\",\"messageMetadata\":{\"threadId\":\"t\"}}\n\n"
        );
        let data = UiChunk::Data(json!({"type": "data-x", "data": 1}));
        let sse = data.encode_sse();
        let json = sse
            .strip_prefix("data: ")
            .and_then(|s| s.strip_suffix("\n\n"))
            .unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(json).unwrap(),
            json!({"type": "data-x", "data": 1})
        );
        assert_eq!(SSE_DONE, "data: [DONE]\n\n");
    }

    #[test]
    fn ui_stream_split_at_every_byte_decodes_the_same() {
        let stream = ui_stream();
        let bytes = stream.as_bytes();
        let expected = ui_expected();
        assert_eq!(ui_decode_all(&[bytes]), expected);
        for at in 0..=bytes.len() {
            assert_eq!(
                ui_decode_all(&[&bytes[..at], &bytes[at..]]),
                expected,
                "split at {at}"
            );
        }
        let one_by_one: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(ui_decode_all(&one_by_one), expected);
    }

    #[test]
    fn ui_stream_with_crlf_comments_and_other_fields_decodes_the_same() {
        let stream = format!(
            ": keep-alive\n\nevent: message\nid: 7\nretry: 100\n{}",
            ui_stream()
        )
        .replace('\n', "\r\n");
        let bytes = stream.as_bytes();
        let expected = ui_expected();
        for at in 0..=bytes.len() {
            assert_eq!(
                ui_decode_all(&[&bytes[..at], &bytes[at..]]),
                expected,
                "split at {at}"
            );
        }
    }

    #[test]
    fn ui_multi_line_data_is_joined_with_newlines() {
        let stream =
            "data: {\"type\":\"text-delta\",\ndata:\"id\":\"t\",\ndata:  \"delta\":\"a\"}\n\n";
        assert_eq!(
            ui_decode_all(&[stream.as_bytes()]),
            vec![UiEvent::Chunk(UiChunk::TextDelta {
                id: "t".into(),
                delta: "a".into()
            })]
        );
    }

    #[test]
    fn ui_malformed_event_becomes_an_error_and_decoding_continues() {
        let stream = concat!(
            "data: {\"type\":\"start\"}\n",
            "\n",
            ": comment\n",
            "data: {\"type\":\"text-delta\",\n",
            "\n",
            "data: {\"type\":\"text-delta\",\"id\":\"t\"}\n",
            "\n",
            "data: [1]\n",
            "\n",
            "data: {\"type\":\"text-start\",\"id\":\"t\"}\n",
            "\n",
            "data: [DONE]\n",
            "\n",
        );
        let events = ui_decode_all(&[stream.as_bytes()]);
        assert_eq!(events.len(), 6, "{events:#?}");
        assert_eq!(
            events[0],
            UiEvent::Chunk(UiChunk::Start {
                message_id: None,
                message_metadata: None
            })
        );
        let UiEvent::Error { line: 4, message } = &events[1] else {
            panic!("{:?}", events[1])
        };
        assert!(message.starts_with("chunk is not valid JSON"), "{message}");
        let UiEvent::Error { line: 6, message } = &events[2] else {
            panic!("{:?}", events[2])
        };
        assert!(
            message.starts_with("chunk `text-delta` has the wrong shape: missing field `delta`"),
            "{message}"
        );
        assert_eq!(
            events[3],
            UiEvent::Error {
                line: 8,
                message: "chunk must be an object with a string `type`".into()
            }
        );
        assert_eq!(
            events[4],
            UiEvent::Chunk(UiChunk::TextStart { id: "t".into() })
        );
        assert_eq!(events[5], UiEvent::Done);
    }

    #[test]
    fn ui_event_with_an_invalid_utf8_line_is_dropped_whole() {
        let events = ui_decode_all(&[
            b"data: {\"type\":\ndata: \xff\n\ndata: {\"type\":\"start-step\"}\n\n",
        ]);
        assert_eq!(
            events,
            vec![
                UiEvent::Error {
                    line: 2,
                    message: "line is not valid UTF-8".into()
                },
                UiEvent::Chunk(UiChunk::StartStep),
            ]
        );
    }

    #[test]
    fn ui_unknown_chunk_types_are_kept_raw() {
        let raw = json!({"type": "tool-output-available", "toolCallId": "c", "output": {"x": 1}, "dynamic": true});
        let chunk = UiChunk::from_json(&raw.to_string()).unwrap();
        assert_eq!(chunk, UiChunk::Other(raw.clone()));
        assert_eq!(
            UiChunk::from_json(chunk.encode_sse().trim_start_matches("data: ").trim_end()).unwrap(),
            chunk
        );
    }

    #[test]
    fn ui_finish_thread_id_roundtrips_and_unknown_fields_are_ignored() {
        let chunk =
            UiChunk::from_json(r#"{"type":"finish","threadId":"t9","providerMetadata":{}}"#)
                .unwrap();
        assert_eq!(
            chunk,
            UiChunk::Finish {
                finish_reason: None,
                message_metadata: None,
                thread_id: Some("t9".into())
            }
        );
    }

    #[test]
    fn ui_last_event_without_blank_line_is_delivered_at_finish() {
        let mut decoder = UiStreamDecoder::new();
        assert!(decoder
            .push_str("data: {\"type\":\"finish-step\"}")
            .is_empty());
        assert_eq!(decoder.finish(), vec![UiEvent::Chunk(UiChunk::FinishStep)]);
    }
}
