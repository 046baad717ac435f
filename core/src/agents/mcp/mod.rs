//! The MCP server of a docs site, sans IO: JSON-RPC 2.0 messages in, replies out, tool calls handed
//! to the caller (the worker), who runs them and turns their outcome into a reply here.
//!
//! Streamable HTTP transport, stateless: every POST carries its messages, no session id is issued
//! and no server-initiated stream is offered (GET is 405). Revisions spoken, newest first:
//! [`PROTOCOL_VERSIONS`]. `initialize` answers the client's revision when spoken, otherwise the
//! newest; later requests name theirs in the `MCP-Protocol-Version` header, and a request without
//! it is taken as 2025-03-26, as the transport says. Batches (JSON arrays) exist only in
//! 2025-03-26; later revisions removed them.
//!
//! `protocol` reads and answers JSON-RPC; `tools` defines the tools, reads their arguments and
//! formats their results; `jsonrpc` shapes replies and errors; `server` says what the server is and
//! offers; [`resources`] offers the site's documents for agents (`llms.txt`,
//! `skill.md`).

mod jsonrpc;
pub(crate) mod protocol;
pub mod resources;
mod server;
mod tools;

#[cfg(test)]
mod tests;

pub use jsonrpc::{ErrorCode, Reply};
pub use protocol::{header_version, parse_body, Incoming, Message, Step, PROTOCOL_VERSIONS};
pub use server::ServerInfo;
pub use tools::{
    excerpt, AskArgs, AskOutput, GetPageArgs, PageOutput, SearchArgs, SearchItem, SearchOutput,
    ToolCall, ToolOutcome,
};

/// Answers one message: a reply, a tool call for the caller to run, or nothing (notifications and
/// responses). `version` is the request's revision (see [`header_version`]).
pub fn handle(message: &Message, version: &str, server: &ServerInfo<'_>) -> Step {
    protocol::handle(message, version, server)
}

/// The reply to a tool call once it has run.
pub fn tool_reply(id: &serde_json::Value, outcome: ToolOutcome, version: &str) -> Reply {
    jsonrpc::result(id, tools::call_result(outcome, version))
}
