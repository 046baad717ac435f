//! Anthropic Messages API: streamed request body and event parser.
//!
//! Wire format: named SSE events whose data repeats the name in `type`: `message_start`
//! (`message.usage.input_tokens`), per content block `content_block_start` / `content_block_delta`
//! (`delta.type` `text_delta` carries `delta.text`) / `content_block_stop`, then `message_delta`
//! (`delta.stop_reason`, cumulative `usage.output_tokens`), `message_stop`; `ping` at any time;
//! `error` (`{"type":"error","error":{"type":"overloaded_error","message":...}}`) may replace the rest.
//! Unknown event types are skipped, as Anthropic's versioning policy asks.

use super::{as_u32, error_message, map_anthropic_stop_reason, LlmEvent};
use crate::assistant::prompt::ChatPrompt;
use crate::stream::sse::SseDecoder;
use serde_json::{json, Value};

/// The system prompt is the top-level `system` field: the Messages API has no system role.
pub fn build_anthropic_request(model: &str, prompt: &ChatPrompt, max_tokens: u32) -> Value {
    let messages: Vec<Value> = prompt
        .messages
        .iter()
        .map(|(role, content)| json!({ "role": role.as_str(), "content": content }))
        .collect();
    let mut body = json!({
        "model": model,
        "max_tokens": max_tokens,
        "messages": messages,
        "stream": true,
    });
    if !prompt.system.is_empty() {
        body["system"] = Value::String(prompt.system.clone());
    }
    body
}

#[derive(Debug, Default)]
pub struct AnthropicStream {
    sse: SseDecoder,
    stop_reason: Option<String>,
    input_tokens: Option<u32>,
    output_tokens: Option<u32>,
    done: bool,
}

impl AnthropicStream {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, bytes: &[u8]) -> Vec<LlmEvent> {
        let events = self.sse.push(bytes);
        let mut out = Vec::new();
        for event in events {
            if self.done {
                break;
            }
            self.handle(&event.event, &event.data, &mut out);
        }
        if let (Some(failure), false) = (self.sse.failure(), self.done) {
            self.done = true;
            out.push(LlmEvent::Error(format!("unreadable stream: {failure}")));
        }
        out
    }

    /// End of body without `message_stop`: a stop reason already seen still counts as a normal end.
    pub fn finish(&mut self) -> Vec<LlmEvent> {
        let mut out = Vec::new();
        for event in self.sse.finish() {
            if self.done {
                break;
            }
            self.handle(&event.event, &event.data, &mut out);
        }
        if !self.done {
            if self.stop_reason.is_some() {
                out.push(self.finish_event());
            } else {
                self.done = true;
                out.push(LlmEvent::Error(
                    "stream ended before the response was complete".into(),
                ));
            }
        }
        out
    }

    fn handle(&mut self, name: &str, data: &str, out: &mut Vec<LlmEvent>) {
        let Ok(value) = serde_json::from_slice::<Value>(data.as_bytes()) else {
            self.done = true;
            out.push(LlmEvent::Error(format!("unparseable {name} event")));
            return;
        };
        let kind = value.get("type").and_then(|t| t.as_str()).unwrap_or(name);
        match kind {
            "message_start" => {
                self.input_tokens =
                    as_u32(value.pointer("/message/usage/input_tokens")).or(self.input_tokens);
            }
            "content_block_start" => {
                let block = value.get("content_block");
                if block.and_then(|b| b.get("type")).and_then(|t| t.as_str()) == Some("text") {
                    push_text(block.and_then(|b| b.get("text")), out);
                }
            }
            "content_block_delta" => {
                let delta = value.get("delta");
                if delta.and_then(|d| d.get("type")).and_then(|t| t.as_str()) == Some("text_delta")
                {
                    push_text(delta.and_then(|d| d.get("text")), out);
                }
            }
            "message_delta" => {
                if let Some(reason) = value.pointer("/delta/stop_reason").and_then(|r| r.as_str()) {
                    self.stop_reason = Some(reason.to_string());
                }
                // Counts here are cumulative for the whole message, so they replace earlier ones.
                self.output_tokens =
                    as_u32(value.pointer("/usage/output_tokens")).or(self.output_tokens);
                self.input_tokens =
                    as_u32(value.pointer("/usage/input_tokens")).or(self.input_tokens);
            }
            "message_stop" => out.push(self.finish_event()),
            "error" => {
                self.done = true;
                out.push(LlmEvent::Error(
                    value
                        .get("error")
                        .map(error_message)
                        .unwrap_or_else(|| "provider error".into()),
                ));
            }
            _ => {}
        }
    }

    fn finish_event(&mut self) -> LlmEvent {
        self.done = true;
        let reason = self
            .stop_reason
            .as_deref()
            .map(map_anthropic_stop_reason)
            .unwrap_or("other");
        LlmEvent::Finish {
            reason: reason.to_string(),
            prompt_tokens: self.input_tokens,
            completion_tokens: self.output_tokens,
        }
    }
}

fn push_text(text: Option<&Value>, out: &mut Vec<LlmEvent>) {
    if let Some(text) = text.and_then(|t| t.as_str()).filter(|t| !t.is_empty()) {
        out.push(LlmEvent::TextDelta(text.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_body_has_top_level_system() {
        let prompt = super::super::sample_prompt();
        assert_eq!(
            build_anthropic_request("claude-haiku-4-5", &prompt, 1024),
            json!({
                "model": "claude-haiku-4-5",
                "max_tokens": 1024,
                "system": "rules",
                "messages": [{"role": "user", "content": "q"}],
                "stream": true
            })
        );
    }

    #[test]
    fn thinking_and_tool_deltas_are_not_text() {
        let mut s = AnthropicStream::new();
        let got = s.push(b"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"hmm\"}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\"}}\n\nevent: future_event\ndata: {\"type\":\"future_event\"}\n\n");
        assert!(got.is_empty(), "{got:?}");
    }
}
