//! LLM provider wire formats: request bodies and incremental parsers of their streamed responses.
//! No I/O here; the worker does the fetch and feeds response bytes to a parser as they arrive.
//!
//! Each parser has `push(&[u8]) -> Vec<LlmEvent>` (bytes may be split anywhere, even inside a UTF-8
//! character) and `finish() -> Vec<LlmEvent>` for the end of the body. A stream yields `TextDelta`s,
//! then exactly one `Finish` or one `Error`; input after that is ignored.
//!
//! What each provider needs on the wire (for the worker and its integration tests):
//!
//! | provider | request | headers |
//! |---|---|---|
//! | OpenAI-compatible | `POST {base}/v1/chat/completions`, body from [`build_openai_request`] | `Authorization: Bearer <key>`, `Content-Type: application/json` |
//! | Anthropic | `POST https://api.anthropic.com/v1/messages`, body from [`build_anthropic_request`] | `x-api-key: <key>`, `anthropic-version: 2023-06-01`, `content-type: application/json` |
//! | Workers AI (binding) | `env.AI.run(model, build_workers_ai_input(..))` returns the SSE byte stream | none (the binding authenticates) |
//! | Workers AI (REST) | `POST https://api.cloudflare.com/client/v4/accounts/{account}/ai/run/{model}`, same body | `Authorization: Bearer <api token>`, `Content-Type: application/json` |
//!
//! All three answer `text/event-stream`. [`openai_headers`] and [`anthropic_headers`] return the
//! header lists above.

mod anthropic;
mod openai;
mod workers_ai;

pub use anthropic::{build_anthropic_request, AnthropicStream};
pub use openai::{build_openai_request, OpenAiStream};
pub use workers_ai::{build_workers_ai_input, WorkersAiStream};

/// Value of the `anthropic-version` header this module's formats follow.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

/// One parsed step of a provider stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LlmEvent {
    TextDelta(String),
    /// `reason` is an AI SDK finish reason: `stop`, `length`, `content-filter`, `tool-calls`, `error`
    /// or `other`. Token counts are those the provider reported, if any.
    Finish {
        reason: String,
        prompt_tokens: Option<u32>,
        completion_tokens: Option<u32>,
    },
    /// The provider reported an error (or the stream broke); the worker ends its stream with
    /// finish reason `error`.
    Error(String),
}

pub fn openai_headers(api_key: &str) -> Vec<(&'static str, String)> {
    vec![
        ("Authorization", format!("Bearer {api_key}")),
        ("Content-Type", "application/json".into()),
    ]
}

pub fn anthropic_headers(api_key: &str) -> Vec<(&'static str, String)> {
    vec![
        ("x-api-key", api_key.to_string()),
        ("anthropic-version", ANTHROPIC_VERSION.to_string()),
        ("content-type", "application/json".into()),
    ]
}

/// Chat Completions `finish_reason` -> AI SDK finish reason.
pub fn map_openai_finish_reason(reason: &str) -> &'static str {
    match reason {
        "stop" => "stop",
        "length" => "length",
        "content_filter" => "content-filter",
        "tool_calls" | "function_call" => "tool-calls",
        "error" => "error",
        _ => "other",
    }
}

/// Messages API `stop_reason` -> AI SDK finish reason.
pub fn map_anthropic_stop_reason(reason: &str) -> &'static str {
    match reason {
        "end_turn" | "stop_sequence" => "stop",
        "max_tokens" | "model_context_window_exceeded" => "length",
        "tool_use" => "tool-calls",
        "refusal" => "content-filter",
        _ => "other",
    }
}

/// Message of a provider error value: `{"message": ..., "type": ...}` or a bare string.
fn error_message(error: &serde_json::Value) -> String {
    if let Some(s) = error.as_str() {
        return s.to_string();
    }
    let message = error
        .get("message")
        .and_then(|m| m.as_str())
        .unwrap_or("provider error");
    match error
        .get("type")
        .or_else(|| error.get("code"))
        .and_then(|t| t.as_str())
    {
        Some(kind) if !kind.is_empty() => format!("{kind}: {message}"),
        _ => message.to_string(),
    }
}

fn as_u32(v: Option<&serde_json::Value>) -> Option<u32> {
    v.and_then(|v| v.as_u64())
        .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
}

/// Chat messages in the OpenAI shape (`system` first), used by OpenAI and Workers AI.
fn chat_messages(prompt: &super::prompt::ChatPrompt) -> Vec<serde_json::Value> {
    let mut messages = Vec::with_capacity(prompt.messages.len() + 1);
    if !prompt.system.is_empty() {
        messages.push(serde_json::json!({ "role": "system", "content": prompt.system }));
    }
    for (role, content) in &prompt.messages {
        messages.push(serde_json::json!({ "role": role.as_str(), "content": content }));
    }
    messages
}

#[cfg(test)]
mod split_tests;

/// The prompt the providers' request-body tests build from: a system text and one question.
#[cfg(test)]
fn sample_prompt() -> super::prompt::ChatPrompt {
    super::prompt::ChatPrompt {
        system: "rules".into(),
        messages: vec![(crate::assistant::prompt::PromptRole::User, "q".into())],
    }
}
