//! Assistant request rules (v1 and v2) into one normalized request.
//!
//! v1 (`POST /discovery/v1/assistant/{domain}/message`) is what AI SDK v4 `useChat` posts
//! (messages with `content` and `parts`); v2 is what AI SDK v5+ `DefaultChatTransport` posts
//! (messages with `parts` only). Both become one [`AssistantRequest`], so nothing after this
//! module knows which version the client spoke.
//!
//! Rules are the specification's §2.1 plus the bounds below. Unknown fields are accepted
//! everywhere because real clients send many (`id`, `data`, `trigger`, `messageId`,
//! `toolInvocations`, `providerMetadata`, `state`, …). The first broken rule is reported, in the
//! order of the specification's tables (see `crate::http::validate`).
//!
//! Decisions where the specification is silent:
//! - The last message must be a `user` message with non-empty text: it is the question. Both
//!   `useChat` generations end the list with the user turn (v5 `regenerate` drops the old answer
//!   first), and this service runs no client-side tools that would end it with an assistant turn.
//! - Part types outside the documented kinds are ignored on assistant messages (v5 stores
//!   `tool-<name>`, `dynamic-tool`, `data-<name>`, `source-document` there, v4 stores `file`),
//!   and rejected on the other roles, where nothing but the documented kinds is ever sent.
//! - `retrievalPageSize` must be a whole number from 1 to 20 (default 5): every result adds prompt
//!   tokens and search work, and 20 is four times the recommended value.
//! - An empty `threadId`, `filter.version` or `filter.language` means "none".
//! - `threadId` is limited to visible ASCII because it is echoed in the `x-thread-id` header.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::http::validate::{integer_in, max_chars, max_items, object, FieldError, Obj, Path};
use crate::wire::SearchFilter;

pub const MAX_MESSAGES: usize = 100;
/// A message's `content`, each text part, and the text parts of one message together.
pub const MAX_TEXT_CHARS: usize = 32_000;
pub const MAX_CONTEXT_ITEMS: usize = 20;
pub const MAX_CONTEXT_VALUE_CHARS: usize = 8_000;
pub const MAX_FP_CHARS: usize = 200;
pub const MAX_THREAD_ID_CHARS: usize = 100;
pub const MAX_CURRENT_PATH_CHARS: usize = 200;
/// Context `path` and `elementId`, filter `version`, `language` and each group (search's rule).
pub use crate::search::api::{MAX_FILTER_GROUPS, MAX_LABEL_CHARS};
pub const DEFAULT_RETRIEVAL_PAGE_SIZE: usize = 5;
pub const MIN_RETRIEVAL_PAGE_SIZE: u32 = 1;
pub const MAX_RETRIEVAL_PAGE_SIZE: u32 = 20;

/// A validated assistant request, the same whichever API version it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssistantRequest {
    pub fp: String,
    /// `None` when the client starts a new thread.
    pub thread_id: Option<String>,
    pub retrieval_page_size: usize,
    /// `tag` is always `None`: assistant requests cannot filter by tag.
    pub filter: SearchFilter,
    pub context: Vec<ContextItem>,
    pub current_path: Option<String>,
    /// What the client asks for: a new answer, or another answer in place of an earlier one.
    pub trigger: Trigger,
    /// The client's id of the question (the last message), so that a resent question (v4 `reload()`,
    /// v5+ `regenerate()`) replaces its earlier answer instead of adding a second one.
    pub question_id: Option<String>,
    /// Every message that carries text, in order; the last one is the user's question.
    /// Client-sent `system` (and v1 `data`) turns are kept with their role: whoever builds the
    /// prompt decides how much to trust them.
    pub conversation: Vec<Turn>,
}

/// AI SDK v5+ `trigger` (v1 requests are always `Submit`; a v4 `reload()` is recognised by its
/// resent question id).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Trigger {
    Submit,
    /// `regenerate-message`; `message_id` names the answer to replace (`messageId`).
    Regenerate {
        message_id: Option<String>,
    },
}

pub const MAX_MESSAGE_ID_CHARS: usize = 100;

