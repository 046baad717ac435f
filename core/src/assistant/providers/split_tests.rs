//! Every parser on realistic streams (shapes as the providers document them), fed whole, split at
//! every byte offset (including inside multi-byte characters and CRLF pairs) and byte by byte:
//! the events must not depend on how the body was chunked.

use super::*;

trait Parser: Default {
    fn push(&mut self, bytes: &[u8]) -> Vec<LlmEvent>;
    fn finish(&mut self) -> Vec<LlmEvent>;
}

macro_rules! parser {
    ($t:ty) => {
        impl Parser for $t {
            fn push(&mut self, bytes: &[u8]) -> Vec<LlmEvent> {
                <$t>::push(self, bytes)
            }
            fn finish(&mut self) -> Vec<LlmEvent> {
                <$t>::finish(self)
            }
        }
    };
}
parser!(OpenAiStream);
parser!(AnthropicStream);
parser!(WorkersAiStream);

fn whole<P: Parser>(body: &str) -> Vec<LlmEvent> {
    let mut p = P::default();
    let mut out = p.push(body.as_bytes());
    out.extend(p.finish());
    out
}

/// Asserts chunking independence and returns the events.
fn events<P: Parser>(body: &str) -> Vec<LlmEvent> {
    let expected = whole::<P>(body);
    let bytes = body.as_bytes();
    for at in 0..=bytes.len() {
        let mut p = P::default();
        let mut got = p.push(&bytes[..at]);
        got.extend(p.push(&bytes[at..]));
        got.extend(p.finish());
        assert_eq!(got, expected, "split at byte {at}");
    }
    let mut p = P::default();
    let mut got: Vec<LlmEvent> = bytes
        .iter()
        .flat_map(|b| p.push(std::slice::from_ref(b)))
        .collect();
    got.extend(p.finish());
    assert_eq!(got, expected, "byte by byte");
    expected
}

fn text(s: &str) -> LlmEvent {
    LlmEvent::TextDelta(s.into())
}

const OPENAI_STREAM: &str = concat!(
    "data: {\"id\":\"chatcmpl-B9a\",\"object\":\"chat.completion.chunk\",\"created\":1727000000,\"model\":\"gpt-4o-mini-2024-07-18\",\"system_fingerprint\":\"fp_0ba0d124f1\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}\n\n",
    "data: {\"id\":\"chatcmpl-B9a\",\"object\":\"chat.completion.chunk\",\"created\":1727000000,\"model\":\"gpt-4o-mini-2024-07-18\",\"system_fingerprint\":\"fp_0ba0d124f1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Start a job with\"},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}\n\n",
    ": keep-alive\n\n",
    "data: {\"id\":\"chatcmpl-B9a\",\"object\":\"chat.completion.chunk\",\"created\":1727000000,\"model\":\"gpt-4o-mini-2024-07-18\",\"system_fingerprint\":\"fp_0ba0d124f1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" `POST /static-export/jobs` [1] — 启动静态导出作业 ✅\"},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}\n\n",
    "data: {\"id\":\"chatcmpl-B9a\",\"object\":\"chat.completion.chunk\",\"created\":1727000000,\"model\":\"gpt-4o-mini-2024-07-18\",\"system_fingerprint\":\"fp_0ba0d124f1\",\"choices\":[{\"index\":0,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"stop\"}],\"usage\":null}\n\n",
    "data: {\"id\":\"chatcmpl-B9a\",\"object\":\"chat.completion.chunk\",\"created\":1727000000,\"model\":\"gpt-4o-mini-2024-07-18\",\"system_fingerprint\":\"fp_0ba0d124f1\",\"choices\":[],\"usage\":{\"prompt_tokens\":812,\"completion_tokens\":23,\"total_tokens\":835,\"prompt_tokens_details\":{\"cached_tokens\":0,\"audio_tokens\":0},\"completion_tokens_details\":{\"reasoning_tokens\":0,\"audio_tokens\":0}}}\n\n",
    "data: [DONE]\n\n",
);

