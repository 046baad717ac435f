//! Through the server: an answer's finish carries the bundle's support link (docs.json's, from its
//! manifest), and an answer the docs do not cover is marked unanswered, as on the worker.

use docs_edge_core::export::SEARCH_INDEX_FILE;
use docs_edge_core::security::signing::sha256_hex;
use serde_json::Value;

use crate::privacy_tests::{ask_v2, site_files, text_of};
use crate::testing::{config_with, manifest, scratch, serving};

const SUPPORT: &str = "mailto:help@example.com";

/// The metadata of the finish chunk of a v2 answer to `question`, from a bundle whose manifest
/// names `support`.
async fn finish_metadata(name: &str, support: Option<&str>, question: &str) -> Value {
    let index = site_files();
    let hash = sha256_hex(b"svc_dsc_test");
    let vars = [
        ("DOCS_EDGE_ASSISTANT_ENABLED", "true"),
        ("DOCS_EDGE_ASSISTANT_KEY_SHA256", hash.as_str()),
    ];
    let mut bundle = manifest("se_support0000000000");
    bundle.support = support.map(str::to_string);
    let files: Vec<(&str, &[u8])> =
        vec![("index.html", b"<p>home</p>"), (SEARCH_INDEX_FILE, &index)];
    let app = crate::app(serving(config_with(&vars, &scratch(name)), &bundle, &files));
    let res = ask_v2(&app, question).await;
    assert_eq!(res.status(), 200);
    let stream = text_of(res).await;
    stream
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|chunk| chunk["type"] == "finish")
        .unwrap_or_else(|| panic!("no finish: {stream}"))["messageMetadata"]
        .clone()
}

#[tokio::test]
async fn the_finish_names_the_bundles_support_link_and_marks_what_the_docs_do_not_cover() {
    for (name, support, question, unanswered) in [
        (
            "support-answered",
            Some(SUPPORT),
            "How do I unlock an account?",
            None,
        ),
        (
            "support-refused",
            Some(SUPPORT),
            "Can penguins teleport quantum marmalade?",
            Some(true),
        ),
        ("support-none", None, "How do I unlock an account?", None),
    ] {
        let metadata = finish_metadata(name, support, question).await;
        assert_eq!(
            metadata.get("support").and_then(Value::as_str),
            support,
            "{metadata}"
        );
        assert_eq!(
            metadata.get("unanswered").and_then(Value::as_bool),
            unanswered,
            "{metadata}"
        );
    }
}