impl AssistantRequest {
    /// The user's question (the text of the last turn).
    pub fn question(&self) -> &str {
        self.conversation
            .last()
            .map_or("", |turn| turn.text.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextItem {
    pub kind: ContextKind,
    pub value: String,
    pub path: Option<String>,
    pub element_id: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ContextKind {
    Code,
    TextSelection,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub role: Role,
    /// The message's text parts joined with `\n` (v1: `content` when it has no text part).
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
    /// v1 only (AI SDK v4 data messages).
    Data,
}

impl Role {
    fn parse(name: &str) -> Option<Role> {
        match name {
            "system" => Some(Role::System),
            "user" => Some(Role::User),
            "assistant" => Some(Role::Assistant),
            "data" => Some(Role::Data),
            _ => None,
        }
    }
}

/// Validates a v1 request body (AI SDK v4 `useChat`).
pub fn parse_v1(body: &Value) -> Result<AssistantRequest, FieldError> {
    parse(body, Version::V1)
}

/// Validates a v2 request body (AI SDK v5+ `DefaultChatTransport`).
pub fn parse_v2(body: &Value) -> Result<AssistantRequest, FieldError> {
    parse(body, Version::V2)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Version {
    V1,
    V2,
}

const V1_ROLES: &[&str] = &["system", "assistant", "data", "user"];
const V2_ROLES: &[&str] = &["system", "assistant", "user"];
const V1_PART_TYPES: &str = "text, reasoning, step-start, source, tool-invocation";
const V2_PART_TYPES: &str = "text, reasoning, source-url, file, step-start";

fn parse(body: &Value, version: Version) -> Result<AssistantRequest, FieldError> {
    let root = object(body, &Path::root())?;
    let fp = root.req_str_max("fp", MAX_FP_CHARS)?;
    if fp.trim().is_empty() {
        return Err(root
            .field_path("fp")
            .error("must not be empty (send \"anonymous\" for anonymous users)"));
    }
    let question_id = root
        .req_array("messages")?
        .last()
        .and_then(|m| m.get("id"))
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty() && id.chars().count() <= MAX_MESSAGE_ID_CHARS)
        .map(str::to_string);
    let conversation = conversation(&root, version)?;
    let thread_id = thread_id(&root)?;
    let trigger = match version {
        Version::V1 => Trigger::Submit,
        Version::V2 => trigger(&root)?,
    };
    let retrieval_page_size = match root.opt_number("retrievalPageSize")? {
        None => DEFAULT_RETRIEVAL_PAGE_SIZE,
        Some(n) => integer_in(
            n,
            MIN_RETRIEVAL_PAGE_SIZE,
            MAX_RETRIEVAL_PAGE_SIZE,
            &root.field_path("retrievalPageSize"),
        )? as usize,
    };
    let filter = filter(&root, version)?;
    let context = context(&root)?;
    let current_path = root
        .opt_str_max("currentPath", MAX_CURRENT_PATH_CHARS)?
        .map(str::to_string);
    Ok(AssistantRequest {
        fp: fp.to_string(),
        thread_id,
        retrieval_page_size,
        filter,
        context,
        current_path,
        trigger,
        question_id,
        conversation,
    })
}

fn trigger(root: &Obj) -> Result<Trigger, FieldError> {
    let message_id = root
        .opt_str_max("messageId", MAX_MESSAGE_ID_CHARS)?
        .filter(|id| !id.is_empty())
        .map(str::to_string);
    match root.opt_str("trigger")? {
        None | Some("submit-message") => Ok(Trigger::Submit),
        Some("regenerate-message") => Ok(Trigger::Regenerate { message_id }),
        Some(_) => Err(root
            .field_path("trigger")
            .error("must be one of submit-message, regenerate-message")),
    }
}

fn thread_id(root: &Obj) -> Result<Option<String>, FieldError> {
    let Some(id) = root.opt_str_max("threadId", MAX_THREAD_ID_CHARS)? else {
        return Ok(None);
    };
    if id.is_empty() {
        return Ok(None);
    }
    if !id.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(root
            .field_path("threadId")
            .error("must contain only visible ASCII characters"));
    }
    Ok(Some(id.to_string()))
}

fn filter(root: &Obj, version: Version) -> Result<SearchFilter, FieldError> {
    let Some(filter) = root.opt_object("filter")? else {
        return Ok(SearchFilter::default());
    };
    let label = |key: &str| -> Result<Option<String>, FieldError> {
        let value = filter.opt_str_max(key, MAX_LABEL_CHARS)?;
        Ok(value.filter(|s| !s.is_empty()).map(str::to_string))
    };
    let version_label = label("version")?;
    let language = label("language")?;
    // v1 has no groups; a v1 client sending them gets them ignored like any unknown field.
    let groups = match version {
        Version::V1 => Vec::new(),
        Version::V2 => crate::search::api::groups(&filter)?,
    };
    Ok(SearchFilter {
        version: version_label,
        language,
        tag: None,
        groups,
    })
}

fn context(root: &Obj) -> Result<Vec<ContextItem>, FieldError> {
    let Some(items) = root.opt_array("context")? else {
        return Ok(Vec::new());
    };
    let path = root.field_path("context");
    max_items(items, MAX_CONTEXT_ITEMS, &path)?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let item = object(item, &path.index(i))?;
            let kind = match item.req_enum("type", &["code", "textSelection"])? {
                "code" => ContextKind::Code,
                _ => ContextKind::TextSelection,
            };
            let value = item.req_str_max("value", MAX_CONTEXT_VALUE_CHARS)?;
            let path = item.opt_str_max("path", MAX_LABEL_CHARS)?;
            let element_id = item.opt_str_max("elementId", MAX_LABEL_CHARS)?;
            Ok(ContextItem {
                kind,
                value: value.to_string(),
                path: path.map(str::to_string),
                element_id: element_id.map(str::to_string),
            })
        })
        .collect()
}

/// One validated message: its turn, and the field to blame if its text is required but empty.
struct Message {
    turn: Turn,
    text_path: Path,
}

fn conversation(root: &Obj, version: Version) -> Result<Vec<Turn>, FieldError> {
    let path = root.field_path("messages");
    let items = root.req_array("messages")?;
    let Some(last_index) = items.len().checked_sub(1) else {
        return Err(path.error("must contain at least one message"));
    };
    max_items(items, MAX_MESSAGES, &path)?;

    let mut messages = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let message = object(item, &path.index(i))?;
        messages.push(match version {
            Version::V1 => v1_message(&message)?,
            Version::V2 => v2_message(&message)?,
        });
    }

