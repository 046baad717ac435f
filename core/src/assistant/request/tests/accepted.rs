//! What the rules accept: the bodies AI SDK clients post, extra fields, nulls and the bounds.

use super::*;

#[test]
fn v2_trigger_and_message_id_are_read_and_unknown_triggers_named() {
    let body = set(v2_body(), "/trigger", json!("regenerate-message"));
    let body = set(body, "/messageId", json!("msg_a"));
    let request = parse_v2(&body).unwrap();
    assert_eq!(
        request.trigger,
        Trigger::Regenerate {
            message_id: Some("msg_a".into())
        }
    );
    assert!(request.question_id.is_some());
    let err = parse_v2(&set(v2_body(), "/trigger", json!("resume-stream"))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "trigger: must be one of submit-message, regenerate-message"
    );
    assert_eq!(
        parse_v1(&set(v1_body(), "/trigger", json!("whatever")))
            .unwrap()
            .trigger,
        Trigger::Submit
    );
}

#[test]
fn v1_messages_without_parts_parse_as_ai_4_1_sends_them() {
    let mut body = v1_body();
    for m in body["messages"].as_array_mut().unwrap() {
        m.as_object_mut().unwrap().remove("parts");
    }
    let request = parse_v1(&body).unwrap();
    assert_eq!(request.question(), "And on Windows?");
    assert_eq!(request.conversation[1].text, "Run the installer.");
}

#[test]
fn v1_messages_as_a_default_use_chat_sends_them_have_no_id_and_no_date() {
    let mut body = v1_body();
    for m in body["messages"].as_array_mut().unwrap() {
        let m = m.as_object_mut().unwrap();
        m.remove("id");
        m.remove("createdAt");
    }
    let request = parse_v1(&body).unwrap();
    assert_eq!(request.question(), "And on Windows?");
    assert_eq!(request.conversation.len(), 3);
    assert_eq!(request.question_id, None);
    assert_eq!(
        v1_error(set(body, "/messages/0/id", json!(1))),
        "messages[0].id: must be a string"
    );
}

#[test]
fn accepts_a_use_chat_v4_body_with_extra_fields() {
    let request = parse_v1(&v1_body()).unwrap();
    assert_eq!(
        request,
        AssistantRequest {
            fp: "anonymous".into(),
            thread_id: None,
            retrieval_page_size: 5,
            filter: SearchFilter::default(),
            context: vec![],
            current_path: None,
            trigger: Trigger::Submit,
            question_id: Some(
                request
                    .question_id
                    .clone()
                    .expect("the last message has an id")
            ),
            conversation: vec![
                Turn {
                    role: Role::User,
                    text: "How do I install it?".into()
                },
                Turn {
                    role: Role::Assistant,
                    text: "Run the installer.".into()
                },
                Turn {
                    role: Role::User,
                    text: "And on Windows?".into()
                },
            ],
        }
    );
    assert_eq!(request.question(), "And on Windows?");
}

#[test]
fn accepts_a_use_chat_v5_body_with_extra_fields_and_unknown_assistant_parts() {
    let request = parse_v2(&v2_body()).unwrap();
    assert_eq!(request.fp, "user-42");
    assert_eq!(request.thread_id.as_deref(), Some("t1"));
    assert_eq!(
        request.filter,
        SearchFilter {
            version: Some("v2".into()),
            language: Some("en".into()),
            tag: None,
            groups: vec!["staff".into()],
        }
    );
    assert_eq!(
        request.context,
        vec![ContextItem {
            kind: ContextKind::Code,
            value: "fn main() {}".into(),
            path: Some("src/main.rs".into()),
            element_id: Some("e1".into()),
        }]
    );
    assert_eq!(request.current_path.as_deref(), Some("/quickstart"));
    assert_eq!(
        request.conversation,
        vec![
            Turn {
                role: Role::User,
                text: "Hi".into()
            },
            Turn {
                role: Role::Assistant,
                text: "Hello!".into()
            },
            Turn {
                role: Role::User,
                text: "What is this?".into()
            },
        ]
    );
}

