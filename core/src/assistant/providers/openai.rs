//! OpenAI-compatible Chat Completions: streamed request body and `chat.completion.chunk` parser.
//!
//! Wire format: each SSE `data:` line holds one chunk, `choices[0].delta.content` carries text,
//! `choices[0].finish_reason` is set on the last content chunk (a refusal streams as
//! `choices[0].delta.refusal` with `content` null, then finishes `stop`); with `stream_options.include_usage`
//! one more chunk follows with `choices: []` and `usage`, then `data: [DONE]`. Errors after the
//! stream started arrive as a data line holding an `error` object.

use super::{as_u32, chat_messages, error_message, map_openai_finish_reason, LlmEvent};
use crate::assistant::prompt::ChatPrompt;
use crate::stream::lines::LineError;
use crate::stream::sse::{SseDecoder, SseEvent};
use serde_json::{json, Value};

/// `max_tokens` rather than `max_completion_tokens`: it is what OpenAI-compatible servers (vLLM,
/// Groq, Together, Workers AI's endpoint) accept; OpenAI's reasoning models need the latter.
pub fn build_openai_request(model: &str, prompt: &ChatPrompt, max_tokens: u32) -> Value {
    json!({
        "model": model,
        "messages": chat_messages(prompt),
        "max_tokens": max_tokens,
        "stream": true,
        "stream_options": { "include_usage": true },
    })
}

#[derive(Debug, Default)]
pub struct OpenAiStream {
    sse: SseDecoder,
    chunks: ChunkState,
}

impl OpenAiStream {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, bytes: &[u8]) -> Vec<LlmEvent> {
        let events = self.sse.push(bytes);
        let failure = self.sse.failure();
        self.chunks.handle_all(events, failure, "other")
    }

    /// End of body without `[DONE]`: a finish reason already seen still counts as a normal end.
    pub fn finish(&mut self) -> Vec<LlmEvent> {
        let events = self.sse.finish();
        let mut out = self.chunks.handle_all(events, None, "other");
        out.extend(self.chunks.end_of_body());
        out
    }
}

/// Chat-completion chunk handling shared with Workers AI, whose newer models stream this shape.
#[derive(Debug, Default)]
pub(super) struct ChunkState {
    pub finish_reason: Option<String>,
    pub prompt_tokens: Option<u32>,
    pub completion_tokens: Option<u32>,
    pub done: bool,
    /// Refusal text was streamed: OpenAI still says `stop`, the reader's client should see a refusal.
    pub refused: bool,
}

impl ChunkState {
    /// `done_reason`: finish reason reported at `[DONE]` when no chunk named one.
    pub fn handle_all(
        &mut self,
        events: Vec<SseEvent>,
        failure: Option<LineError>,
        done_reason: &str,
    ) -> Vec<LlmEvent> {
        let mut out = Vec::new();
        for event in events {
            if self.done {
                break;
            }
            self.handle(&event.data, done_reason, &mut out);
        }
        if let (Some(failure), false) = (failure, self.done) {
            self.done = true;
            out.push(LlmEvent::Error(format!("unreadable stream: {failure}")));
        }
        out
    }

    fn handle(&mut self, data: &str, done_reason: &str, out: &mut Vec<LlmEvent>) {
        let data = data.trim();
        if data == "[DONE]" {
            out.push(self.finish_event(done_reason));
            return;
        }
        if data.is_empty() {
            return;
        }
        match serde_json::from_slice::<Value>(data.as_bytes()) {
            Ok(chunk) => self.handle_chunk(&chunk, out),
            Err(_) => {
                self.done = true;
                out.push(LlmEvent::Error(format!(
                    "unparseable stream data: {}",
                    crate::assistant::prompt::truncate_bytes(data, 200)
                )));
            }
        }
    }

    /// One parsed JSON chunk (also used by Workers AI for its own shape's fallthrough).
    pub fn handle_chunk(&mut self, chunk: &Value, out: &mut Vec<LlmEvent>) {
        if let Some(error) = chunk.get("error").filter(|e| !e.is_null()) {
            self.done = true;
            out.push(LlmEvent::Error(error_message(error)));
            return;
        }
        // n = 1 is the only request shape built here, so only the first choice is read.
        if let Some(choice) = chunk.get("choices").and_then(|c| c.get(0)) {
            // The refusal is the model's answer to the reader, so it takes the content's path.
            for key in ["content", "refusal"] {
                let text = choice
                    .get("delta")
                    .and_then(|d| d.get(key))
                    .and_then(|t| t.as_str());
                if let Some(text) = text.filter(|t| !t.is_empty()) {
                    self.refused |= key == "refusal";
                    out.push(LlmEvent::TextDelta(text.to_string()));
                }
            }
            if let Some(reason) = choice.get("finish_reason").and_then(|r| r.as_str()) {
                self.finish_reason = Some(reason.to_string());
            }
        }
        if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
            self.prompt_tokens = as_u32(usage.get("prompt_tokens")).or(self.prompt_tokens);
            self.completion_tokens =
                as_u32(usage.get("completion_tokens")).or(self.completion_tokens);
        }
    }

    pub fn finish_event(&mut self, done_reason: &str) -> LlmEvent {
        self.done = true;
        // `content-filter`, as for Anthropic's `refusal` stop reason: a finished answer, marked
        // as the model declining so clients and the record can tell it from a real answer.
        let reason = match self.finish_reason.as_deref() {
            Some("stop") if self.refused => "content-filter",
            Some(reason) => map_openai_finish_reason(reason),
            None => done_reason,
        };
        LlmEvent::Finish {
            reason: reason.to_string(),
            prompt_tokens: self.prompt_tokens,
            completion_tokens: self.completion_tokens,
        }
    }

    pub fn end_of_body(&mut self) -> Vec<LlmEvent> {
        if self.done {
            return Vec::new();
        }
        if self.finish_reason.is_some() {
            return vec![self.finish_event("other")];
        }
        self.done = true;
        vec![LlmEvent::Error(
            "stream ended before the response was complete".into(),
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_body_streams_with_usage() {
        let prompt = super::super::sample_prompt();
        let body = build_openai_request("gpt-4o-mini", &prompt, 800);
        assert_eq!(
            body,
            json!({
                "model": "gpt-4o-mini",
                "messages": [{"role": "system", "content": "rules"}, {"role": "user", "content": "q"}],
                "max_tokens": 800,
                "stream": true,
                "stream_options": {"include_usage": true}
            })
        );
    }

    #[test]
    fn error_object_mid_stream() {
        let mut s = OpenAiStream::new();
        let got = s.push(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}\n\ndata: {\"error\":{\"message\":\"The server had an error\",\"type\":\"server_error\",\"param\":null,\"code\":null}}\n\ndata: [DONE]\n\n");
        assert_eq!(
            got,
            vec![
                LlmEvent::TextDelta("Hi".into()),
                LlmEvent::Error("server_error: The server had an error".into())
            ]
        );
        assert!(s.finish().is_empty());
    }

    #[test]
    fn truncated_stream_is_an_error_unless_finished() {
        let mut s = OpenAiStream::new();
        s.push(
            b"data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}\n\n",
        );
        assert_eq!(
            s.finish(),
            vec![LlmEvent::Error(
                "stream ended before the response was complete".into()
            )]
        );

        let mut s = OpenAiStream::new();
        s.push(b"data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"length\"}]}\n\n");
        assert_eq!(
            s.finish(),
            vec![LlmEvent::Finish {
                reason: "length".into(),
                prompt_tokens: None,
                completion_tokens: None
            }]
        );
    }
}
