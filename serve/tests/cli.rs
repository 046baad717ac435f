//! The built binary, started as an operator starts it. Being an integration test, it also makes
//! `cargo test` build the binary with the test run's features and profile, which is the binary
//! `npm test`'s integration tests run (tests/support/serve.mjs): no second build of core for it.

use std::process::Command;

#[test]
fn an_unknown_argument_stops_start_up_with_the_usage() {
    let out = Command::new(env!("CARGO_BIN_EXE_docs-edge-serve"))
        .arg("--bogus")
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(1));
    let line = String::from_utf8_lossy(&out.stderr);
    let event: serde_json::Value =
        serde_json::from_str(line.trim()).expect("one JSON line on stderr");
    assert_eq!(event["event"], "startup_failed");
    let error = event["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("`--bogus`") && error.contains("usage: docs-edge-serve [--config FILE]"),
        "{error}"
    );
}