#[test]
fn v1_message_text_is_text_parts_joined_else_content() {
    let body = set(
        v1_body(),
        "/messages/2/parts",
        json!([{"type": "text", "text": "a"}, {"type": "step-start"}, {"type": "text", "text": "b"}]),
    );
    assert_eq!(parse_v1(&body).unwrap().question(), "a\nb");
    let body = set(v1_body(), "/messages/2/parts", json!([]));
    assert_eq!(parse_v1(&body).unwrap().question(), "And on Windows?");
}

#[test]
fn turns_without_text_are_dropped() {
    let body = set(
        v1_body(),
        "/messages/1/parts",
        json!([{"type": "step-start"}]),
    );
    let body = set(body, "/messages/1/content", json!(""));
    let roles: Vec<Role> = parse_v1(&body)
        .unwrap()
        .conversation
        .iter()
        .map(|t| t.role)
        .collect();
    assert_eq!(roles, [Role::User, Role::User]);
}

#[test]
fn optional_fields_accept_null() {
    let mut body = v1_body();
    for key in [
        "threadId",
        "filter",
        "retrievalPageSize",
        "context",
        "currentPath",
    ] {
        body = set(body, &format!("/{key}"), Value::Null);
    }
    let body = set(body, "/messages/0/createdAt", Value::Null);
    let request = parse_v1(&body).unwrap();
    assert_eq!(request.retrieval_page_size, DEFAULT_RETRIEVAL_PAGE_SIZE);
    assert_eq!(request.thread_id, None);
}

#[test]
fn empty_thread_id_and_filter_labels_mean_none() {
    let body = set(v1_body(), "/threadId", json!(""));
    let body = set(body, "/filter", json!({"version": "", "language": "fr"}));
    let request = parse_v1(&body).unwrap();
    assert_eq!(request.thread_id, None);
    assert_eq!(request.filter.version, None);
    assert_eq!(request.filter.language.as_deref(), Some("fr"));
}

#[test]
fn v1_ignores_filter_groups() {
    let body = set(v1_body(), "/filter", json!({"groups": ["admin"]}));
    assert!(parse_v1(&body).unwrap().filter.groups.is_empty());
}

#[test]
fn tool_result_is_optional_before_the_result_state() {
    let body = set(v1_body(), &format!("{TOOL}/state"), json!("call"));
    let body = remove(body, &format!("{TOOL}/result"));
    assert!(parse_v1(&body).is_ok());
}

#[test]
fn tool_args_may_be_null_but_must_be_present() {
    let body = set(v1_body(), &format!("{TOOL}/args"), Value::Null);
    assert!(parse_v1(&body).is_ok());
}

#[test]
fn bounds_accept_their_limits() {
    let body = set(v1_body(), "/fp", json!("f".repeat(MAX_FP_CHARS)));
    let body = set(body, "/threadId", json!("t".repeat(MAX_THREAD_ID_CHARS)));
    let body = set(body, "/retrievalPageSize", json!(20));
    let body = set(
        body,
        "/currentPath",
        json!("/".repeat(MAX_CURRENT_PATH_CHARS)),
    );
    let body = set(
        body,
        "/context",
        json!(vec![
            json!({"type": "textSelection", "value": "v".repeat(MAX_CONTEXT_VALUE_CHARS)});
            MAX_CONTEXT_ITEMS
        ]),
    );
    let text = "é".repeat(MAX_TEXT_CHARS);
    let body = set(body, "/messages/2/content", json!(text));
    let body = set(body, "/messages/2/parts/0/text", json!(text));
    assert!(parse_v1(&body).is_ok());

    let user = json!({"id": "u", "role": "user", "content": "q", "parts": []});
    let body = set(v1_body(), "/messages", json!(vec![user; MAX_MESSAGES]));
    assert!(parse_v1(&body).is_ok());
}
