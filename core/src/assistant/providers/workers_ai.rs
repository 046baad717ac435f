//! Workers AI text generation through the `AI` binding (or its REST twin).
//!
//! Wire format: with `stream: true` the result is an SSE byte stream of `data: {"response":"..."}`
//! lines ending with `data: [DONE]` (Cloudflare docs, "Streaming"). Observed, not documented: the
//! last JSON line may carry `usage` (`prompt_tokens`, `completion_tokens`), and some newer models
//! stream OpenAI `chat.completion.chunk`s instead; both are accepted. There is no finish reason,
//! so `[DONE]` means `stop`.

use super::openai::ChunkState;
use super::{chat_messages, LlmEvent};
use crate::assistant::prompt::{truncate_bytes, ChatPrompt};
use crate::stream::sse::SseDecoder;
use serde_json::{json, Value};

/// The `inputs` argument of `env.AI.run(model, inputs)`; the model name is passed separately.
pub fn build_workers_ai_input(prompt: &ChatPrompt, max_tokens: u32) -> Value {
    json!({
        "messages": chat_messages(prompt),
        "max_tokens": max_tokens,
        "stream": true,
    })
}

#[derive(Debug, Default)]
pub struct WorkersAiStream {
    sse: SseDecoder,
    state: ChunkState,
}

impl WorkersAiStream {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, bytes: &[u8]) -> Vec<LlmEvent> {
        let events = self.sse.push(bytes);
        let mut out = Vec::new();
        for event in events {
            self.handle(&event.data, &mut out);
        }
        if let (Some(failure), false) = (self.sse.failure(), self.state.done) {
            self.state.done = true;
            out.push(LlmEvent::Error(format!("unreadable stream: {failure}")));
        }
        out
    }

    pub fn finish(&mut self) -> Vec<LlmEvent> {
        let mut out = Vec::new();
        for event in self.sse.finish() {
            self.handle(&event.data, &mut out);
        }
        out.extend(self.state.end_of_body());
        out
    }

    fn handle(&mut self, data: &str, out: &mut Vec<LlmEvent>) {
        if self.state.done {
            return;
        }
        let data = data.trim();
        if data == "[DONE]" {
            out.push(self.state.finish_event("stop"));
            return;
        }
        if data.is_empty() {
            return;
        }
        let Ok(chunk) = serde_json::from_slice::<Value>(data.as_bytes()) else {
            self.state.done = true;
            out.push(LlmEvent::Error(format!(
                "unparseable stream data: {}",
                truncate_bytes(data, 200)
            )));
            return;
        };
        if let Some(text) = chunk.get("response").and_then(|r| r.as_str()) {
            if !text.is_empty() {
                out.push(LlmEvent::TextDelta(text.to_string()));
            }
        }
        if let Some(errors) = chunk
            .get("errors")
            .and_then(|e| e.as_array())
            .filter(|e| !e.is_empty())
        {
            self.state.done = true;
            let messages: Vec<String> = errors.iter().map(super::error_message).collect();
            out.push(LlmEvent::Error(messages.join("; ")));
            return;
        }
        // `error`, `choices` and `usage` read the same as in Chat Completions.
        self.state.handle_chunk(&chunk, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_has_messages_and_stream() {
        let prompt = super::super::sample_prompt();
        assert_eq!(
            build_workers_ai_input(&prompt, 512),
            json!({
                "messages": [{"role": "system", "content": "rules"}, {"role": "user", "content": "q"}],
                "max_tokens": 512,
                "stream": true
            })
        );
    }

    #[test]
    fn openai_shaped_chunks_are_accepted() {
        let mut s = WorkersAiStream::new();
        let got = s.push(b"data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n");
        assert_eq!(
            got,
            vec![
                LlmEvent::TextDelta("Hi".into()),
                LlmEvent::Finish {
                    reason: "length".into(),
                    prompt_tokens: None,
                    completion_tokens: None
                }
            ]
        );
    }

    #[test]
    fn errors_array_is_an_error() {
        let mut s = WorkersAiStream::new();
        let got = s.push(b"data: {\"errors\":[{\"message\":\"AiError: capacity temporarily exceeded\",\"code\":3040}]}\n\n");
        assert_eq!(
            got,
            vec![LlmEvent::Error(
                "AiError: capacity temporarily exceeded".into()
            )]
        );
    }
}
