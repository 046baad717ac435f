//! Host tests of the parser as JavaScript sees it: records and heap read back the way
//! `js/parser.js` reads them, for every part type, split at every byte offset.

use serde_json::{json, Value};

use crate::batch::*;
use crate::decoder::StreamDecoder;

/// `ai@4`'s part names, in record-kind order (the same table as `V4_TYPES` in `parser.js`).
const V4_TYPES: [&str; 16] = [
    "text",
    "data",
    "error",
    "message_annotations",
    "tool_call",
    "tool_result",
    "tool_call_streaming_start",
    "tool_call_delta",
    "finish_message",
    "finish_step",
    "start_step",
    "reasoning",
    "source",
    "redacted_reasoning",
    "reasoning_signature",
    "file",
];

/// What `parser.js` builds from one batch.
fn read_batch(records: &[u32], heap: &str) -> Vec<Value> {
    let units: Vec<u16> = heap.encode_utf16().collect();
    let slice = |a: u32, b: u32| String::from_utf16(&units[a as usize..b as usize]).unwrap();
    records
        .chunks(4)
        .map(|r| {
            let (kind, a, b, line) = (r[0], r[1], r[2], r[3]);
            match kind {
                V4_TEXT | V4_ERROR | V4_REASONING => {
                    json!({"type": V4_TYPES[kind as usize], "value": slice(a, b)})
                }
                0..=15 => json!({
                    "type": V4_TYPES[kind as usize],
                    "value": serde_json::from_str::<Value>(&slice(a, b)).unwrap(),
                }),
                PARSE_ERROR => json!({"type": "parse-error", "line": line, "message": slice(a, b)}),
                UI_CHUNK => serde_json::from_str(&slice(a, b)).unwrap(),
                UI_DONE => json!({"type": "done"}),
                other => panic!("unknown record kind {other}"),
            }
        })
        .collect()
}

pub(crate) fn decode(ui: bool, chunks: &[&[u8]]) -> Vec<Value> {
    let mut decoder = StreamDecoder::new(ui);
    let mut events = Vec::new();
    for chunk in chunks {
        let records = decoder.push_bytes(chunk);
        events.extend(read_batch(
            &records,
            &String::from_utf8(decoder.heap()).unwrap(),
        ));
    }
    let records = decoder.finish();
    events.extend(read_batch(
        &records,
        &String::from_utf8(decoder.heap()).unwrap(),
    ));
    events
}