#[test]
fn openai_stream_split_anywhere_gives_the_same_events_and_usage() {
    assert_eq!(
        events::<OpenAiStream>(OPENAI_STREAM),
        vec![
            text("Start a job with"),
            text(" `POST /static-export/jobs` [1] — 启动静态导出作业 ✅"),
            LlmEvent::Finish {
                reason: "stop".into(),
                prompt_tokens: Some(812),
                completion_tokens: Some(23)
            },
        ]
    );
    // Same bytes with CRLF line ends, as some proxies send.
    assert_eq!(
        events::<OpenAiStream>(&OPENAI_STREAM.replace('\n', "\r\n")),
        whole::<OpenAiStream>(OPENAI_STREAM)
    );
}

/// A refusal as OpenAI streams it: `delta.refusal` chunks with `content` null, then `stop`.
const OPENAI_REFUSAL: &str = concat!(
    "data: {\"id\":\"chatcmpl-C1r\",\"object\":\"chat.completion.chunk\",\"created\":1727000000,\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_7568f9a3b5\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"refusal\":\"\"},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}\n\n",
    "data: {\"id\":\"chatcmpl-C1r\",\"object\":\"chat.completion.chunk\",\"created\":1727000000,\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_7568f9a3b5\",\"choices\":[{\"index\":0,\"delta\":{\"content\":null,\"refusal\":\"I'm sorry, \"},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}\n\n",
    "data: {\"id\":\"chatcmpl-C1r\",\"object\":\"chat.completion.chunk\",\"created\":1727000000,\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_7568f9a3b5\",\"choices\":[{\"index\":0,\"delta\":{\"refusal\":\"I can’t help with that.\"},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}\n\n",
    "data: {\"id\":\"chatcmpl-C1r\",\"object\":\"chat.completion.chunk\",\"created\":1727000000,\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_7568f9a3b5\",\"choices\":[{\"index\":0,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"stop\"}],\"usage\":null}\n\n",
    "data: {\"id\":\"chatcmpl-C1r\",\"object\":\"chat.completion.chunk\",\"created\":1727000000,\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_7568f9a3b5\",\"choices\":[],\"usage\":{\"prompt_tokens\":640,\"completion_tokens\":9,\"total_tokens\":649}}\n\n",
    "data: [DONE]\n\n",
);

#[test]
fn openai_refusal_is_the_answer_text_and_finishes_as_content_filter() {
    assert_eq!(
        events::<OpenAiStream>(OPENAI_REFUSAL),
        vec![
            text("I'm sorry, "),
            text("I can’t help with that."),
            LlmEvent::Finish {
                reason: "content-filter".into(),
                prompt_tokens: Some(640),
                completion_tokens: Some(9)
            },
        ]
    );
    // An empty or null refusal beside real content (every ordinary stream's first chunk) is no refusal.
    assert!(
        matches!(whole::<OpenAiStream>(OPENAI_STREAM).last(), Some(LlmEvent::Finish { reason, .. }) if reason == "stop")
    );
}

#[test]
fn openai_error_mid_stream() {
    let body = concat!(
        "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Partial\"},\"finish_reason\":null}]}\n\n",
        "data: {\"error\":{\"message\":\"The server had an error while processing your request. Sorry about that!\",\"type\":\"server_error\",\"param\":null,\"code\":null}}\n\n",
    );
    assert_eq!(
        events::<OpenAiStream>(body),
        vec![text("Partial"), LlmEvent::Error("server_error: The server had an error while processing your request. Sorry about that!".into())]
    );
}