    if let Some(last) = messages.last() {
        if last.turn.role != Role::User {
            return Err(path
                .index(last_index)
                .key("role")
                .error("the last message must be the user's (role user)"));
        }
        if last.turn.text.trim().is_empty() {
            return Err(last
                .text_path
                .error("the last message must have non-empty text"));
        }
    }
    // Turns without text (tool-only steps) carry nothing a prompt can use.
    Ok(messages
        .into_iter()
        .map(|m| m.turn)
        .filter(|turn| !turn.text.trim().is_empty())
        .collect())
}

fn role(message: &Obj, allowed: &[&str]) -> Result<Role, FieldError> {
    let name = message.req_enum("role", allowed)?;
    // `allowed` only lists names `Role::parse` knows.
    Role::parse(name).ok_or_else(|| message.field_path("role").error("is not a known role"))
}

fn joined_text(texts: Vec<&str>, parts_path: &Path) -> Result<String, FieldError> {
    let text = texts.join("\n");
    if texts.len() > 1 {
        max_chars(&text, MAX_TEXT_CHARS, parts_path).map_err(|_| {
            parts_path.error(format!(
                "text parts together must be at most {MAX_TEXT_CHARS} characters"
            ))
        })?;
    }
    Ok(text)
}

fn v1_message(message: &Obj) -> Result<Message, FieldError> {
    // A default ai@4 `useChat` (`sendExtraMessageFields: false`) sends role, content, parts,
    // attachments, data, annotations and tool invocations only: no `id`, no `createdAt`.
    message.opt_str("id")?;
    let role = role(message, V1_ROLES)?;
    message.opt_date_time("createdAt")?;
    let content = message.req_str_max("content", MAX_TEXT_CHARS)?;
    message.opt_array("annotations")?;
    let parts_path = message.field_path("parts");
    let mut texts = Vec::new();
    // `parts` arrived in ai@4.2; ai@4.1 clients send `content` (and `toolInvocations`) only.
    for (j, part) in message
        .opt_array("parts")?
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let part = object(part, &parts_path.index(j))?;
        if let Some(text) = v1_part(&part, role)? {
            texts.push(text);
        }
    }
    attachments(message)?;

    let (text, text_path) = if texts.is_empty() {
        (content.to_string(), message.field_path("content"))
    } else {
        (joined_text(texts, &parts_path)?, parts_path)
    };
    Ok(Message {
        turn: Turn { role, text },
        text_path,
    })
}

