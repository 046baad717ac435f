//! Through the server, on SQLite and (when `DOCS_EDGE_TEST_POSTGRES_URL` names a server) on
//! PostgreSQL: a question and a feedback comment full of personal data leave only masked text in
//! every table, in the thread and in the conversations CSV; the originals are nowhere.

use std::sync::Arc;

use axum::body::{to_bytes, Body};
use axum::http::Request;
use docs_edge_core::docs::archive::SourceTree;
use docs_edge_core::docs::build_site;
use docs_edge_core::export::SEARCH_INDEX_FILE;
use docs_edge_core::search::SearchIndex;
use docs_edge_core::security::signing::sha256_hex;
use serde_json::{json, Value};
use sqlx::Row;
use tower::ServiceExt;

use crate::state::State;
use crate::testing::{config_with, manifest, scratch, serving, ScratchPostgres};

const QUESTION: &str =
    "How do I unlock jane.doe@example.com? Card 4111 1111 1111 1111, key svc_0123456789abcdef, \
                        from 203.0.113.7, account cust_998877, IBAN DE89 3704 0044 0532 0130 00.";
const COMMENT: &str = "Call me on +44 20 7946 0958 or write to jane.doe@example.com";
/// What the reader wrote that must not be stored anywhere.
const ORIGINALS: &[&str] = &[
    "jane.doe@example.com",
    "4111 1111 1111 1111",
    "svc_0123456789abcdef",
    "203.0.113.7",
    "cust_998877",
    "DE89 3704",
    "7946 0958",
];

pub(crate) fn site_files() -> Vec<u8> {
    let mut tree = SourceTree::new();
    tree.insert(
        "docs.json".into(),
        br#"{"navigation": {"pages": ["index"]}}"#.to_vec(),
    );
    tree.insert(
        "index.mdx".into(),
        b"# Accounts\n\nTo unlock an account, reset its password from the dashboard.\n".to_vec(),
    );
    SearchIndex::build(&build_site(&tree).unwrap().pages).to_bytes()
}

fn request(method: &str, path: &str, key: &str, body: Option<Value>) -> Request<Body> {
    let builder = Request::builder()
        .method(method)
        .uri(path)
        .header("authorization", format!("Bearer {key}"));
    match body {
        Some(body) => builder
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap(),
        None => builder.body(Body::empty()).unwrap(),
    }
}

/// `question` as a v2 message with the test's assistant key (`svc_dsc_test`).
pub(crate) async fn ask_v2(app: &axum::Router, question: &str) -> axum::response::Response {
    let body = json!({"fp": "visitor", "messages": [{"id": "u1", "role": "user", "parts": [{"type": "text", "text": question}]}]});
    app.clone()
        .oneshot(request(
            "POST",
            "/discovery/v2/assistant/docs.example.com/message",
            "svc_dsc_test",
            Some(body),
        ))
        .await
        .unwrap()
}

pub(crate) async fn text_of(res: axum::response::Response) -> String {
    String::from_utf8(
        to_bytes(res.into_body(), usize::MAX)
            .await
            .unwrap()
            .to_vec(),
    )
    .unwrap()
}

/// Every text the store holds for the thread: messages, the answer row and the feedback row.
async fn stored_text(state: &State) -> String {
    let pool = state.store.ready().await.unwrap();
    let mut all = String::new();
    for sql in [
        "SELECT content AS t FROM messages",
        "SELECT question || ' | ' || question_key || ' | ' || answer AS t FROM answers",
        "SELECT COALESCE(comment, '') AS t FROM feedback",
    ] {
        for row in sqlx::query(sql).fetch_all(pool).await.unwrap() {
            all.push_str(&row.try_get::<String, _>("t").unwrap());
            all.push('\n');
        }
    }
    all
}

async fn masked_everywhere(name: &str, storage_url: Option<&str>) {
    let index = site_files();
    let mut vars = vec![
        ("DOCS_EDGE_ASSISTANT_ENABLED", "true".to_string()),
        (
            "DOCS_EDGE_ASSISTANT_KEY_SHA256",
            sha256_hex(b"svc_dsc_test"),
        ),
        ("DOCS_EDGE_ADMIN_KEY_SHA256", sha256_hex(b"admin-1")),
        ("FEATURE_ANALYTICS", "true".into()),
        ("DOCS_EDGE_PRIVACY_MASK_PATTERNS", "cust_*".into()),
    ];
    if let Some(url) = storage_url {
        vars.push(("DOCS_EDGE_STORAGE_URL", url.to_string()));
    }
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let files: Vec<(&str, &[u8])> =
        vec![("index.html", b"<p>home</p>"), (SEARCH_INDEX_FILE, &index)];
    let state: Arc<State> = serving(
        config_with(&vars, &scratch(name)),
        &manifest("se_privacy0000000000"),
        &files,
    );
    let app = crate::app(state.clone());

    let res = ask_v2(&app, QUESTION).await;
    assert_eq!(res.status(), 200);
    let thread_id = res.headers()["x-thread-id"].to_str().unwrap().to_string();
    let stream = text_of(res).await;
    let start: Value = stream
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .find_map(|l| serde_json::from_str(l).ok())
        .unwrap();
    let message_id = start["messageId"].as_str().unwrap().to_string();
    assert!(stream.contains("\"type\":\"finish\""), "{stream}");

    let rating = json!({"threadId": thread_id, "messageId": message_id, "rating": "down", "comment": COMMENT});
    let res = app
        .clone()
        .oneshot(request(
            "POST",
            "/discovery/v1/assistant/docs.example.com/feedback",
            "svc_dsc_test",
            Some(rating),
        ))
        .await
        .unwrap();
    assert_eq!(res.status(), 200);

    // The answer's row is written after its stream closed.
    let mut stored = String::new();
    for _ in 0..200 {
        stored = stored_text(&state).await;
        if stored.contains(" | ") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    let thread = text_of(
        app.clone()
            .oneshot(request(
                "GET",
                &format!("/v1/threads/{thread_id}"),
                "admin-1",
                None,
            ))
            .await
            .unwrap(),
    )
    .await;
    let csv_path = "/v1/analytics/docs.example.com/conversations.csv";
    let csv = text_of(
        app.clone()
            .oneshot(request("GET", csv_path, "admin-1", None))
            .await
            .unwrap(),
    )
    .await;
    for (place, text) in [
        ("the database", &stored),
        ("the thread", &thread),
        ("the CSV", &csv),
    ] {
        for original in ORIGINALS {
            assert!(
                !text.contains(original),
                "{name}: {original:?} in {place}: {text}"
            );
        }
        for label in [
            "[email]", "[card]", "[secret]", "[ip]", "[masked]", "[iban]",
        ] {
            assert!(
                text.contains(label),
                "{name}: no {label} in {place}: {text}"
            );
        }
    }
    assert!(
        stored.contains("Call me on [phone] or write to [email]"),
        "{name}: the comment, masked: {stored}"
    );
    assert!(
        stored.contains("how do i unlock email card card key secret"),
        "{name}: the grouping key is made after masking: {stored}"
    );
}

#[tokio::test]
async fn sqlite_stores_only_masked_reader_text() {
    masked_everywhere("privacy-sqlite", None).await;
}

#[tokio::test]
async fn postgres_stores_only_masked_reader_text() {
    let Some(database) = ScratchPostgres::create("docs_edge_privacy").await else {
        return;
    };
    masked_everywhere("privacy-postgres", Some(&database.url)).await;
    database.drop_database().await;
}
