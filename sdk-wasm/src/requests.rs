//! Request bodies and response checks for the JavaScript clients, through the core crate's wire
//! types: the JS side only moves JSON, so every shape is defined once, in `core/src/wire.rs`.

use docs_edge_core::wire::{
    BundleLink, ErrorBody, ExportJob, ExportRequest, KeyKind, MessagePart, MessageRequest,
    PageContent, PageRequest, SearchRequest, SearchResult,
};
use docs_edge_core::wire_analytics::{AnalyticsReport, FeedbackReceipt, FeedbackRequest};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Re-serializes `json` through `T`: a field of the wrong type or a missing required field is an
/// error here, before any request, instead of a 400 (or a confusing result) later.
fn through<T: DeserializeOwned + Serialize>(json: &str) -> Result<String, String> {
    let value: T = serde_json::from_str(json).map_err(|e| e.to_string())?;
    serde_json::to_string(&value).map_err(|e| e.to_string())
}

/// The body of a request. `kind`: `search`, `page`, `export`, `feedback`, `message-v1`, `message-v2`.
/// Messages come with `content`; v1 sends it and a text part, v2 (AI SDK v5+) the part only.
pub fn request_body(kind: &str, json: &str) -> Result<String, String> {
    match kind {
        "search" => through::<SearchRequest>(json),
        "page" => through::<PageRequest>(json),
        "export" => through::<ExportRequest>(json),
        "feedback" => through::<FeedbackRequest>(json),
        "message-v1" | "message-v2" => {
            let mut request: MessageRequest =
                serde_json::from_str(json).map_err(|e| e.to_string())?;
            for message in &mut request.messages {
                let text = message.content.take().unwrap_or_default();
                message.parts = vec![MessagePart::Text { text: text.clone() }];
                if kind == "message-v1" {
                    message.content = Some(text);
                }
            }
            serde_json::to_string(&request).map_err(|e| e.to_string())
        }
        _ => Err(format!("unknown request kind `{kind}`")),
    }
}

/// A response body checked against its shape and written back as JSON. `kind`: `search`,
/// `page`, `export-job`, `bundle`, `error`, `feedback`, `analytics`.
pub fn response_body(kind: &str, json: &str) -> Result<String, String> {
    match kind {
        "search" => through::<Vec<SearchResult>>(json),
        "page" => through::<PageContent>(json),
        "export-job" => through::<ExportJob>(json),
        "bundle" => through::<BundleLink>(json),
        "error" => through::<ErrorBody>(json),
        "feedback" => through::<FeedbackReceipt>(json),
        "analytics" => through::<AnalyticsReport>(json),
        _ => Err(format!("unknown response kind `{kind}`")),
    }
}

#[wasm_bindgen(js_name = requestBody)]
pub fn request_body_js(kind: &str, json: &str) -> Result<String, JsError> {
    request_body(kind, json).map_err(|e| JsError::new(&e))
}

#[wasm_bindgen(js_name = responseBody)]
pub fn response_body_js(kind: &str, json: &str) -> Result<String, JsError> {
    response_body(kind, json).map_err(|e| JsError::new(&e))
}

