//! Tests of the assistant request rules; the v1 and v2 bodies the topics build on are here.

use super::*;
use serde_json::json;

mod accepted;
mod refused;

/// What `useChat` from ai@4 posts with `sendExtraMessageFields: true` and
/// `body: {fp, retrievalPageSize}`: extra fields at every level.
fn v1_body() -> Value {
    json!({
        "id": "chat_1",
        "fp": "anonymous",
        "retrievalPageSize": 5,
        "data": {"anything": true},
        "revisionId": "rev",
        "messages": [
            {
                "id": "m1",
                "role": "user",
                "content": "How do I install it?",
                "createdAt": "2025-01-31T09:30:00.000Z",
                "parts": [{"type": "text", "text": "How do I install it?"}],
                "experimental_attachments": [
                    {"name": "a.png", "contentType": "image/png", "url": "data:image/png;base64,AA=="}
                ]
            },
            {
                "id": "m2",
                "role": "assistant",
                "content": "Run the installer.",
                "createdAt": "2025-01-31T09:30:02.000Z",
                "annotations": [{"type": "finish", "threadId": "t1"}],
                "reasoning": "thinking",
                "toolInvocations": [],
                "revisionId": "x",
                "parts": [
                    {"type": "step-start"},
                    {"type": "reasoning", "reasoning": "thinking", "details": [
                        {"type": "text", "text": "thinking", "signature": "sig"},
                        {"type": "redacted", "data": "xxx"}
                    ]},
                    {"type": "source", "source": {"sourceType": "url", "id": "s1", "url": "https://x/a", "title": "A"}},
                    {"type": "tool-invocation", "toolInvocation": {
                        "state": "result", "step": 0, "toolCallId": "c1", "toolName": "search",
                        "args": {"q": "install"}, "result": []
                    }},
                    {"type": "text", "text": "Run the installer."}
                ]
            },
            {
                "id": "m3",
                "role": "user",
                "content": "And on Windows?",
                "createdAt": "2025-01-31T09:31:00.000Z",
                "parts": [{"type": "text", "text": "And on Windows?"}]
            }
        ]
    })
}

/// What `useChat` from @ai-sdk/react 2 (AI SDK v5) posts through `DefaultChatTransport`.
fn v2_body() -> Value {
    json!({
        "id": "chat_1",
        "trigger": "submit-message",
        "fp": "user-42",
        "threadId": "t1",
        "filter": {"version": "v2", "language": "en", "groups": ["staff"]},
        "messages": [
            {"id": "u1", "role": "user", "metadata": {"k": 1},
             "parts": [{"type": "text", "text": "Hi"}]},
            {"id": "a1", "role": "assistant", "parts": [
                {"type": "step-start"},
                {"type": "reasoning", "text": "hmm", "state": "done", "providerMetadata": {}},
                {"type": "source-url", "sourceId": "s1", "url": "https://x", "title": "X"},
                {"type": "source-document", "sourceId": "d1", "mediaType": "text/plain", "title": "D"},
                {"type": "tool-search", "toolCallId": "c1", "state": "output-available", "input": {}, "output": []},
                {"type": "dynamic-tool", "toolName": "t", "toolCallId": "c2", "state": "input-streaming"},
                {"type": "data-thread", "data": {"threadId": "t1"}},
                {"type": "file", "mediaType": "image/png", "url": "https://x/f.png"},
                {"type": "text", "text": "Hello!", "state": "done"}
            ]},
            {"id": "u2", "role": "user", "parts": [
                {"type": "file", "mediaType": "image/png", "url": "data:image/png;base64,AA==", "filename": "f.png"},
                {"type": "text", "text": "What is this?"}
            ]}
        ],
        "context": [{"type": "code", "value": "fn main() {}", "path": "src/main.rs", "elementId": "e1"}],
        "currentPath": "/quickstart"
    })
}

/// Sets (or adds) the value at a JSON pointer.
fn set(mut body: Value, pointer: &str, value: Value) -> Value {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    match body.pointer_mut(parent).unwrap() {
        Value::Object(map) => {
            map.insert(key.to_string(), value);
        }
        Value::Array(items) => items[key.parse::<usize>().unwrap()] = value,
        _ => panic!("{parent} is not a container"),
    }
    body
}

fn remove(mut body: Value, pointer: &str) -> Value {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    body.pointer_mut(parent)
        .unwrap()
        .as_object_mut()
        .unwrap()
        .remove(key)
        .unwrap();
    body
}

fn v1_error(body: Value) -> String {
    parse_v1(&body).unwrap_err().to_string()
}

fn v2_error(body: Value) -> String {
    parse_v2(&body).unwrap_err().to_string()
}

const TOOL: &str = "/messages/1/parts/3/toolInvocation";
