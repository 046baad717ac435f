//! What the rules refuse, and the field path each refusal names.

use super::*;

/// Each §2.1 rule, with the 400 message the client will read.
#[test]
fn v1_rules_name_the_field_path() {
    let m = "/messages/1/parts";
    let cases: Vec<(Value, &str)> = vec![
        (json!([]), "body: must be an object"),
        // fp
        (remove(v1_body(), "/fp"), "fp: is required"),
        (set(v1_body(), "/fp", json!(7)), "fp: must be a string"),
        (set(v1_body(), "/fp", json!(" ")), "fp: must not be empty (send \"anonymous\" for anonymous users)"),
        (set(v1_body(), "/fp", json!("f".repeat(201))), "fp: must be at most 200 characters"),
        // messages
        (remove(v1_body(), "/messages"), "messages: is required"),
        (set(v1_body(), "/messages", json!({})), "messages: must be an array"),
        (set(v1_body(), "/messages", json!([])), "messages: must contain at least one message"),
        (
            set(v1_body(), "/messages", json!(vec![json!({}); 101])),
            "messages: must have at most 100 items",
        ),
        (set(v1_body(), "/messages/1", json!("hi")), "messages[1]: must be an object"),
        (set(v1_body(), "/messages/1/id", json!(1)), "messages[1].id: must be a string"),
        (remove(v1_body(), "/messages/1/role"), "messages[1].role: is required"),
        (
            set(v1_body(), "/messages/1/role", json!("bot")),
            "messages[1].role: must be one of system, assistant, data, user",
        ),
        (
            set(v1_body(), "/messages/1/createdAt", json!("yesterday")),
            "messages[1].createdAt: must be an ISO 8601 date-time such as 2025-01-31T09:30:00.000Z",
        ),
        (set(v1_body(), "/messages/1/createdAt", json!(0)), "messages[1].createdAt: must be a string"),
        (remove(v1_body(), "/messages/1/content"), "messages[1].content: is required"),
        (set(v1_body(), "/messages/1/content", json!(["x"])), "messages[1].content: must be a string"),
        (
            set(v1_body(), "/messages/1/content", json!("x".repeat(32_001))),
            "messages[1].content: must be at most 32000 characters",
        ),
        (set(v1_body(), "/messages/1/annotations", json!({})), "messages[1].annotations: must be an array"),
        (set(v1_body(), m, json!("text")), "messages[1].parts: must be an array"),
        (set(v1_body(), &format!("{m}/0"), json!(1)), "messages[1].parts[0]: must be an object"),
        (set(v1_body(), &format!("{m}/0"), json!({})), "messages[1].parts[0].type: is required"),
        (
            set(v1_body(), "/messages/0/parts/0/type", json!("image")),
            "messages[0].parts[0].type: must be one of text, reasoning, step-start, source, tool-invocation",
        ),
        // text part
        (remove(v1_body(), &format!("{m}/4/text")), "messages[1].parts[4].text: is required"),
        (set(v1_body(), &format!("{m}/4/text"), json!(1)), "messages[1].parts[4].text: must be a string"),
        (
            set(v1_body(), &format!("{m}/4/text"), json!("x".repeat(32_001))),
            "messages[1].parts[4].text: must be at most 32000 characters",
        ),
        (
            set(v1_body(), m, json!([{"type": "text", "text": "x".repeat(20_000)}, {"type": "text", "text": "y".repeat(20_000)}])),
            "messages[1].parts: text parts together must be at most 32000 characters",
        ),
        // reasoning part
        (remove(v1_body(), &format!("{m}/1/reasoning")), "messages[1].parts[1].reasoning: is required"),
        (remove(v1_body(), &format!("{m}/1/details")), "messages[1].parts[1].details: is required"),
        (set(v1_body(), &format!("{m}/1/details"), json!("d")), "messages[1].parts[1].details: must be an array"),
        (
            set(v1_body(), &format!("{m}/1/details/0/type"), json!("image")),
            "messages[1].parts[1].details[0].type: must be one of text, redacted",
        ),
        (remove(v1_body(), &format!("{m}/1/details/0/text")), "messages[1].parts[1].details[0].text: is required"),
        (
            set(v1_body(), &format!("{m}/1/details/0/signature"), json!(1)),
            "messages[1].parts[1].details[0].signature: must be a string",
        ),
        (remove(v1_body(), &format!("{m}/1/details/1/data")), "messages[1].parts[1].details[1].data: is required"),
        // source part
        (remove(v1_body(), &format!("{m}/2/source")), "messages[1].parts[2].source: is required"),
        (
            set(v1_body(), &format!("{m}/2/source/sourceType"), json!("document")),
            "messages[1].parts[2].source.sourceType: must be one of url",
        ),
        (remove(v1_body(), &format!("{m}/2/source/id")), "messages[1].parts[2].source.id: is required"),
        (remove(v1_body(), &format!("{m}/2/source/url")), "messages[1].parts[2].source.url: is required"),
        (
            set(v1_body(), &format!("{m}/2/source/title"), json!(1)),
            "messages[1].parts[2].source.title: must be a string",
        ),
        // tool-invocation part
        (remove(v1_body(), &format!("{m}/3/toolInvocation")), "messages[1].parts[3].toolInvocation: is required"),
        (
            set(v1_body(), &format!("{TOOL}/state"), json!("done")),
            "messages[1].parts[3].toolInvocation.state: must be one of partial-call, call, result",
        ),
        (
            set(v1_body(), &format!("{TOOL}/step"), json!("1")),
            "messages[1].parts[3].toolInvocation.step: must be a number",
        ),
        (
            remove(v1_body(), &format!("{TOOL}/toolCallId")),
            "messages[1].parts[3].toolInvocation.toolCallId: is required",
        ),
        (
            remove(v1_body(), &format!("{TOOL}/toolName")),
            "messages[1].parts[3].toolInvocation.toolName: is required",
        ),
        (remove(v1_body(), &format!("{TOOL}/args")), "messages[1].parts[3].toolInvocation.args: is required"),
        (
            remove(v1_body(), &format!("{TOOL}/result")),
            "messages[1].parts[3].toolInvocation.result: is required when state is result",
        ),
        // attachments
        (
            set(v1_body(), "/messages/0/experimental_attachments", json!({})),
            "messages[0].experimental_attachments: must be an array",
        ),
        (
            remove(v1_body(), "/messages/0/experimental_attachments/0/url"),
            "messages[0].experimental_attachments[0].url: is required",
        ),
        (
            set(v1_body(), "/messages/0/experimental_attachments/0/name", json!(1)),
            "messages[0].experimental_attachments[0].name: must be a string",
        ),
        (
            set(v1_body(), "/messages/0/experimental_attachments/0/contentType", json!(1)),
            "messages[0].experimental_attachments[0].contentType: must be a string",
        ),
        // the question
        (
            set(v1_body(), "/messages/2/role", json!("assistant")),
            "messages[2].role: the last message must be the user's (role user)",
        ),
        (
            set(v1_body(), "/messages/2/parts/0/text", json!("  ")),
            "messages[2].parts: the last message must have non-empty text",
        ),
        (
            set(set(v1_body(), "/messages/2/parts", json!([])), "/messages/2/content", json!("")),
            "messages[2].content: the last message must have non-empty text",
        ),
        // threadId
        (set(v1_body(), "/threadId", json!(5)), "threadId: must be a string"),
        (set(v1_body(), "/threadId", json!("t".repeat(101))), "threadId: must be at most 100 characters"),
        (set(v1_body(), "/threadId", json!("a b")), "threadId: must contain only visible ASCII characters"),
        // retrievalPageSize
        (set(v1_body(), "/retrievalPageSize", json!("5")), "retrievalPageSize: must be a number"),
        (set(v1_body(), "/retrievalPageSize", json!(0)), "retrievalPageSize: must be an integer from 1 to 20"),
        (set(v1_body(), "/retrievalPageSize", json!(21)), "retrievalPageSize: must be an integer from 1 to 20"),
        (set(v1_body(), "/retrievalPageSize", json!(2.5)), "retrievalPageSize: must be an integer from 1 to 20"),
        // filter
        (set(v1_body(), "/filter", json!("v2")), "filter: must be an object"),
        (set(v1_body(), "/filter", json!({"version": 2})), "filter.version: must be a string"),
        (set(v1_body(), "/filter", json!({"language": ["en"]})), "filter.language: must be a string"),
        // context
        (set(v1_body(), "/context", json!({})), "context: must be an array"),
        (
            set(v1_body(), "/context", json!(vec![json!({"type": "code", "value": "x"}); 21])),
            "context: must have at most 20 items",
        ),
        (set(v1_body(), "/context", json!(["x"])), "context[0]: must be an object"),
        (set(v1_body(), "/context", json!([{"value": "x"}])), "context[0].type: is required"),
        (
            set(v1_body(), "/context", json!([{"type": "file", "value": "x"}])),
            "context[0].type: must be one of code, textSelection",
        ),
        (set(v1_body(), "/context", json!([{"type": "code"}])), "context[0].value: is required"),
        (
            set(v1_body(), "/context", json!([{"type": "code", "value": "x".repeat(8_001)}])),
            "context[0].value: must be at most 8000 characters",
        ),
        (
            set(v1_body(), "/context", json!([{"type": "code", "value": "x", "path": 1}])),
            "context[0].path: must be a string",
        ),
        (
            set(v1_body(), "/context", json!([{"type": "code", "value": "x", "elementId": 1}])),
            "context[0].elementId: must be a string",
        ),
        // currentPath
        (set(v1_body(), "/currentPath", json!(1)), "currentPath: must be a string"),
        (
            set(v1_body(), "/currentPath", json!("/".repeat(201))),
            "currentPath: must be at most 200 characters",
        ),
    ];
    for (body, expected) in cases {
        assert_eq!(v1_error(body), expected);
    }
}

