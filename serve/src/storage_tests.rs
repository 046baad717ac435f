//! The store on SQLite (a file in a scratch folder) and, when `DOCS_EDGE_TEST_POSTGRES_URL` names a
//! server, on PostgreSQL too: the same calls, the same answers, two replicas sharing one thread.

use docs_edge_core::analytics::csv::row_line;
use docs_edge_core::analytics::input::{Feedback, Rating};
use docs_edge_core::analytics::range::DayRange;
use docs_edge_core::analytics::record::{AnswerFacts, AnswerRow};
use docs_edge_core::analytics::report::build_report;
use docs_edge_core::wire::thread::{StoredMessage, MAX_STORED_CHARS, MAX_STORED_MESSAGES};

use crate::config::{Secret, Storage};
use crate::storage::{Append, Store};
use crate::testing::{scratch, ScratchPostgres};

const DAY_MS: u64 = 86_400_000;

fn store(url: String) -> Store {
    Store::new(&Storage {
        url: Secret::new(url),
        thread_retention_days: 90,
        analytics_retention_days: 90,
    })
    .unwrap()
}

fn turn(role: &str, id: &str, content: &str) -> StoredMessage {
    StoredMessage {
        id: Some(id.into()),
        role: role.into(),
        content: content.into(),
        created_at: "2026-01-01T00:00:00.000Z".into(),
        sources: Vec::new(),
    }
}

fn append<'a>(
    thread: &'a str,
    create: bool,
    keep: Option<usize>,
    now_ms: u64,
    messages: Vec<StoredMessage>,
) -> Append<'a> {
    Append {
        thread_id: thread,
        domain: "docs.example.com",
        create,
        keep,
        now: "2026-01-01T00:00:00.000Z",
        now_ms,
        messages,
    }
}

fn answer_row(
    message_id: &str,
    thread: &str,
    question: &str,
    cited: &[String],
    at_ms: u64,
    new_thread: bool,
) -> AnswerRow {
    AnswerRow::new(&AnswerFacts {
        message_id,
        thread_id: thread,
        org_id: crate::storage::ORG_ID,
        domain: "docs.example.com",
        started_ms: at_ms,
        first_byte_ms: at_ms + 40,
        finished_ms: at_ms + 300,
        question: &docs_edge_core::privacy::Masker::default().mask(question),
        answer: "=an answer, with a comma",
        scores: &[0.9],
        cited_paths: cited,
        uncertain: false,
        unanswered: false,
        backend: "openai",
        fingerprint: None,
        salt: None,
        new_thread,
    })
}

async fn threads_are_kept_replaced_and_bounded(store: &Store) {
    let id = "thr_a";
    assert!(
        !store
            .append(append(
                id,
                false,
                None,
                DAY_MS,
                vec![turn("user", "u1", "q?")]
            ))
            .await
            .unwrap(),
        "no thread yet, none created"
    );
    assert!(store
        .append(append(
            id,
            true,
            None,
            DAY_MS,
            vec![turn("user", "u1", "one?"), turn("assistant", "m1", "One.")]
        ))
        .await
        .unwrap());
    assert!(store
        .append(append(
            id,
            false,
            None,
            DAY_MS,
            vec![turn("user", "u2", "two?"), turn("assistant", "m2", "Two.")]
        ))
        .await
        .unwrap());
    // A regenerate of the second answer keeps the first two messages and replaces the rest.
    assert!(store
        .append(append(
            id,
            false,
            Some(2),
            DAY_MS,
            vec![
                turn("user", "u2", "two?"),
                turn("assistant", "m3", "Two, again.")
            ]
        ))
        .await
        .unwrap());
    let record = store
        .thread(id, Some("docs.example.com"))
        .await
        .unwrap()
        .unwrap();
    let ids: Vec<_> = record
        .messages
        .iter()
        .map(|m| m.id.clone().unwrap())
        .collect();
    assert_eq!(ids, ["u1", "m1", "u2", "m3"]);
    assert_eq!(record.org_id, "self-hosted");
    assert!(
        store
            .thread(id, Some("other.example.com"))
            .await
            .unwrap()
            .is_none(),
        "another domain's thread is unknown"
    );
    assert!(store.thread("thr_none", None).await.unwrap().is_none());

    let long = "thr_long";
    let many: Vec<_> = (0..MAX_STORED_MESSAGES + 4)
        .map(|i| turn("user", &format!("u{i}"), "x"))
        .collect();
    assert!(store
        .append(append(long, true, None, DAY_MS, many))
        .await
        .unwrap());
    assert!(store
        .append(append(
            long,
            false,
            None,
            DAY_MS,
            vec![turn("user", "last", &"y".repeat(MAX_STORED_CHARS + 10))]
        ))
        .await
        .unwrap());
    let record = store.thread(long, None).await.unwrap().unwrap();
    assert_eq!(
        record.messages.len(),
        MAX_STORED_MESSAGES,
        "the oldest turns went"
    );
    assert_eq!(record.messages[0].id.as_deref(), Some("u5"));
    assert_eq!(
        record.messages.last().unwrap().content.chars().count(),
        MAX_STORED_CHARS
    );
}