/// The text a v1 part contributes to the conversation, after checking its rules.
fn v1_part<'a>(part: &Obj<'a>, role: Role) -> Result<Option<&'a str>, FieldError> {
    match part.req_str("type")? {
        "text" => return part.req_str_max("text", MAX_TEXT_CHARS).map(Some),
        "reasoning" => {
            part.req_str("reasoning")?;
            reasoning_details(part)?;
        }
        "step-start" => {}
        "source" => {
            let source = part.req_object("source")?;
            source.req_enum("sourceType", &["url"])?;
            source.req_str("id")?;
            source.req_str("url")?;
            source.opt_str("title")?;
        }
        "tool-invocation" => tool_invocation(&part.req_object("toolInvocation")?)?,
        _ if role == Role::Assistant => {}
        _ => {
            return Err(part
                .field_path("type")
                .error(format!("must be one of {V1_PART_TYPES}")))
        }
    }
    Ok(None)
}

fn reasoning_details(part: &Obj) -> Result<(), FieldError> {
    let path = part.field_path("details");
    for (k, detail) in part.req_array("details")?.iter().enumerate() {
        let detail = object(detail, &path.index(k))?;
        if detail.req_enum("type", &["text", "redacted"])? == "text" {
            detail.req_str("text")?;
            detail.opt_str("signature")?;
        } else {
            detail.req_str("data")?;
        }
    }
    Ok(())
}

fn tool_invocation(invocation: &Obj) -> Result<(), FieldError> {
    let state = invocation.req_enum("state", &["partial-call", "call", "result"])?;
    invocation.opt_number("step")?;
    invocation.req_str("toolCallId")?;
    invocation.req_str("toolName")?;
    invocation.present("args")?;
    if state == "result" {
        invocation.present("result").map_err(|e| FieldError {
            rule: "is required when state is result".to_string(),
            ..e
        })?;
    }
    Ok(())
}

fn attachments(message: &Obj) -> Result<(), FieldError> {
    let Some(items) = message.opt_array("experimental_attachments")? else {
        return Ok(());
    };
    let path = message.field_path("experimental_attachments");
    for (k, item) in items.iter().enumerate() {
        let attachment = object(item, &path.index(k))?;
        attachment.opt_str("name")?;
        attachment.opt_str("contentType")?;
        attachment.req_str("url")?;
    }
    Ok(())
}

fn v2_message(message: &Obj) -> Result<Message, FieldError> {
    message.req_str("id")?;
    let role = role(message, V2_ROLES)?;
    message.opt_date_time("createdAt")?;
    let parts_path = message.field_path("parts");
    let mut texts = Vec::new();
    for (j, part) in message.req_array("parts")?.iter().enumerate() {
        let part = object(part, &parts_path.index(j))?;
        if let Some(text) = v2_part(&part, role)? {
            texts.push(text);
        }
    }
    message.opt_object("metadata")?;
    Ok(Message {
        turn: Turn {
            role,
            text: joined_text(texts, &parts_path)?,
        },
        text_path: parts_path,
    })
}

fn v2_part<'a>(part: &Obj<'a>, role: Role) -> Result<Option<&'a str>, FieldError> {
    match part.req_str("type")? {
        "text" => return part.req_str_max("text", MAX_TEXT_CHARS).map(Some),
        "reasoning" => {
            part.req_str("text")?;
        }
        "source-url" => {
            part.req_str("sourceId")?;
            part.req_str("url")?;
            part.opt_str("title")?;
        }
        "file" => {
            part.req_str("mediaType")?;
            part.req_str("url")?;
            part.opt_str("filename")?;
        }
        "step-start" => {}
        _ if role == Role::Assistant => {}
        _ => {
            return Err(part
                .field_path("type")
                .error(format!("must be one of {V2_PART_TYPES}")))
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
}
