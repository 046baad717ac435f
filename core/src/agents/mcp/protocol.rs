//! JSON-RPC 2.0 as MCP uses it: reading a POST body into messages, answering the lifecycle, tool
//! and resource methods, and the error objects.

use serde_json::{json, Value};

use super::jsonrpc::{error, result, ErrorCode, Reply};
use super::resources::{self, Document};
use super::server::ServerInfo;
use super::tools::{self, ArgError, ToolCall};

/// Revisions spoken, newest first.
pub const PROTOCOL_VERSIONS: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];
/// What a request without `MCP-Protocol-Version` is taken to speak (the transport's rule).
const WITHOUT_HEADER: &str = "2025-03-26";
/// The only revision with JSON-RPC batches.
const BATCHING: &str = "2025-03-26";
/// Messages in one batch at most: each may be a tool call, and a request's work stays bounded.
pub const MAX_BATCH: usize = 20;

/// One message of a POST body.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    Request {
        id: Value,
        method: String,
        params: Option<Value>,
    },
    Notification {
        method: String,
    },
    /// A response to a server request; this server sends none, so it is acknowledged and dropped.
    Response,
    /// Not a JSON-RPC message; `id` is the request's when it could be read, else null.
    Invalid {
        id: Value,
        reason: String,
    },
}

/// The messages of one POST body.
#[derive(Debug, Clone, PartialEq)]
pub struct Incoming {
    pub messages: Vec<Message>,
    /// The body was an array: the replies go back as an array.
    pub batch: bool,
}

/// What to do with one message.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Reply(Reply),
    /// Run the tool, then answer with [`super::tool_reply`].
    Call {
        id: Value,
        call: ToolCall,
    },
    /// See which documents the live version has, then answer with [`resources::list_reply`].
    ListResources {
        id: Value,
    },
    /// Read the document, then answer with [`resources::read_reply`].
    ReadResource {
        id: Value,
        document: Document,
    },
    /// Notifications and responses get no reply.
    Nothing,
}

/// The revision a request speaks, from its `MCP-Protocol-Version` header; `Err` (answered 400)
/// names the revisions spoken when the header names another.
pub fn header_version(header: Option<&str>) -> Result<&'static str, String> {
    let Some(value) = header.map(str::trim) else {
        return Ok(WITHOUT_HEADER);
    };
    PROTOCOL_VERSIONS
        .iter()
        .find(|v| **v == value)
        .copied()
        .ok_or_else(|| {
            format!(
                "MCP-Protocol-Version: unsupported revision `{}`; this server speaks {}",
                value.chars().take(40).collect::<String>(),
                PROTOCOL_VERSIONS.join(", ")
            )
        })
}

/// Reads a POST body. `Err` is the one reply to a body that is not JSON (-32700), an empty or
/// unsupported batch, or a single message that is not JSON-RPC (-32600); it goes back with 400.
pub fn parse_body(body: &[u8], version: &str) -> Result<Incoming, Reply> {
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        error(
            &Value::Null,
            ErrorCode::ParseError,
            &format!("Parse error: the body is not JSON ({e})"),
        )
    })?;
    match value {
        Value::Array(items) => {
            if version != BATCHING {
                return Err(error(
                    &Value::Null,
                    ErrorCode::InvalidRequest,
                    &format!("Invalid Request: JSON-RPC batches are not part of MCP {version}; send one message per request"),
                ));
            }
            if items.is_empty() || items.len() > MAX_BATCH {
                return Err(error(
                    &Value::Null,
                    ErrorCode::InvalidRequest,
                    &format!("Invalid Request: a batch holds 1 to {MAX_BATCH} messages"),
                ));
            }
            Ok(Incoming {
                messages: items.iter().map(read_message).collect(),
                batch: true,
            })
        }
        single => match read_message(&single) {
            Message::Invalid { id, reason } => Err(error(
                &id,
                ErrorCode::InvalidRequest,
                &format!("Invalid Request: {reason}"),
            )),
            message => Ok(Incoming {
                messages: vec![message],
                batch: false,
            }),
        },
    }
}

fn read_message(value: &Value) -> Message {
    let Some(object) = value.as_object() else {
        return invalid(Value::Null, "a message must be a JSON object");
    };
    let id = object.get("id");
    let valid_id = id.filter(|id| id.is_string() || id.is_i64() || id.is_u64());
    let reply_id = valid_id.cloned().unwrap_or(Value::Null);
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid(reply_id, "`jsonrpc` must be \"2.0\"");
    }
    match object.get("method") {
        Some(Value::String(method)) => {
            let params = object.get("params").cloned();
            match (id, valid_id) {
                (None, _) => Message::Notification {
                    method: method.clone(),
                },
                (Some(_), None) => invalid(Value::Null, "`id` must be a string or an integer"),
                (Some(_), Some(id)) => Message::Request {
                    id: id.clone(),
                    method: method.clone(),
                    params,
                },
            }
        }
        Some(_) => invalid(reply_id, "`method` must be a string"),
        None if object.contains_key("result") || object.contains_key("error") => Message::Response,
        None => invalid(reply_id, "`method` is required"),
    }
}

