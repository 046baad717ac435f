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
mod tests;
