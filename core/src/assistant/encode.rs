//! One answer, written in either stream protocol. The worker calls the same methods in the same order
//! for v1 (AI SDK v4 data stream) and v2 (AI SDK v5+ UI message stream); only the bytes differ.

use serde_json::json;

use crate::stream::{
    DataStreamPart, FinishMessage, FinishReason, FinishStep, StartStep, ToolCall, ToolResult,
    UiChunk, Usage, SSE_DONE,
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
    /// a gzip-asking client's stream incremental (workerd would otherwise buffer text/plain to compress);
    /// `no-transform` and `X-Accel-Buffering: no` ask proxies (nginx, CDNs) not to buffer or rewrite it.
    pub fn headers(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Protocol::DataStreamV1 => &[
                ("content-type", "text/plain; charset=utf-8"),
                ("x-vercel-ai-data-stream", "v1"),
                ("content-encoding", "identity"),
                ("cache-control", "no-cache, no-transform"),
                ("x-accel-buffering", "no"),
            ],
            Protocol::UiMessageStreamV2 => &[
                ("content-type", "text/event-stream"),
                ("x-vercel-ai-ui-message-stream", "v1"),
                ("content-encoding", "identity"),
                ("cache-control", "no-cache, no-transform"),
                ("x-accel-buffering", "no"),
            ],
        }
    }
}

/// One source as the encoder writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceRef<'a> {
    pub url: &'a str,
    pub title: &'a str,
}

/// The name of the tool call that carries sources on v1, as the hosted service cites.
pub const SEARCH_TOOL_NAME: &str = "search";

/// Writes one assistant message. Keeps the little state v2 needs (whether a text part is open).
///
/// Compatibility rules (issue #13): every part must be accepted by the oldest supported client.
/// v1 uses only the part codes `ai@4.1.15` parses (`0 2 3 8 9 a b c d e f g`): sources travel as a
/// `search` tool call (`9:`) and its result (`a:`), never as `h:`. v2 puts no field on a chunk that
/// `ai@5.0.0`'s strict chunk schema lacks: the thread id travels in `messageMetadata` on `start` and
/// `finish`, and `finish` carries no `finishReason` (accepted only from `ai@5.0.92`).
#[derive(Debug)]
pub struct AnswerEncoder {
    protocol: Protocol,
    message_id: String,
    thread_id: String,
    text_open: bool,
    sources_sent: bool,
    uncertain: bool,
    unanswered: bool,
    suggestions: Vec<String>,
    support: Option<String>,
}

impl AnswerEncoder {
    /// `message_id` is the id the stored assistant message gets: the client sees the same one.
    pub fn new(
        protocol: Protocol,
        message_id: impl Into<String>,
        thread_id: impl Into<String>,
    ) -> Self {
        AnswerEncoder {
            protocol,
            message_id: message_id.into(),
            thread_id: thread_id.into(),
            text_open: false,
            sources_sent: false,
            uncertain: false,
            unanswered: false,
            suggestions: Vec::new(),
            support: None,
        }
    }

    pub fn message_id(&self) -> &str {
        &self.message_id
    }

    fn text_id(&self) -> String {
        format!("{}-text", self.message_id)
    }

    /// The answer quotes the closest passage without one that answers squarely
    /// (`extractive::Answer::uncertain`): the finish's metadata says `"uncertain": true`, so a client
    /// can show it as such.
    pub fn mark_uncertain(&mut self) {
        self.uncertain = true;
    }

    pub fn is_uncertain(&self) -> bool {
        self.uncertain
    }

    /// The answer says the docs do not cover the question (`extractive::Answer::covered` false, or a
    /// model's refusal: `session::CompletedAnswer::unanswered`): the
    /// finish's metadata says `"unanswered": true`, so a client can offer another way to get help.
    pub fn mark_unanswered(&mut self) {
        self.unanswered = true;
    }

    pub fn is_unanswered(&self) -> bool {
        self.unanswered
    }

    /// Follow-up questions (`suggest::follow_ups`), sent with the finish: on v1 a `2:` data part
    /// `{"type":"suggestions","questions":[…]}` before the one with the thread id (every `ai@4`
    /// collects both into `data`); on v2 a `data-suggestions` chunk `{"data":{"questions":[…]}}`,
    /// which every v5+ schema accepts and `useChat` keeps among the message's parts.
    pub fn suggest(&mut self, questions: Vec<String>) {
        self.suggestions = questions;
    }

