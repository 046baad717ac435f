//! The stream layer's behaviour through its public API: both formats encoded, decoded, split anywhere.

use super::*;
use serde_json::{json, Map, Value};

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
    let mut events: Vec<DecodedEvent> = chunks.iter().flat_map(|c| decoder.push_bytes(c)).collect();
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
    let stream = "data: {\"type\":\"text-delta\",\ndata:\"id\":\"t\",\ndata:  \"delta\":\"a\"}\n\n";
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
    let events =
        ui_decode_all(&[b"data: {\"type\":\ndata: \xff\n\ndata: {\"type\":\"start-step\"}\n\n"]);
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
        UiChunk::from_json(r#"{"type":"finish","threadId":"t9","providerMetadata":{}}"#).unwrap();
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
