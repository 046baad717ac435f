//! The stream layer: the two assistant stream formats (AI SDK v4 data stream, AI SDK v5+ UI message
//! stream) and the server-sent events the model providers answer in, on one line splitter.
//!
//! Shared by the worker (encoding, reading providers) and the wasm SDK (decoding), so the SDK's
//! path avoids serde: see [`json`].
//!
//! - [`lines`]: the line splitter (line ends, overlong lines, UTF-8), the only one.
//! - [`sse`]: server-sent events over it; [`sse::SseDecoder`] for the providers.
//! - [`data_stream`]: v4 data stream (`ai@4`, `@ai-sdk/ui-utils@1` `data-stream-parts.ts`): one
//!   `CODE:JSON\n` line per part, the part table [`PART_TYPES`]; response header [`DATA_STREAM_HEADER`].
//! - [`ui_stream`]: v5+ UI message stream (`ai@5` `ui-message-chunks.ts`): server-sent events
//!   `data: {json}\n\n` ended by [`SSE_DONE`]; response header [`UI_MESSAGE_STREAM_HEADER`].
//!
//! The decoders take bytes split anywhere (inside a UTF-8 character too) and accept LF, CRLF and
//! CR line ends. Unlike the `ai@4` client, which rejects a whole batch for one bad line, a bad
//! line becomes an error event naming its 1-based line number and decoding goes on. Each decoder
//! comes in two forms: raw (the part's JSON checked and handed out as sent, what the SDK uses) and
//! typed (the same decoder, then serde into the types below, what the worker and tests use).
//! The answer itself is written by `assistant::encode` with these types.

use serde::{Deserialize, Serialize};

pub mod data_stream;
pub(crate) mod json;
pub mod lines;
pub mod sse;
pub mod ui_stream;

#[cfg(test)]
mod shape_tests;
#[cfg(test)]
mod tests;

pub use data_stream::*;
pub use lines::MAX_LINE_BYTES;
pub use ui_stream::*;

use json::{Field, Shape, Struct};

/// `(name, value)` of the response header `ai@4` `useChat` expects with `streamProtocol: 'data'`.
pub const DATA_STREAM_HEADER: (&str, &str) = ("x-vercel-ai-data-stream", "v1");
/// `(name, value)` of the response header of an AI SDK v5+ UI message stream.
pub const UI_MESSAGE_STREAM_HEADER: (&str, &str) = ("x-vercel-ai-ui-message-stream", "v1");
/// Last event of a UI message stream.
pub const SSE_DONE: &str = "data: [DONE]\n\n";

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
    /// Any reason decodes (to `Unknown` when not known).
    pub(crate) const SHAPE: Shape = Shape::Enum {
        names: &[],
        open: true,
    };

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

impl Usage {
    pub(crate) const SHAPE: Shape = Shape::Struct(&Struct {
        fields: &[
            Field::required("promptTokens", Shape::U64),
            Field::required("completionTokens", Shape::U64),
        ],
        from_array: true,
    });
}

/// Serializes one of our own types. It cannot fail (string keys only, derived impls), and a
/// panic would take the whole worker instance down, so a failure degrades to `null`.
fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_string())
}

/// Keeps error messages short when a garbage line has no early `:`.
fn clip(s: &str) -> String {
    const MAX: usize = 20;
    match s.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}
