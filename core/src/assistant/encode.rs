//! One answer, written in either stream protocol. The worker calls the same methods in the same order
//! for v1 (AI SDK v4 data stream) and v2 (AI SDK v5+ UI message stream); only the bytes differ.

use serde_json::json;

use crate::stream::{
    DataStreamPart, FinishMessage, FinishReason, FinishStep, Source, SourceType, StartStep, UiChunk, Usage,
    SSE_DONE,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// `x-vercel-ai-data-stream: v1`, lines `CODE:JSON`.
    DataStreamV1,
    /// `x-vercel-ai-ui-message-stream: v1`, server-sent events ending `[DONE]`.
    UiMessageStreamV2,
}

impl Protocol {
    /// Response headers beyond the rate-limit and thread headers. `Content-Encoding: identity` keeps
    /// a gzip-asking client's stream incremental (workerd would otherwise buffer text/plain to compress).
    pub fn headers(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Protocol::DataStreamV1 => &[
                ("content-type", "text/plain; charset=utf-8"),
                ("x-vercel-ai-data-stream", "v1"),
                ("content-encoding", "identity"),
                ("cache-control", "no-cache"),
            ],
            Protocol::UiMessageStreamV2 => &[
                ("content-type", "text/event-stream"),
                ("x-vercel-ai-ui-message-stream", "v1"),
                ("content-encoding", "identity"),
                ("cache-control", "no-cache"),
            ],
        }
    }
}

/// Writes one assistant message. Keeps the little state v2 needs (whether a text part is open).
#[derive(Debug)]
pub struct AnswerEncoder {
    protocol: Protocol,
    message_id: String,
    text_open: bool,
    sources: usize,
}

impl AnswerEncoder {
    pub fn new(protocol: Protocol, message_id: impl Into<String>) -> Self {
        AnswerEncoder { protocol, message_id: message_id.into(), text_open: false, sources: 0 }
    }

    fn text_id(&self) -> String {
        format!("{}-text", self.message_id)
    }

    pub fn start(&mut self) -> String {
        match self.protocol {
            Protocol::DataStreamV1 => {
                DataStreamPart::StartStep(StartStep { message_id: self.message_id.clone() }).encode()
            }
            Protocol::UiMessageStreamV2 => {
                let mut out =
                    UiChunk::Start { message_id: Some(self.message_id.clone()), message_metadata: None }.encode_sse();
                out.push_str(&UiChunk::StartStep.encode_sse());
                out
            }
        }
    }

    pub fn source(&mut self, url: &str, title: &str) -> String {
        self.sources += 1;
        let id = format!("source-{}", self.sources);
        let title = (!title.is_empty()).then(|| title.to_string());
        match self.protocol {
            Protocol::DataStreamV1 => DataStreamPart::Source(Source {
                source_type: SourceType::Url,
                id,
                url: url.to_string(),
                title,
                provider_metadata: None,
            })
            .encode(),
            Protocol::UiMessageStreamV2 => UiChunk::SourceUrl { source_id: id, url: url.to_string(), title }.encode_sse(),
        }
    }

    pub fn text(&mut self, delta: &str) -> String {
        if delta.is_empty() {
            return String::new();
        }
        match self.protocol {
            Protocol::DataStreamV1 => DataStreamPart::Text(delta.to_string()).encode(),
            Protocol::UiMessageStreamV2 => {
                let mut out = String::new();
                if !self.text_open {
                    self.text_open = true;
                    out.push_str(&UiChunk::TextStart { id: self.text_id() }.encode_sse());
                }
                out.push_str(&UiChunk::TextDelta { id: self.text_id(), delta: delta.to_string() }.encode_sse());
                out
            }
        }
    }

    fn close_text(&mut self) -> String {
        if self.protocol == Protocol::UiMessageStreamV2 && self.text_open {
            self.text_open = false;
            return UiChunk::TextEnd { id: self.text_id() }.encode_sse();
        }
        String::new()
    }

