//! The worker's log lines: one JSON object per line, as `wrangler tail` and the tests read them.
//! Written through `serde_json::to_string`, the compact serializer every response already uses,
//! not through `Value`'s `Display`, which compiles a serializer of its own (its pretty form too).

use serde_json::Value;

pub fn info(line: &Value) {
    worker::console_log!("{}", text(line));
}

pub fn error(line: &Value) {
    worker::console_error!("{}", text(line));
}

fn text(line: &Value) -> String {
    // A `Value` always serializes; the fallback only keeps this infallible.
    serde_json::to_string(line).unwrap_or_default()
}
