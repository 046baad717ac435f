//! Which passages an answer cites, and which it leaves out.

use super::*;

#[test]
fn cites_the_passage_that_contains_the_answer() {
    let passages = static_export_passages();
    let answer = compose_answer("How long is the bundle link valid?", &passages);
    let text = answer.text();
    assert!(answer.covered);
    assert_eq!(answer.sources.first(), Some(&1), "{text}");
    assert!(text.contains("expiresAt"), "{text}");
    assert!(text.contains(" [1]"), "{text}");
    assert!(text.contains("1. [Static export › How static export works](https://docs.example.com/api/static-export/overview#how-static-export-works)"), "{text}");
    assert!(!answer.sources.contains(&3), "unrelated page cited: {text}");
}

#[test]
fn a_page_retrieval_scored_far_below_the_lead_is_not_cited() {
    let question = "How do I start a workflow run from a third-party webhook?";
    let weak = compose_answer(question, &webhook_passages(0.3));
    assert_eq!(weak.sources, vec![0], "{}", weak.text());
    // The same quote from a page retrieval scored close to the lead's supports the answer.
    let strong = compose_answer(question, &webhook_passages(0.75));
    assert_eq!(strong.sources, vec![0, 1], "{}", strong.text());
}

#[test]
fn another_section_of_the_lead_page_needs_no_retrieval_support() {
    let mut passages = webhook_passages(0.3);
    passages[1].path = passages[0].path.clone();
    passages[1].heading = "Third-party services".into();
    let answer = compose_answer(
        "How do I start a workflow run from a third-party webhook?",
        &passages,
    );
    assert_eq!(answer.sources, vec![0, 1], "{}", answer.text());
}

#[test]
fn a_sentence_a_page_repeats_is_quoted_once() {
    let passages = vec![passage(
        "io",
        "IO config",
        "",
        "For details about io_config.yaml files, see the setup guide.\n\nThe io_config.yaml file sits in the project folder.\n\nFor details about io_config.yaml files, see the setup guide.",
        0.9,
    )];
    let text = compose_answer("where does the io_config.yaml file go", &passages).text();
    assert_eq!(
        text.matches("For details about io_config.yaml files")
            .count(),
        1,
        "{text}"
    );
}

#[test]
fn a_changelog_entry_does_not_lead_over_the_feature_s_page_unless_history_is_asked() {
    let passages = vec![
        passage(
            "changelog",
            "Changelog",
            "v2.14",
            "ResponseLimitingMiddleware caps tool response sizes with safe truncation.",
            0.6,
        ),
        passage(
            "servers/middleware",
            "Middleware",
            "Response Limiting",
            "Add the response limiting middleware to cap the size of tool output.",
            0.5,
        ),
    ];
    let text = compose_answer("cap tool response size", &passages).text();
    assert!(
        text.starts_with("Add the response limiting middleware"),
        "{text}"
    );
    let text = compose_answer("when was the cap on tool response size added", &passages).text();
    assert!(
        text.starts_with("ResponseLimitingMiddleware caps"),
        "{text}"
    );
}