    /// The end of a successful answer: finish step, the thread id where each protocol's clients look
    /// for it, and the final part.
    pub fn finish(&mut self, reason: FinishReason, usage: Usage, thread_id: &str) -> String {
        let mut out = self.close_text();
        match self.protocol {
            Protocol::DataStreamV1 => {
                out.push_str(
                    &DataStreamPart::FinishStep(FinishStep { finish_reason: reason, usage: Some(usage), is_continued: false })
                        .encode(),
                );
                out.push_str(&DataStreamPart::Data(vec![json!({"type": "finish", "threadId": thread_id})]).encode());
                out.push_str(
                    &DataStreamPart::FinishMessage(FinishMessage {
                        finish_reason: reason,
                        usage: Some(usage),
                        thread_id: Some(thread_id.to_string()),
                        extra: Default::default(),
                    })
                    .encode(),
                );
            }
            Protocol::UiMessageStreamV2 => {
                out.push_str(&UiChunk::FinishStep.encode_sse());
                out.push_str(
                    &UiChunk::Finish {
                        finish_reason: Some(reason),
                        message_metadata: Some(json!({"threadId": thread_id})),
                        thread_id: Some(thread_id.to_string()),
                    }
                    .encode_sse(),
                );
                out.push_str(SSE_DONE);
            }
        }
        out
    }

    /// A failure after the stream started: the error part ends the stream.
    pub fn error(&mut self, message: &str) -> String {
        let mut out = self.close_text();
        match self.protocol {
            Protocol::DataStreamV1 => out.push_str(&DataStreamPart::Error(message.to_string()).encode()),
            Protocol::UiMessageStreamV2 => {
                out.push_str(&UiChunk::Error { error_text: message.to_string() }.encode_sse());
                out.push_str(SSE_DONE);
            }
        }
        out
    }
}

/// Token counts for backends that have none: about four characters a token, as OpenAI's rule of thumb.
pub fn estimate_tokens(text: &str) -> u64 {
    (text.chars().count() as u64).div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::{DataStreamDecoder, DecodedEvent, UiEvent, UiStreamDecoder};

    fn usage() -> Usage {
        Usage { prompt_tokens: 10, completion_tokens: 3 }
    }

    #[test]
    fn v1_answer_has_start_source_text_finish_step_data_and_finish_in_order() {
        let mut enc = AnswerEncoder::new(Protocol::DataStreamV1, "msg_1");
        let body = [enc.start(), enc.source("https://d/x", "X"), enc.text("Hello "), enc.text("world"), enc.finish(FinishReason::Stop, usage(), "thr_1")].concat();
        let codes: Vec<char> = body.lines().map(|l| l.chars().next().unwrap()).collect();
        assert_eq!(codes, vec!['f', 'h', '0', '0', 'e', '2', 'd']);
        assert!(body.contains(r#"2:[{"threadId":"thr_1","type":"finish"}]"#) || body.contains(r#"2:[{"type":"finish","threadId":"thr_1"}]"#));
        assert!(body.ends_with("\n"));
        assert!(body.lines().last().unwrap().contains(r#""threadId":"thr_1""#));
        let events = DataStreamDecoder::new().push_str(&body);
        assert!(events.iter().all(|e| matches!(e, DecodedEvent::Part(_))));
    }

    #[test]
    fn v2_answer_opens_and_closes_the_text_part_and_ends_with_done() {
        let mut enc = AnswerEncoder::new(Protocol::UiMessageStreamV2, "msg_2");
        let body = [enc.start(), enc.source("https://d/x", "X"), enc.text("Hi"), enc.text("!"), enc.finish(FinishReason::Stop, usage(), "thr_2")].concat();
        let mut decoder = UiStreamDecoder::new();
        let mut events = decoder.push_str(&body);
        events.extend(decoder.finish());
        let types: Vec<String> = events
            .iter()
            .map(|e| match e {
                UiEvent::Chunk(c) => serde_json::to_value(c).unwrap()["type"].as_str().unwrap().to_string(),
                UiEvent::Done => "[DONE]".into(),
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        assert_eq!(types, ["start", "start-step", "source-url", "text-start", "text-delta", "text-delta", "text-end", "finish-step", "finish", "[DONE]"]);
        assert!(body.contains(r#""messageMetadata":{"threadId":"thr_2"}"#));
    }

    #[test]
    fn errors_end_the_stream_in_each_protocol() {
        let mut v1 = AnswerEncoder::new(Protocol::DataStreamV1, "m");
        assert_eq!(v1.error("upstream failed"), "3:\"upstream failed\"\n");
        let mut v2 = AnswerEncoder::new(Protocol::UiMessageStreamV2, "m");
        let _ = v2.text("partial");
        let out = v2.error("upstream failed");
        assert!(out.contains("text-end"));
        assert!(out.contains(r#""errorText":"upstream failed""#));
        assert!(out.ends_with(SSE_DONE));
    }

    #[test]
    fn empty_deltas_write_nothing() {
        let mut enc = AnswerEncoder::new(Protocol::UiMessageStreamV2, "m");
        assert_eq!(enc.text(""), "");
    }
}