/// One line of every v4 part type, with the value `ai@4`'s `parseDataStreamPart` gives for it.
fn v4_sample() -> Vec<(&'static str, Value)> {
    vec![
        (
            r#"f:{"messageId":"msg_1"}"#,
            json!({"type": "start_step", "value": {"messageId": "msg_1"}}),
        ),
        (
            r#"g:"think é""#,
            json!({"type": "reasoning", "value": "think é"}),
        ),
        (
            r#"i:{"data":"zz"}"#,
            json!({"type": "redacted_reasoning", "value": {"data": "zz"}}),
        ),
        (
            r#"j:{"signature":"sig"}"#,
            json!({"type": "reasoning_signature", "value": {"signature": "sig"}}),
        ),
        (
            r#"0:"Hello é 中文 🦀\n\"q\"""#,
            json!({"type": "text", "value": "Hello é 中文 🦀\n\"q\""}),
        ),
        (
            r#"2:[{"type":"finish","threadId":"thr_1"}]"#,
            json!({"type": "data", "value": [{"type": "finish", "threadId": "thr_1"}]}),
        ),
        (
            r#"8:[{"a":1},"b"]"#,
            json!({"type": "message_annotations", "value": [{"a": 1}, "b"]}),
        ),
        (
            r#"b:{"toolCallId":"c1","toolName":"search"}"#,
            json!({"type": "tool_call_streaming_start", "value": {"toolCallId": "c1", "toolName": "search"}}),
        ),
        (
            r#"c:{"toolCallId":"c1","argsTextDelta":"{\"q\":"}"#,
            json!({"type": "tool_call_delta", "value": {"toolCallId": "c1", "argsTextDelta": "{\"q\":"}}),
        ),
        (
            r#"9:{"toolCallId":"c1","toolName":"search","args":{"q":"x"}}"#,
            json!({"type": "tool_call", "value": {"toolCallId": "c1", "toolName": "search", "args": {"q": "x"}}}),
        ),
        (
            r#"a:{"toolCallId":"c1","result":[1,2]}"#,
            json!({"type": "tool_result", "value": {"toolCallId": "c1", "result": [1, 2]}}),
        ),
        (
            r#"h:{"sourceType":"url","id":"s1","url":"https://d/a","title":"A"}"#,
            json!({"type": "source", "value": {"sourceType": "url", "id": "s1", "url": "https://d/a", "title": "A"}}),
        ),
        (
            r#"k:{"data":"AAAA","mimeType":"image/png"}"#,
            json!({"type": "file", "value": {"data": "AAAA", "mimeType": "image/png"}}),
        ),
        (r#"3:"boom""#, json!({"type": "error", "value": "boom"})),
        (
            r#"e:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":2},"isContinued":false}"#,
            json!({"type": "finish_step", "value": {"finishReason": "stop", "usage": {"promptTokens": 1, "completionTokens": 2}, "isContinued": false}}),
        ),
        (
            r#"d:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":2},"threadId":"thr_1"}"#,
            json!({"type": "finish_message", "value": {"finishReason": "stop", "usage": {"promptTokens": 1, "completionTokens": 2}, "threadId": "thr_1"}}),
        ),
    ]
}

#[test]
fn the_part_names_js_gets_are_ai_sdk_4s() {
    assert_eq!(crate::decoder::v4_part_names(), V4_TYPES.join(","));
    assert_eq!(
        crate::decoder::v4_string_parts(),
        vec![V4_TEXT, V4_ERROR, V4_REASONING]
    );
}

#[test]
fn every_v4_part_type_reads_as_ai_sdk_4_parses_it() {
    let sample = v4_sample();
    let codes: std::collections::BTreeSet<char> = sample
        .iter()
        .filter_map(|(l, _)| l.chars().next())
        .collect();
    assert_eq!(
        codes.len(),
        V4_TYPES.len(),
        "the sample covers every part code"
    );
    for (line, expected) in sample {
        assert_eq!(
            decode(false, &[format!("{line}\n").as_bytes()]),
            vec![expected],
            "{line}"
        );
    }
}

#[test]
fn v4_stream_split_at_every_byte_gives_the_same_events() {
    let sample = v4_sample();
    let stream: String = sample.iter().map(|(l, _)| format!("{l}\r\n\n")).collect();
    let expected: Vec<Value> = sample.into_iter().map(|(_, v)| v).collect();
    let bytes = stream.as_bytes();
    for at in 0..=bytes.len() {
        assert_eq!(
            decode(false, &[&bytes[..at], &bytes[at..]]),
            expected,
            "split at {at}"
        );
    }
    let one_by_one: Vec<&[u8]> = bytes.chunks(1).collect();
    assert_eq!(decode(false, &one_by_one), expected);
}

#[test]
fn v4_structured_parts_keep_the_json_as_sent() {
    let events = decode(false, &[b"d:{\"finishReason\":\"later-reason\",\"threadId\":\"t\",\"x\":[1]}\ne:{\"finishReason\":\"stop\"}\n"]);
    assert_eq!(
        events,
        vec![
            json!({"type": "finish_message", "value": {"finishReason": "later-reason", "threadId": "t", "x": [1]}}),
            json!({"type": "finish_step", "value": {"finishReason": "stop"}}),
        ]
    );
}

#[test]
fn v4_malformed_lines_are_numbered_and_decoding_goes_on() {
    let events = decode(false, &[b"0:\"a\"\n\n0:{x\nzz\n0:\"b\"\n"]);
    assert_eq!(events.len(), 4);
    assert_eq!(events[0], json!({"type": "text", "value": "a"}));
    assert_eq!(events[1]["type"], "parse-error");
    assert_eq!(events[1]["line"], 3);
    assert!(events[1]["message"]
        .as_str()
        .unwrap()
        .starts_with("part `0` is not valid JSON"));
    assert_eq!(
        events[2],
        json!({"type": "parse-error", "line": 4, "message": "missing `:` after the part code"})
    );
    assert_eq!(events[3], json!({"type": "text", "value": "b"}));
}

fn ui_sample() -> Vec<Value> {
    vec![
        json!({"type": "start", "messageId": "msg_1"}),
        json!({"type": "start-step"}),
        json!({"type": "source-url", "sourceId": "s1", "url": "https://d/a", "title": "A"}),
        json!({"type": "text-start", "id": "t"}),
        json!({"type": "text-delta", "id": "t", "delta": "Hello é 中文 🦀\n"}),
        json!({"type": "text-end", "id": "t"}),
        json!({"type": "data-thread", "data": {"threadId": "thr_1"}}),
        json!({"type": "tool-input-start", "toolCallId": "c", "toolName": "n"}),
        json!({"type": "finish-step"}),
        json!({"type": "finish", "finishReason": "stop", "messageMetadata": {"threadId": "thr_1"}, "threadId": "thr_1"}),
    ]
}

#[test]
fn ui_stream_split_at_every_byte_gives_the_same_events() {
    let chunks = ui_sample();
    let mut stream: String = chunks
        .iter()
        .map(|c| format!("data: {c}\r\n\r\n"))
        .collect();
    stream.insert_str(0, ": keep-alive\n\n");
    stream.push_str("data: [DONE]\n\n");
    let mut expected = chunks;
    expected.push(json!({"type": "done"}));
    let bytes = stream.as_bytes();
    for at in 0..=bytes.len() {
        assert_eq!(
            decode(true, &[&bytes[..at], &bytes[at..]]),
            expected,
            "split at {at}"
        );
    }
}

#[test]
fn ui_malformed_event_is_numbered_and_decoding_goes_on() {
    let events = decode(
        true,
        &[b"data: {\"type\":\n\ndata: {\"type\":\"start-step\"}\n\n"],
    );
    assert_eq!(events.len(), 2);
    assert_eq!(events[0]["type"], "parse-error");
    assert_eq!(events[0]["line"], 1);
    assert_eq!(events[1], json!({"type": "start-step"}));
}

// --- The v4 fast path against the core decoder, the reference.

/// Events with the values of JSON-valued v4 parts left out: the SDK hands those over as sent, the
/// core decoder re-encoded (a `finishReason` it does not know becomes `unknown`, a missing
/// `isContinued` becomes `false`). Those values are checked against the sample instead.
fn shape(events: Vec<Value>) -> Vec<Value> {
    const STRING_TYPES: [&str; 3] = ["text", "reasoning", "error"];
    events
        .into_iter()
        .map(|mut e| {
            let string_valued = e["type"]
                .as_str()
                .is_some_and(|t| STRING_TYPES.contains(&t));
            if e.get("value").is_some() && !string_valued {
                e["value"] = Value::Null;
            }
            e
        })
        .collect()
}

/// What the core crate's `DataStreamDecoder` gives for the same chunks, read the same way.
fn core_decode(chunks: &[&[u8]]) -> Vec<Value> {
    use crate::decoder::write_data_events;
    use docs_edge_core::stream::DataStreamDecoder;
    let mut decoder = DataStreamDecoder::new();
    let mut batch = EventBatch::default();
    let mut events = Vec::new();
    for chunk in chunks.iter().copied() {
        write_data_events(&mut batch, decoder.push_bytes(chunk));
        let (records, heap) = batch.take();
        events.extend(read_batch(&records, &String::from_utf8(heap).unwrap()));
    }
    write_data_events(&mut batch, decoder.finish());
    let (records, heap) = batch.take();
    events.extend(read_batch(&records, &String::from_utf8(heap).unwrap()));
    events
}

/// Lines the fast path treats specially, and lines it must leave to the core decoder.
const TRICKY: &[&[u8]] = &[
    b"0:\"plain\"",
    b"0:\"esc \\\" \\\\ \\n \\u00e9 \\ud83e\\udd80\"",
    b"0: \"spaced\" ",
    b"0:\"\"",
    b"0:\"",
    b"0:\"a\"b\"",
    b"0:\"tab\there\"",
    b"0:\"\\ud800\"",
    b"0:5",
    b"0:",
    b"g:\"r\"",
    b"3:\"e\"",
    b"3:{\"x\":1}",
    b"01:\"x\"",
    b"0",
    b"   ",
    b"\xff0:\"x\"",
    b"0:\"\xc3\xa9\"",
    b"d:{\"finishReason\":\"weird\"}",
    b"d:{\"finishReason\":\"stop\",\"usage\":{\"promptTokens\":1.5,\"completionTokens\":2}}",
    b"d:{\"usage\":null}",
    b"h:{\"sourceType\":\"url\",\"id\":\"s\",\"url\":\"u\",\"url\":\"v\"}",
    b"h:{\"sourceType\":\"file\",\"id\":\"s\",\"url\":\"u\"}",
    b"f:{\"messageId\":5}",
    b"e:{\"finishReason\":\"stop\",\"isContinued\":\"no\"}",
    b"2:{}",
    b"2:[1, {\"a\": \"\\u00e9\"}] ",
];

#[test]
fn v4_fast_path_matches_the_core_decoder_on_tricky_lines() {
    for line in TRICKY {
        for end in [&b"\n"[..], b"\r\n", b"\r", b""] {
            let input = [*line, end, b"0:\"next\"\n"].concat();
            for at in 0..=input.len() {
                let chunks = [&input[..at], &input[at..]];
                assert_eq!(
                    shape(decode(false, &chunks)),
                    shape(core_decode(&chunks)),
                    "{:?} split at {at}",
                    String::from_utf8_lossy(&input)
                );
            }
        }
    }
}

#[test]
fn v4_fast_path_matches_the_core_decoder_on_random_input() {
    // xorshift: deterministic, so a failure reproduces.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let pieces: &[&[u8]] = &[
        b"0:\"",
        b"\"",
        b"\\",
        b"n",
        b"\n",
        b"\r",
        b"\r\n",
        b"g:",
        b"3:",
        b"h:",
        b"{",
        b"}",
        b"\xc3",
        b"\xa9",
        b"\xf0\x9f\xa6\x80",
        b" ",
        b"x",
        b":",
        b"d:{\"finishReason\":\"stop\"}",
    ];
    for _ in 0..3000 {
        let len = (next() % 24) as usize;
        let input: Vec<u8> = (0..len)
            .flat_map(|_| {
                pieces[(next() % pieces.len() as u64) as usize]
                    .iter()
                    .copied()
            })
            .collect();
        let cut = (next() as usize) % (input.len() + 1);
        let chunks = [&input[..cut], &input[cut..]];
        assert_eq!(
            decode(false, &chunks),
            core_decode(&chunks),
            "{:?}",
            String::from_utf8_lossy(&input)
        );
    }
}

#[test]
fn v4_overlong_lines_match_the_core_decoder() {
    let long = vec![b'x'; docs_edge_core::stream::MAX_LINE_BYTES + 1];
    let input = [&b"0:\""[..], &long, b"\"\n0:\"ok\"\n"].concat();
    let half = input.len() / 2;
    for chunks in [vec![&input[..]], vec![&input[..half], &input[half..]]] {
        let events = decode(false, &chunks);
        assert_eq!(shape(events.clone()), shape(core_decode(&chunks)));
        assert_eq!(events.len(), 2);
        assert_eq!(events[0]["type"], "parse-error");
    }
}