    /// The site's support link (docs.json's, `crate::docs::own_keys`): the finish's metadata says
    /// `"support": "<link>"`, which a widget shows when its page names none.
    pub fn offer_support(&mut self, link: Option<String>) {
        self.support = link;
    }

    fn metadata(&self) -> serde_json::Value {
        let mut meta = json!({ "threadId": self.thread_id });
        if let Some(link) = &self.support {
            meta["support"] = link.as_str().into();
        }
        if self.uncertain {
            meta["uncertain"] = true.into();
        }
        if self.unanswered {
            meta["unanswered"] = true.into();
        }
        meta
    }

    /// The first bytes of the answer, sent before retrieval and generation start.
    pub fn start(&mut self) -> String {
        match self.protocol {
            Protocol::DataStreamV1 => DataStreamPart::StartStep(StartStep {
                message_id: self.message_id.clone(),
            })
            .encode(),
            Protocol::UiMessageStreamV2 => {
                let mut out = UiChunk::Start {
                    message_id: Some(self.message_id.clone()),
                    message_metadata: Some(self.metadata()),
                }
                .encode_sse();
                out.push_str(&UiChunk::StartStep.encode_sse());
                out
            }
        }
    }

    /// The pages the answer draws on. v1: one `search` tool call and its result (what every `ai@4`
    /// client parses into `toolInvocations`); v2: one `source-url` chunk each.
    pub fn sources(&mut self, query: &str, sources: &[SourceRef<'_>]) -> String {
        if self.sources_sent {
            return String::new();
        }
        self.sources_sent = true;
        match self.protocol {
            Protocol::DataStreamV1 => {
                let tool_call_id = format!("{}-search", self.message_id);
                let result: Vec<serde_json::Value> = sources
                    .iter()
                    .enumerate()
                    .map(|(i, s)| json!({ "id": format!("source-{}", i + 1), "url": s.url, "title": s.title }))
                    .collect();
                let mut out = DataStreamPart::ToolCall(ToolCall {
                    tool_call_id: tool_call_id.clone(),
                    tool_name: SEARCH_TOOL_NAME.to_string(),
                    args: json!({ "query": query }),
                })
                .encode();
                out.push_str(
                    &DataStreamPart::ToolResult(ToolResult {
                        tool_call_id,
                        result: json!(result),
                    })
                    .encode(),
                );
                out
            }
            Protocol::UiMessageStreamV2 => sources
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let title = (!s.title.is_empty()).then(|| s.title.to_string());
                    UiChunk::SourceUrl {
                        source_id: format!("source-{}", i + 1),
                        url: s.url.to_string(),
                        title,
                    }
                    .encode_sse()
                })
                .collect(),
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
                out.push_str(
                    &UiChunk::TextDelta {
                        id: self.text_id(),
                        delta: delta.to_string(),
                    }
                    .encode_sse(),
                );
                out
            }
        }
    }

    /// Sent while a backend has produced nothing for a while, so that proxies keep the connection.
    /// v2: an SSE comment, which the event-source parser drops. v1: an empty line, which every `ai@4`
    /// parser filters out before parsing (`split("\n").filter(line => line !== "")`).
    pub fn keep_alive(&self) -> &'static str {
        match self.protocol {
            Protocol::DataStreamV1 => "\n",
            Protocol::UiMessageStreamV2 => ": keep-alive\n\n",
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
    pub fn finish(&mut self, reason: FinishReason, usage: Usage) -> String {
        let mut out = self.close_text();
        match self.protocol {
            Protocol::DataStreamV1 => {
                out.push_str(
                    &DataStreamPart::FinishStep(FinishStep {
                        finish_reason: reason,
                        usage: Some(usage),
                        is_continued: false,
                    })
                    .encode(),
                );
                if !self.suggestions.is_empty() {
                    let part = json!({ "type": "suggestions", "questions": self.suggestions });
                    out.push_str(&DataStreamPart::Data(vec![part]).encode());
                }
                out.push_str(&self.thread_data_part());
                out.push_str(&self.finish_message(reason, usage));
            }
            Protocol::UiMessageStreamV2 => {
                out.push_str(&UiChunk::FinishStep.encode_sse());
                if !self.suggestions.is_empty() {
                    let chunk = json!({ "type": "data-suggestions", "data": { "questions": self.suggestions } });
                    out.push_str(&UiChunk::Data(chunk).encode_sse());
                }
                out.push_str(&self.ui_finish());
            }
        }
        out
    }

    fn thread_data_part(&self) -> String {
        let mut part = self.metadata();
        part["type"] = "finish".into();
        DataStreamPart::Data(vec![part]).encode()
    }

    fn finish_message(&self, reason: FinishReason, usage: Usage) -> String {
        DataStreamPart::FinishMessage(FinishMessage {
            finish_reason: reason,
            usage: Some(usage),
            thread_id: Some(self.thread_id.clone()),
            extra: Default::default(),
        })
        .encode()
    }

    fn ui_finish(&self) -> String {
        let mut out = UiChunk::Finish {
            finish_reason: None,
            message_metadata: Some(self.metadata()),
            thread_id: None,
        }
        .encode_sse();
        out.push_str(SSE_DONE);
        out
    }

    /// A failure after the stream started: the error part, then a proper end (`d:` on v1; `finish`
    /// and `[DONE]` on v2) so that no client waits for more. `message` is shown to readers: it must
    /// carry no internal detail.
    pub fn error(&mut self, message: &str) -> String {
        let mut out = self.close_text();
        match self.protocol {
            Protocol::DataStreamV1 => {
                out.push_str(&DataStreamPart::Error(message.to_string()).encode());
                out.push_str(&self.finish_message(
                    FinishReason::Error,
                    Usage {
                        prompt_tokens: 0,
                        completion_tokens: 0,
                    },
                ));
            }
            Protocol::UiMessageStreamV2 => {
                out.push_str(
                    &UiChunk::Error {
                        error_text: message.to_string(),
                    }
                    .encode_sse(),
                );
                out.push_str(&self.ui_finish());
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
        Usage {
            prompt_tokens: 10,
            completion_tokens: 3,
        }
    }

    const X: SourceRef<'static> = SourceRef {
        url: "https://d/x",
        title: "X",
    };

    #[test]
    fn v1_answer_uses_only_codes_ai_4_1_15_parses() {
        let mut enc = AnswerEncoder::new(Protocol::DataStreamV1, "msg_1", "thr_1");
        let body = [
            enc.start(),
            enc.sources("q", &[X]),
            enc.text("Hello "),
            enc.text("world"),
            enc.finish(FinishReason::Stop, usage()),
        ]
        .concat();
        let codes: Vec<char> = body.lines().map(|l| l.chars().next().unwrap()).collect();
        assert_eq!(codes, vec!['f', '9', 'a', '0', '0', 'e', '2', 'd']);
        assert!(codes.iter().all(|c| "0238abcdefg9".contains(*c)));
        assert!(body.contains(r#"f:{"messageId":"msg_1"}"#));
        assert!(body.contains(r#""toolName":"search""#) && body.contains(r#""url":"https://d/x""#));
        assert!(body
            .lines()
            .last()
            .unwrap()
            .contains(r#""threadId":"thr_1""#));
        let events = DataStreamDecoder::new().push_str(&body);
        assert!(events.iter().all(|e| matches!(e, DecodedEvent::Part(_))));
    }

    #[test]
    fn v2_answer_carries_the_thread_in_metadata_only() {
        let mut enc = AnswerEncoder::new(Protocol::UiMessageStreamV2, "msg_2", "thr_2");
        let body = [
            enc.start(),
            enc.sources("q", &[X]),
            enc.text("Hi"),
            enc.text("!"),
            enc.finish(FinishReason::Stop, usage()),
        ]
        .concat();
        let mut decoder = UiStreamDecoder::new();
        let mut events = decoder.push_str(&body);
        events.extend(decoder.finish());
        let types: Vec<String> = events
            .iter()
            .map(|e| match e {
                UiEvent::Chunk(c) => serde_json::to_value(c).unwrap()["type"]
                    .as_str()
                    .unwrap()
                    .to_string(),
                UiEvent::Done => "[DONE]".into(),
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        assert_eq!(
            types,
            [
                "start",
                "start-step",
                "source-url",
                "text-start",
                "text-delta",
                "text-delta",
                "text-end",
                "finish-step",
                "finish",
                "[DONE]"
            ]
        );
        assert!(body.contains(
            r#"{"type":"start","messageId":"msg_2","messageMetadata":{"threadId":"thr_2"}}"#
        ));
        assert!(body.contains(r#"{"type":"finish","messageMetadata":{"threadId":"thr_2"}}"#));
        assert!(!body.contains("finishReason"));
    }

    #[test]
    fn an_uncertain_answer_says_so_in_the_finish_metadata_of_each_protocol() {
        let mut v2 = AnswerEncoder::new(Protocol::UiMessageStreamV2, "m", "t");
        let start = v2.start();
        v2.mark_uncertain();
        let body = [v2.text("closest"), v2.finish(FinishReason::Stop, usage())].concat();
        assert!(!start.contains("uncertain"));
        assert!(
            body.contains(
                r#"{"type":"finish","messageMetadata":{"threadId":"t","uncertain":true}}"#
            ),
            "{body}"
        );
        let mut v1 = AnswerEncoder::new(Protocol::DataStreamV1, "m", "t");
        v1.mark_uncertain();
        let body = v1.finish(FinishReason::Stop, usage());
        assert!(
            body.contains(r#""uncertain":true"#) && body.contains(r#""threadId":"t""#),
            "{body}"
        );
        let sure = AnswerEncoder::new(Protocol::DataStreamV1, "m", "t")
            .finish(FinishReason::Stop, usage());
        assert!(!sure.contains("uncertain") && !sure.contains("support"));
        let mut v2 = AnswerEncoder::new(Protocol::UiMessageStreamV2, "m", "t");
        v2.offer_support(Some("mailto:help@acme.dev".into()));
        let body = v2.finish(FinishReason::Stop, usage());
        let finish = body
            .lines()
            .find(|l| l.contains(r#""type":"finish""#))
            .unwrap_or_default();
        assert!(
            finish.contains(r#""support":"mailto:help@acme.dev""#)
                && finish.contains(r#""threadId":"t""#),
            "{body}"
        );
    }

    #[test]
    fn suggestions_and_the_unanswered_mark_travel_with_the_finish_of_each_protocol() {
        let questions = vec![
            "Tell me about Limits".to_string(),
            "Tell me about Keys".to_string(),
        ];
        let mut v1 = AnswerEncoder::new(Protocol::DataStreamV1, "m", "t");
        v1.suggest(questions.clone());
        v1.mark_unanswered();
        let body = v1.finish(FinishReason::Stop, usage());
        let lines: Vec<&str> = body.lines().collect();
        assert_eq!(
            lines[1],
            r#"2:[{"type":"suggestions","questions":["Tell me about Limits","Tell me about Keys"]}]"#
        );
        assert!(
            lines[2].starts_with("2:[") && lines[2].contains(r#""unanswered":true"#),
            "{body}"
        );
        assert!(DataStreamDecoder::new()
            .push_str(&body)
            .iter()
            .all(|e| matches!(e, DecodedEvent::Part(_))));
        let mut v2 = AnswerEncoder::new(Protocol::UiMessageStreamV2, "m", "t");
        v2.suggest(questions);
        let body = v2.finish(FinishReason::Stop, usage());
        assert!(body.contains(r#"data: {"type":"data-suggestions","data":{"questions":["Tell me about Limits","Tell me about Keys"]}}"#), "{body}");
        let mut decoder = UiStreamDecoder::new();
        let events = decoder.push_str(&body);
        assert!(events
            .iter()
            .any(|e| matches!(e, UiEvent::Chunk(UiChunk::Data(_)))));
        let none = AnswerEncoder::new(Protocol::UiMessageStreamV2, "m", "t")
            .finish(FinishReason::Stop, usage());
        assert!(!none.contains("suggestions") && !none.contains("unanswered"));
    }

    #[test]
    fn errors_end_the_stream_properly_in_each_protocol() {
        let mut v1 = AnswerEncoder::new(Protocol::DataStreamV1, "m", "t");
        let out = v1.error("upstream failed");
        assert!(out.starts_with("3:\"upstream failed\"\nd:{\"finishReason\":\"error\""));
        let mut v2 = AnswerEncoder::new(Protocol::UiMessageStreamV2, "m", "t");
        let _ = v2.text("partial");
        let out = v2.error("upstream failed");
        assert!(out.contains("text-end"));
        assert!(out.contains(r#""errorText":"upstream failed""#));
        assert!(out.contains(r#""type":"finish""#));
        assert!(out.ends_with(SSE_DONE));
    }

    #[test]
    fn keep_alives_decode_to_nothing() {
        let v1 = AnswerEncoder::new(Protocol::DataStreamV1, "m", "t");
        assert!(DataStreamDecoder::new()
            .push_str(v1.keep_alive())
            .is_empty());
        let v2 = AnswerEncoder::new(Protocol::UiMessageStreamV2, "m", "t");
        let mut decoder = UiStreamDecoder::new();
        assert!(decoder
            .push_str(v2.keep_alive())
            .iter()
            .all(|e| !matches!(e, UiEvent::Chunk(_))));
    }

    #[test]
    fn empty_deltas_write_nothing() {
        let mut enc = AnswerEncoder::new(Protocol::UiMessageStreamV2, "m", "t");
        assert_eq!(enc.text(""), "");
    }
}