async fn feedback_and_answers_make_the_report_and_the_csv(store: &Store) {
    let day = 20_000;
    let at = day as u64 * DAY_MS + 1000;
    let cited = vec!["guides/publish".to_string()];
    let (t1, t2) = ("thr_1", "thr_2");
    let (m1, m2, m3) = ("msg_1", "msg_2", "msg_3");
    store
        .record_answer(&answer_row(m1, t1, "How do I publish?", &cited, at, true))
        .await
        .unwrap();
    store
        .record_answer(&answer_row(
            m2,
            t1,
            "how do I  publish",
            &cited,
            at + 5,
            false,
        ))
        .await
        .unwrap();
    store
        .record_answer(&answer_row(m3, t2, "Is there a CLI?", &[], at + 9, true))
        .await
        .unwrap();
    // Only the closest passage quoted: a coverage gap too, counted apart from the unanswered.
    let hedged = AnswerRow {
        uncertain: true,
        ..answer_row("msg_4", t2, "Can it run offline?", &cited, at + 11, false)
    };
    store.record_answer(&hedged).await.unwrap();
    let rate = |message: &str, thread: &str, rating| Feedback {
        thread_id: thread.into(),
        message_id: message.into(),
        rating,
        comment: None,
    };
    store
        .put_feedback(&rate(m1, t1, Rating::Down), "docs.example.com", at + 20)
        .await
        .unwrap();
    store
        .put_feedback(&rate(m1, t1, Rating::Up), "docs.example.com", at + 30)
        .await
        .unwrap();
    store
        .put_feedback(&rate(m3, t2, Rating::Down), "docs.example.com", at + 40)
        .await
        .unwrap();

    let range = DayRange {
        first: day,
        last: day,
    };
    let report = build_report(
        "docs.example.com",
        &range,
        store.report_rows("docs.example.com", &range).await.unwrap(),
    );
    let report = serde_json::to_value(&report).unwrap();
    let totals = &report["totals"];
    assert_eq!(
        (
            totals["conversations"].as_u64(),
            totals["questions"].as_u64()
        ),
        (Some(2), Some(4)),
        "{report}"
    );
    assert_eq!(
        (
            totals["feedbackUp"].as_u64(),
            totals["feedbackDown"].as_u64()
        ),
        (Some(1), Some(1)),
        "one rating per answer: {report}"
    );
    assert_eq!(
        (totals["unanswered"].as_u64(), totals["uncertain"].as_u64()),
        (Some(1), Some(1)),
        "{report}"
    );
    assert_eq!(
        report["topQuestions"][0]["question"], "how do I  publish",
        "the latest wording labels the group: {report}"
    );
    assert_eq!(report["topQuestions"][0]["count"], 2);
    let gaps: Vec<&str> = report["coverageGaps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["question"].as_str())
        .collect();
    assert_eq!(gaps, ["Can it run offline?", "Is there a CLI?"], "{report}");
    assert_eq!(report["topCitedPages"][0]["path"], "guides/publish");

    let rows = store
        .conversations_page("docs.example.com", &range, None)
        .await
        .unwrap();
    let lines: Vec<String> = rows.iter().map(|(row, _)| row_line(row)).collect();
    assert_eq!(lines.len(), 4);
    assert!(
        lines[0].starts_with(&format!("{t1},")) && lines[0].ends_with(",up\r\n"),
        "{}",
        lines[0]
    );
    assert!(
        lines[0].contains("\"'=an answer, with a comma\""),
        "{}",
        lines[0]
    );
    let after = store
        .conversations_page("docs.example.com", &range, Some(&rows[1].1))
        .await
        .unwrap();
    assert_eq!(after.len(), 2, "the cursor pages on");

    // Retention: rows before the cutoff and threads idle since before theirs go.
    let old = "thr_old";
    assert!(store
        .append(append(old, true, None, at, vec![turn("user", "u", "q")]))
        .await
        .unwrap());
    let deleted = store.delete_expired(Some(at + 1), at + 100).await.unwrap();
    assert!(deleted >= 6, "{deleted}");
    assert!(store.thread(old, None).await.unwrap().is_none());
    assert_eq!(
        store
            .conversations_page("docs.example.com", &range, None)
            .await
            .unwrap()
            .len(),
        0,
        "answers before the cutoff went"
    );
}

async fn exercise(store: &Store) {
    threads_are_kept_replaced_and_bounded(store).await;
    feedback_and_answers_make_the_report_and_the_csv(store).await;
}

async fn eight_turns(replica: &Store, name: &str) {
    for i in 0..8 {
        let id = format!("{name}{i}");
        assert!(replica
            .append(append(
                "thr_shared",
                false,
                None,
                DAY_MS,
                vec![turn("user", &id, "q"), turn("assistant", &id, "a")]
            ))
            .await
            .unwrap());
    }
}

/// Two stores on one database (two replicas) appending to one thread at once: every turn is kept,
/// in one order both see, none lost to a colliding sequence number.
async fn replicas_share_one_thread(url: &str) {
    let (a, b) = (store(url.to_string()), store(url.to_string()));
    assert!(a
        .append(append(
            "thr_shared",
            true,
            None,
            DAY_MS,
            vec![turn("user", "first", "q")]
        ))
        .await
        .unwrap());
    tokio::join!(eight_turns(&a, "a"), eight_turns(&b, "b"));
    let seen_by_a = a
        .thread("thr_shared", None)
        .await
        .unwrap()
        .unwrap()
        .messages;
    let seen_by_b = b
        .thread("thr_shared", None)
        .await
        .unwrap()
        .unwrap()
        .messages;
    assert_eq!(seen_by_a.len(), 1 + 2 * 16);
    assert_eq!(seen_by_a, seen_by_b);
    // Each turn's question and answer stay together.
    for pair in seen_by_a[1..].chunks(2) {
        assert_eq!(
            (pair[0].role.as_str(), pair[1].role.as_str()),
            ("user", "assistant")
        );
        assert_eq!(pair[0].id, pair[1].id);
    }
}

/// The store on one database, then again from a new pool on it (a restart): migrations run once,
/// what was stored is there.
async fn stores_and_survives_a_restart(url: &str) {
    let first = store(url.to_string());
    assert!(first
        .append(append(
            "thr_kept",
            true,
            None,
            crate::state::now_ms(),
            vec![turn("user", "u", "q")]
        ))
        .await
        .unwrap());
    exercise(&first).await;
    let again = store(url.to_string());
    assert!(again.thread("thr_kept", None).await.unwrap().is_some());
    replicas_share_one_thread(url).await;
}

#[tokio::test]
async fn sqlite_stores_threads_feedback_and_analytics_in_a_wal_file() {
    let dir = scratch("storage-sqlite");
    let file = dir.join("docs-edge.db");
    stores_and_survives_a_restart(&format!("sqlite://{}?mode=rwc", file.display())).await;
    assert!(
        dir.join("docs-edge.db-wal").exists(),
        "write-ahead log mode"
    );
}

/// The URL sqlx documents, without `?mode=rwc`, in a folder that does not exist yet: both are made.
#[tokio::test]
async fn a_sqlite_url_creates_its_file_when_missing() {
    let dir = scratch("storage-sqlite-create");
    let file = dir.join("var/lib/docs-edge/db");
    let created = store(format!("sqlite://{}", file.display()));
    created.ready().await.unwrap();
    assert!(file.is_file(), "the database file is made");
    assert!(created
        .append(append(
            "thr_new",
            true,
            None,
            DAY_MS,
            vec![turn("user", "u", "q")]
        ))
        .await
        .unwrap());
    // A mode the operator chose is kept: read-only on a missing file still fails, saying so.
    let read_only = store(format!(
        "sqlite://{}?mode=ro",
        dir.join("absent.db").display()
    ));
    let err = read_only
        .ready()
        .await
        .expect_err("a read-only database that does not exist");
    assert!(err.0.contains("unable to open database file"), "{}", err.0);
    assert_eq!(
        crate::storage::sqlite_created_when_missing("sqlite::memory:").unwrap(),
        "sqlite::memory:"
    );
    assert_eq!(
        crate::storage::sqlite_created_when_missing("sqlite:data.db?cache=shared").unwrap(),
        "sqlite:data.db?cache=shared&mode=rwc"
    );
}

/// The same calls on PostgreSQL, in a database of its own made on the server
/// `DOCS_EDGE_TEST_POSTGRES_URL` names (`npm test` starts one and always sets it) and dropped after.
#[tokio::test]
async fn postgres_answers_as_sqlite_does() {
    let Some(database) = ScratchPostgres::create("docs_edge_storage").await else {
        return;
    };
    stores_and_survives_a_restart(&database.url).await;
    database.drop_database().await;
}