fn invalid(id: Value, reason: &str) -> Message {
    Message::Invalid {
        id,
        reason: reason.to_owned(),
    }
}

pub(crate) fn handle(message: &Message, version: &str, server: &ServerInfo<'_>) -> Step {
    let (id, method, params) = match message {
        Message::Request { id, method, params } => (id, method.as_str(), params.as_ref()),
        Message::Invalid { id, reason } => {
            return Step::Reply(error(
                id,
                ErrorCode::InvalidRequest,
                &format!("Invalid Request: {reason}"),
            ))
        }
        Message::Notification { .. } | Message::Response => return Step::Nothing,
    };
    let params = match params {
        None | Some(Value::Null) => None,
        Some(p @ Value::Object(_)) => Some(p),
        Some(_) => {
            return Step::Reply(error(
                id,
                ErrorCode::InvalidParams,
                "Invalid params: `params` must be an object",
            ))
        }
    };
    let reply = match method {
        "initialize" => initialize(id, params, server),
        "ping" => result(id, json!({})),
        "tools/list" => result(id, json!({ "tools": tools::definitions(version, server) })),
        "tools/call" => {
            return match tools::read_call(params, version, server) {
                Ok(call) => Step::Call {
                    id: id.clone(),
                    call,
                },
                Err(ArgError::Protocol(message)) => Step::Reply(error(
                    id,
                    ErrorCode::InvalidParams,
                    &format!("Invalid params: {message}"),
                )),
                Err(ArgError::Tool(message)) => {
                    Step::Reply(result(id, tools::error_result(&message)))
                }
            };
        }
        "resources/list" if server.search => return Step::ListResources { id: id.clone() },
        "resources/templates/list" if server.search => {
            result(id, json!({ "resourceTemplates": [] }))
        }
        "resources/read" if server.search => {
            let Some(uri) = params.and_then(|p| p.get("uri")).and_then(Value::as_str) else {
                return Step::Reply(error(
                    id,
                    ErrorCode::InvalidParams,
                    "Invalid params: `uri` (a string) is required",
                ));
            };
            return match Document::of_uri(uri, server.domain) {
                Some(document) => Step::ReadResource {
                    id: id.clone(),
                    document,
                },
                None => Step::Reply(resources::not_found(
                    id,
                    &uri.chars().take(200).collect::<String>(),
                )),
            };
        }
        other => {
            let offered = if server.search {
                "initialize, ping, tools/list, tools/call, resources/list and resources/read"
            } else {
                "initialize, ping, tools/list and tools/call"
            };
            error(
                id,
                ErrorCode::MethodNotFound,
                &format!(
                    "Method not found: `{}` (this server offers {offered})",
                    other.chars().take(80).collect::<String>()
                ),
            )
        }
    };
    Step::Reply(reply)
}

fn initialize(id: &Value, params: Option<&Value>, server: &ServerInfo<'_>) -> Reply {
    let Some(requested) = params
        .and_then(|p| p.get("protocolVersion"))
        .and_then(Value::as_str)
    else {
        return error(
            id,
            ErrorCode::InvalidParams,
            "Invalid params: `protocolVersion` (a string) is required",
        );
    };
    // The client's revision when spoken, else the newest: the client decides whether to go on.
    let version = PROTOCOL_VERSIONS
        .iter()
        .find(|v| **v == requested)
        .copied()
        .unwrap_or(PROTOCOL_VERSIONS[0]);
    let site = if server.site_name.trim().is_empty() {
        server.domain
    } else {
        server.site_name.trim()
    };
    result(
        id,
        json!({
            "protocolVersion": version,
            "capabilities": capabilities(server),
            "serverInfo": {
                "name": "docs-edge",
                "title": format!("{site} documentation"),
                "version": server.version,
            },
            "instructions": instructions(site, server),
        }),
    )
}

fn capabilities(server: &ServerInfo<'_>) -> Value {
    match server.search {
        true => json!({ "tools": { "listChanged": false }, "resources": { "listChanged": false } }),
        false => json!({ "tools": { "listChanged": false } }),
    }
}

/// What the model is told about the tools: only those the deployment's switches offer.
fn instructions(site: &str, server: &ServerInfo<'_>) -> String {
    let mut uses = Vec::new();
    if server.search {
        uses.push(
            "`search` to find the pages about a topic, `get_page` to read one page as Markdown",
        );
    }
    if server.assistant {
        uses.push("`ask` for an answer written from the documentation with its sources");
    }
    format!(
        "Documentation of {site} ({}). Use {}. Cite page URLs when you use them.",
        server.domain,
        uses.join(", and ")
    )
}