#[test]
fn v2_rules_name_the_field_path() {
    let a = "/messages/1/parts";
    let cases: Vec<(Value, &str)> = vec![
        (remove(v2_body(), "/fp"), "fp: is required"),
        (
            set(v2_body(), "/messages/1/role", json!("data")),
            "messages[1].role: must be one of system, assistant, user",
        ),
        (remove(v2_body(), "/messages/1/parts"), "messages[1].parts: is required"),
        (remove(v2_body(), "/messages/1/id"), "messages[1].id: is required"),
        (
            set(v2_body(), "/messages/1/createdAt", json!("2025-01-31")),
            "messages[1].createdAt: must be an ISO 8601 date-time such as 2025-01-31T09:30:00.000Z",
        ),
        (set(v2_body(), "/messages/0/metadata", json!("m")), "messages[0].metadata: must be an object"),
        (remove(v2_body(), &format!("{a}/8/text")), "messages[1].parts[8].text: is required"),
        (remove(v2_body(), &format!("{a}/1/text")), "messages[1].parts[1].text: is required"),
        (remove(v2_body(), &format!("{a}/2/sourceId")), "messages[1].parts[2].sourceId: is required"),
        (remove(v2_body(), &format!("{a}/2/url")), "messages[1].parts[2].url: is required"),
        (set(v2_body(), &format!("{a}/2/title"), json!(1)), "messages[1].parts[2].title: must be a string"),
        (remove(v2_body(), &format!("{a}/7/mediaType")), "messages[1].parts[7].mediaType: is required"),
        (remove(v2_body(), &format!("{a}/7/url")), "messages[1].parts[7].url: is required"),
        (
            set(v2_body(), "/messages/2/parts/0/filename", json!(1)),
            "messages[2].parts[0].filename: must be a string",
        ),
        (
            set(v2_body(), "/messages/2/parts/0/type", json!("data-x")),
            "messages[2].parts[0].type: must be one of text, reasoning, source-url, file, step-start",
        ),
        (
            set(v2_body(), "/messages/2/parts/1/text", json!("")),
            "messages[2].parts: the last message must have non-empty text",
        ),
        (set(v2_body(), "/filter/groups", json!("staff")), "filter.groups: must be an array"),
        (set(v2_body(), "/filter/groups", json!([1])), "filter.groups[0]: must be a string"),
        (
            set(v2_body(), "/filter/groups", json!(vec!["g"; 51])),
            "filter.groups: must have at most 50 items",
        ),
        (
            set(v2_body(), "/context/0/type", json!("selection")),
            "context[0].type: must be one of code, textSelection",
        ),
    ];
    for (body, expected) in cases {
        assert_eq!(v2_error(body), expected);
    }
}

#[test]
fn the_first_broken_rule_is_reported_in_table_order() {
    let body = set(v1_body(), "/fp", json!(1));
    let body = set(body, "/currentPath", json!(1));
    let body = set(body, "/messages/2/id", json!(1));
    assert_eq!(v1_error(body.clone()), "fp: must be a string");
    let body = set(body, "/fp", json!("anonymous"));
    assert_eq!(v1_error(body), "messages[2].id: must be a string");
}
