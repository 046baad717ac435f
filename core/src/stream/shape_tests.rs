//! The shapes against serde: for every part and chunk type, the JSON checker (what the SDK runs)
//! and serde_json into the typed structs (what the typed decoders run) must accept and refuse the
//! same values, and refuse broken JSON as broken. Samples are mutated field by field, so a field
//! added to a type but not to its shape fails here.

use serde_json::{json, Value};

use super::json::{self, Problem, Shape};
use super::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Ok,
    Syntax,
    Shape,
}

fn checker(json: &str, shape: &Shape) -> Verdict {
    match json::check(json, shape) {
        Ok(()) => Verdict::Ok,
        Err(Problem::Syntax(_)) => Verdict::Syntax,
        Err(Problem::Shape(_)) => Verdict::Shape,
    }
}

/// serde only: `DataStreamPart::typed` reads the JSON into a `Value`, then into the payload type.
fn serde_part(part: usize, json: &str) -> Verdict {
    if serde_json::from_str::<Value>(json).is_err() {
        return Verdict::Syntax;
    }
    match DataStreamPart::typed(RawPart::Json { part, json }) {
        Ok(_) => Verdict::Ok,
        Err(_) => Verdict::Shape,
    }
}

const ALTERNATIVES: &[&str] = &[
    "null",
    "true",
    "false",
    "0",
    "7",
    "-1",
    "-0",
    "1.5",
    "1e2",
    "18446744073709551615",
    "18446744073709551616",
    "\"s\"",
    "\"url\"",
    "\"stop\"",
    "[]",
    "[\"x\"]",
    "[1,2]",
    "{}",
    "{\"url\":null}",
    "{\"stop\":null}",
    "{\"url\":1}",
    "{\"a\":1,\"b\":2}",
];

/// The sample, each field left out, each field set to every alternative, repeated keys both ways,
/// an unknown field, the whole value replaced, and the array form at every length.
fn mutations(sample: &Value) -> Vec<String> {
    let mut out = vec![sample.to_string()];
    out.extend(ALTERNATIVES.iter().map(|a| a.to_string()));
    let Some(object) = sample.as_object() else {
        return out;
    };
    let entries: Vec<(String, String)> = object
        .iter()
        .map(|(k, v)| (serde_json::to_string(k).unwrap(), v.to_string()))
        .collect();
    let render = |entries: &[(String, String)]| {
        let members: Vec<String> = entries.iter().map(|(k, v)| format!("{k}:{v}")).collect();
        format!("{{{}}}", members.join(","))
    };
    for i in 0..entries.len() {
        let mut without = entries.clone();
        without.remove(i);
        out.push(render(&without));
        for alternative in ALTERNATIVES {
            let mut changed = entries.clone();
            changed[i].1 = alternative.to_string();
            out.push(render(&changed));
            let mut repeated = entries.clone();
            repeated.push((entries[i].0.clone(), alternative.to_string()));
            out.push(render(&repeated));
            let mut repeated_back = changed.clone();
            repeated_back.push(entries[i].clone());
            out.push(render(&repeated_back));
        }
        // Nested objects (usage) get the same treatment, one level down.
        if let Ok(nested @ Value::Object(_)) = serde_json::from_str::<Value>(&entries[i].1) {
            for inner in mutations(&nested) {
                let mut changed = entries.clone();
                changed[i].1 = inner;
                out.push(render(&changed));
            }
        }
    }
    let mut unknown = entries.clone();
    unknown.push(("\"zzUnknown\"".into(), "{\"x\":[1]}".into()));
    out.push(render(&unknown));
    let escaped_keys: Vec<(String, String)> = entries
        .iter()
        .map(|(k, v)| (k.replacen('e', "\\u0065", 1), v.clone()))
        .collect();
    out.push(render(&escaped_keys));
    for len in 0..=entries.len() + 1 {
        let mut values: Vec<String> = entries.iter().map(|(_, v)| v.clone()).collect();
        values.resize(len, "\"extra\"".into());
        out.push(format!("[{}]", values.join(",")));
        if len > 0 {
            values[len - 1] = "null".into();
            out.push(format!("[{}]", values.join(",")));
        }
    }
    out
}