/// `"assistant"`, `"admin"`, or `undefined` for a key that is not one of ours.
#[wasm_bindgen(js_name = keyKind)]
pub fn key_kind(key: &str) -> Option<String> {
    KeyKind::of_key(key).map(|kind| {
        match kind {
            KeyKind::Assistant => "assistant",
            KeyKind::Admin => "admin",
        }
        .to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn parsed(s: Result<String, String>) -> Value {
        serde_json::from_str(&s.unwrap()).unwrap()
    }

    #[test]
    fn message_bodies_follow_each_protocol() {
        let input = json!({
            "fp": "anonymous",
            "threadId": "thr_1",
            "messages": [{"id": "u1", "role": "user", "content": "Hi é"}],
            "retrievalPageSize": 3,
            "filter": {"language": "en"},
            "context": [{"type": "textSelection", "value": "x", "elementId": "e"}],
        })
        .to_string();
        let v1 = parsed(request_body("message-v1", &input));
        assert_eq!(
            v1["messages"],
            json!([{"id": "u1", "role": "user", "content": "Hi é", "parts": [{"type": "text", "text": "Hi é"}]}])
        );
        assert_eq!(v1["threadId"], "thr_1");
        assert_eq!(v1["retrievalPageSize"], 3);
        assert_eq!(
            v1["context"],
            json!([{"type": "textSelection", "value": "x", "elementId": "e"}])
        );
        let v2 = parsed(request_body("message-v2", &input));
        assert_eq!(
            v2["messages"],
            json!([{"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Hi é"}]}])
        );
    }

    #[test]
    fn message_bodies_pass_the_workers_request_rules() {
        use docs_edge_core::assistant::request::{parse_v1, parse_v2};
        let input = json!({
            "fp": "anonymous",
            "messages": [
                {"id": "u1", "role": "user", "content": "How do I export?"},
                {"id": "a1", "role": "assistant", "content": "Start a job."},
                {"id": "u2", "role": "user", "content": "and then?"},
            ],
            "threadId": "thr_0123456789abcdef",
            "currentPath": "/export/overview",
            "filter": {"language": "en"},
            "context": [{"type": "code", "value": "fn main() {}", "path": "src/main.rs"}],
            "retrievalPageSize": 4,
        })
        .to_string();
        let v1 = parse_v1(&parsed(request_body("message-v1", &input))).unwrap();
        let v2 = parse_v2(&parsed(request_body("message-v2", &input))).unwrap();
        assert_eq!(v1, v2, "both protocols carry the same request");
        assert_eq!(v1.question(), "and then?");
        assert_eq!(v1.retrieval_page_size, 4);
        assert_eq!(v1.thread_id.as_deref(), Some("thr_0123456789abcdef"));
        assert_eq!(v1.context.len(), 1);
    }

    #[test]
    fn wrong_shapes_are_refused_before_sending() {
        let bad = [
            (
                "message-v1",
                json!({"fp": "a", "messages": [{"id": "1", "role": "robot", "content": "x"}]}),
            ),
            ("message-v1", json!({"messages": []})),
            (
                "message-v2",
                json!({"fp": "a", "messages": [], "retrievalPageSize": "5"}),
            ),
            ("search", json!({"query": 5})),
            ("search", json!({"query": "q", "filter": {"language": 1}})),
            ("page", json!({})),
            ("export", json!({"domain": "d", "paths": "/a"})),
            ("feedback", json!({"threadId": "t", "messageId": "m", "rating": "meh"})),
            ("feedback", json!({"threadId": "t", "rating": "up"})),
        ];
        for (kind, body) in bad {
            assert!(
                request_body(kind, &body.to_string()).is_err(),
                "{kind} {body}"
            );
        }
        assert!(request_body("nope", "{}").is_err());
        assert!(request_body("search", "{not json").is_err());
    }

    #[test]
    fn responses_are_checked_against_the_wire_types() {
        let job = json!({"jobId": "se_0123456789abcdef", "status": "running", "progress": 40, "pageCount": 6,
            "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:01Z"});
        assert_eq!(
            parsed(response_body("export-job", &job.to_string()))["status"],
            "running"
        );
        let mut wrong = job.clone();
        wrong["status"] = json!("paused");
        assert!(response_body("export-job", &wrong.to_string()).is_err());
        let link = json!({"jobId": "se_1", "bundleUrl": "https://x/b", "sizeBytes": 10, "sha256": "ab".repeat(32),
            "expiresAt": "2026-01-01T00:00:00Z"});
        assert_eq!(parsed(response_body("bundle", &link.to_string())), link);
        assert!(response_body("error", r#"{"error":"e"}"#).is_err());
        assert!(response_body("search", "[]").is_ok());
        assert!(response_body("page", r#"{"path":"a"}"#).is_err());
        let receipt = json!({"threadId": "t", "messageId": "m", "rating": "up", "createdAt": "2026-01-01T00:00:00.000Z"});
        assert_eq!(parsed(response_body("feedback", &receipt.to_string())), receipt);
        assert!(response_body("analytics", r#"{"domain":"d"}"#).is_err());
    }

    #[test]
    fn key_kinds_follow_the_prefixes() {
        assert_eq!(key_kind("svc_dsc_abc").as_deref(), Some("assistant"));
        assert_eq!(key_kind("svc_abc").as_deref(), Some("admin"));
        assert_eq!(key_kind("mint_abc"), None);
    }
}