const ANTHROPIC_STREAM: &str = concat!(
    "event: message_start\n",
    "data: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_01XFDUDYJgAACzvnptvVoYEL\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-sonnet-4-5-20250929\",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":472,\"output_tokens\":1}}}\n\n",
    "event: content_block_start\n",
    "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
    "event: ping\n",
    "data: {\"type\": \"ping\"}\n\n",
    "event: content_block_delta\n",
    "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"The link is valid until\"}}\n\n",
    "event: content_block_delta\n",
    "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\" `expiresAt` [1] — 仅链接有时限。\"}}\n\n",
    "event: content_block_stop\n",
    "data: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
    "event: message_delta\n",
    "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":15}}\n\n",
    "event: message_stop\n",
    "data: {\"type\":\"message_stop\"}\n\n",
);

#[test]
fn anthropic_stream_split_anywhere_gives_the_same_events_and_usage() {
    assert_eq!(
        events::<AnthropicStream>(ANTHROPIC_STREAM),
        vec![
            text("The link is valid until"),
            text(" `expiresAt` [1] — 仅链接有时限。"),
            LlmEvent::Finish {
                reason: "stop".into(),
                prompt_tokens: Some(472),
                completion_tokens: Some(15)
            },
        ]
    );
}

#[test]
fn anthropic_error_event_mid_stream() {
    let body = concat!(
        "event: message_start\n",
        "data: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-sonnet-4-5\",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n\n",
        "event: content_block_start\n",
        "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
        "event: content_block_delta\n",
        "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Partial\"}}\n\n",
        "event: error\n",
        "data: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n",
        "event: message_stop\n",
        "data: {\"type\":\"message_stop\"}\n\n",
    );
    assert_eq!(
        events::<AnthropicStream>(body),
        vec![
            text("Partial"),
            LlmEvent::Error("overloaded_error: Overloaded".into())
        ]
    );
}

#[test]
fn anthropic_max_tokens_maps_to_length() {
    let body = ANTHROPIC_STREAM.replace("end_turn", "max_tokens");
    let got = events::<AnthropicStream>(&body);
    assert!(
        matches!(got.last(), Some(LlmEvent::Finish { reason, .. }) if reason == "length"),
        "{got:?}"
    );
}

const WORKERS_AI_STREAM: &str = concat!(
    "data: {\"response\":\"Start\",\"p\":\"abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefgh\"}\n\n",
    "data: {\"response\":\" the job 静态导出\"}\n\n",
    "data: {\"response\":\"\",\"usage\":{\"prompt_tokens\":640,\"completion_tokens\":4,\"total_tokens\":644}}\n\n",
    "data: [DONE]\n\n",
);

#[test]
fn workers_ai_stream_split_anywhere_gives_the_same_events_and_usage() {
    assert_eq!(
        events::<WorkersAiStream>(WORKERS_AI_STREAM),
        vec![
            text("Start"),
            text(" the job 静态导出"),
            LlmEvent::Finish {
                reason: "stop".into(),
                prompt_tokens: Some(640),
                completion_tokens: Some(4)
            },
        ]
    );
}

#[test]
fn garbage_and_truncation_end_in_one_error() {
    for body in [
        "data: {not json\n\n",
        "data: {\"response\":\"a\"}\n\n",
        "\u{0}\u{ffff}\n\n\n",
    ] {
        let got = events::<WorkersAiStream>(body);
        assert!(
            matches!(got.last(), Some(LlmEvent::Error(_))),
            "{body:?}: {got:?}"
        );
        assert_eq!(
            got.iter()
                .filter(|e| !matches!(e, LlmEvent::TextDelta(_)))
                .count(),
            1
        );
    }
    for body in ["", "event: message_start\ndata: {oops}\n\n"] {
        let got = events::<AnthropicStream>(body);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(matches!(got[0], LlmEvent::Error(_)));
    }
}

#[test]
fn headers_per_provider() {
    assert_eq!(
        openai_headers("sk-1")[0],
        ("Authorization", "Bearer sk-1".to_string())
    );
    let a = anthropic_headers("k");
    assert!(a.contains(&("x-api-key", "k".to_string())));
    assert!(a.contains(&("anthropic-version", "2023-06-01".to_string())));
}