/// One full payload per part type, every optional field present.
fn v4_samples() -> Vec<(char, Value)> {
    let usage = json!({"promptTokens": 1, "completionTokens": 2});
    vec![
        ('0', json!("Hello é \"q\" \n")),
        ('2', json!([{"type": "finish", "threadId": "t"}])),
        ('3', json!("boom")),
        ('8', json!([{"a": 1}, "b"])),
        (
            '9',
            json!({"toolCallId": "c", "toolName": "search", "args": {"q": "x"}}),
        ),
        ('a', json!({"toolCallId": "c", "result": [1, 2]})),
        ('b', json!({"toolCallId": "c", "toolName": "search"})),
        ('c', json!({"toolCallId": "c", "argsTextDelta": "{\"q\":"})),
        (
            'd',
            json!({"finishReason": "stop", "usage": usage, "threadId": "t", "extra": 1}),
        ),
        (
            'e',
            json!({"finishReason": "stop", "usage": usage, "isContinued": false}),
        ),
        ('f', json!({"messageId": "m"})),
        ('g', json!("think")),
        (
            'h',
            json!({"sourceType": "url", "id": "s", "url": "u", "title": "T", "providerMetadata": {"x": 1}}),
        ),
        ('i', json!({"data": "zz"})),
        ('j', json!({"signature": "sig"})),
        ('k', json!({"data": "AA", "mimeType": "image/png"})),
    ]
}

#[test]
fn the_samples_cover_every_part_type() {
    let codes: Vec<char> = v4_samples().iter().map(|(c, _)| *c).collect();
    let table: Vec<char> = PART_TYPES.iter().map(|p| p.code).collect();
    assert_eq!(codes, table);
}

#[test]
fn every_v4_shape_accepts_what_serde_accepts() {
    let mut compared = 0;
    for (part, (code, sample)) in v4_samples().iter().enumerate() {
        let shape = &PART_TYPES[part].shape;
        for json in mutations(sample) {
            assert_eq!(
                checker(&json, shape),
                serde_part(part, &json),
                "part `{code}`: {json}"
            );
            compared += 1;
        }
    }
    assert!(compared > 2000, "{compared}");
}

/// serde only, as `UiChunk::from_json` did before the shapes: `Value`, then `type`, then typed.
fn serde_chunk(json: &str) -> Verdict {
    let Ok(value) = serde_json::from_str::<Value>(json) else {
        return Verdict::Syntax;
    };
    let Some(kind) = value.get("type").and_then(Value::as_str) else {
        return Verdict::Shape;
    };
    let known = [
        "start",
        "start-step",
        "finish-step",
        "text-start",
        "text-delta",
        "text-end",
        "reasoning-start",
        "reasoning-delta",
        "reasoning-end",
        "source-url",
        "source-document",
        "file",
        "error",
        "finish",
        "message-metadata",
    ];
    if kind.starts_with("data-") || !known.contains(&kind) {
        return Verdict::Ok;
    }
    match serde_json::from_value::<UiChunk>(value) {
        Ok(_) => Verdict::Ok,
        Err(_) => Verdict::Shape,
    }
}

fn chunk_checker(json: &str) -> Verdict {
    match check_chunk(json) {
        Ok(_) => Verdict::Ok,
        Err(m) if m.starts_with("chunk is not valid JSON") => Verdict::Syntax,
        Err(_) => Verdict::Shape,
    }
}

