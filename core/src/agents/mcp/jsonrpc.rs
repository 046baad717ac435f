//! JSON-RPC 2.0 reply and error objects, and the error codes MCP uses.

use serde_json::{json, Value};

/// A JSON-RPC response object (`{"jsonrpc": "2.0", "id": …, "result" | "error": …}`).
pub type Reply = Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    ParseError = -32700,
    InvalidRequest = -32600,
    MethodNotFound = -32601,
    InvalidParams = -32602,
    /// The specification's code for a resource that does not exist.
    ResourceNotFound = -32002,
}

pub(super) fn result(id: &Value, result: Value) -> Reply {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

pub(super) fn error(id: &Value, code: ErrorCode, message: &str) -> Reply {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code as i32, "message": message } })
}

pub(super) fn error_with_data(id: &Value, code: ErrorCode, message: &str, data: Value) -> Reply {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code as i32, "message": message, "data": data } })
}