#[test]
fn every_ui_chunk_shape_accepts_what_serde_accepts() {
    let samples = [
        json!({"type": "start", "messageId": "m", "messageMetadata": {"a": 1}}),
        json!({"type": "start-step", "x": 1}),
        json!({"type": "finish-step"}),
        json!({"type": "text-start", "id": "t"}),
        json!({"type": "text-delta", "id": "t", "delta": "d"}),
        json!({"type": "text-end", "id": "t"}),
        json!({"type": "reasoning-start", "id": "r"}),
        json!({"type": "reasoning-delta", "id": "r", "delta": "d"}),
        json!({"type": "reasoning-end", "id": "r"}),
        json!({"type": "source-url", "sourceId": "s", "url": "u", "title": "T"}),
        json!({"type": "source-document", "sourceId": "s", "mediaType": "text/plain", "title": "T", "filename": "f"}),
        json!({"type": "file", "url": "u", "mediaType": "image/png"}),
        json!({"type": "error", "errorText": "e"}),
        json!({"type": "finish", "finishReason": "stop", "messageMetadata": {}, "threadId": "t"}),
        json!({"type": "message-metadata", "messageMetadata": {"threadId": "t"}}),
        json!({"type": "data-thread", "data": {"threadId": "t"}}),
        json!({"type": "tool-input-start", "toolCallId": "c"}),
    ];
    let mut compared = 0;
    for sample in &samples {
        for json in mutations(sample) {
            assert_eq!(chunk_checker(&json), serde_chunk(&json), "{json}");
            compared += 1;
        }
    }
    assert!(compared > 1000, "{compared}");
}

#[test]
fn broken_json_is_refused_as_broken_wherever_it_breaks() {
    let texts = [
        r#"{"a":[1,-2.5e-3,true,false,null,{"b":"\u00e9\ud83e\udd80\n\"\\\/\b\f\r\t"}],"c":{}}"#,
        r#"[0, 10, 1E+2, 1e-2, -0.0, 123456789012345678901234567890]"#,
        r#" "x" "#,
    ];
    let mut candidates: Vec<String> = Vec::new();
    for text in texts {
        for at in 0..=text.len() {
            if text.is_char_boundary(at) {
                candidates.push(text[..at].to_string());
                for insert in [",", "]", "}", "\"", "\\", " ", "x", "\u{1}", "0", "-", ":"] {
                    candidates.push(format!("{}{insert}{}", &text[..at], &text[at..]));
                }
            }
        }
    }
    candidates.extend(
        [
            "01",
            "-",
            "1.",
            ".5",
            "1e",
            "1e+",
            "+1",
            "1e400",
            "-1e400",
            "1e308",
            "1.8e308",
            "0e999",
            "1e-400",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\ud800\\u0041\"",
            "\"\\ud800x\"",
            "\"\\uZZZZ\"",
            "\"\\x\"",
            "[1,]",
            "{\"a\":1,}",
            "{,}",
            "[,1]",
            "tru",
            "nul",
            "falsey",
            "{\"a\" 1}",
            "{1:1}",
            "",
            " ",
            "\"\t\"",
            "1 2",
        ]
        .map(String::from),
    );
    candidates.push(format!("{}{}", "[".repeat(127), "]".repeat(127)));
    candidates.push(format!("{}{}", "[".repeat(128), "]".repeat(128)));
    candidates.push(format!("{}1{}", "{\"a\":".repeat(128), "}".repeat(128)));
    for json in candidates {
        assert_eq!(
            json::check(&json, &Shape::Any).is_ok(),
            serde_json::from_str::<Value>(&json).is_ok(),
            "{json:?}"
        );
    }
}

#[test]
fn strings_decode_as_serde_decodes_them() {
    for json in [
        r#""plain""#,
        r#""esc \" \\ \/ \b \f \n \r \t \u00e9 \ud83e\udd80 \u0000""#,
        r#""é 中文 🦀""#,
        r#""""#,
    ] {
        let expected: String = serde_json::from_str(json).unwrap();
        assert_eq!(json::string_value(json).as_deref(), Some(expected.as_str()));
    }
    assert_eq!(json::string_value(r#" "x""#), None);
    assert_eq!(json::string_value(r#""x"y"#), None);
}
