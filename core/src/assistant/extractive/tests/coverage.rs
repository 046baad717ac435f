//! Whether an answer is stated, marked uncertain or says the docs do not cover the question.

use super::*;

#[test]
fn says_not_covered_for_an_unrelated_question() {
    let answer = compose_answer(
        "What is the best sourdough bread recipe?",
        &static_export_passages(),
    );
    let text = answer.text();
    assert!(!answer.covered);
    assert!(answer.sources.is_empty());
    assert!(
        text.starts_with("The documentation doesn't cover this question."),
        "{text}"
    );
    assert!(
        text.contains("- [Offline export](https://docs.example.com/deploy/export)"),
        "{text}"
    );
}

#[test]
fn not_covered_when_retrieval_misses_the_question_s_rare_terms() {
    // "How do I export the bundle to Dropbox?": the passages match "export" and "bundle" but not
    // "Dropbox", a name no page mentions; retrieval reports that as coverage 0 on every hit.
    let unknown: Vec<Passage> = static_export_passages()
        .into_iter()
        .map(|p| Passage {
            coverage: 0.0,
            score: 0.9,
            ..p
        })
        .collect();
    let answer = compose_answer("How do I export the bundle to Dropbox?", &unknown);
    assert!(!answer.covered && !answer.uncertain);
    assert!(answer.sources.is_empty());
    assert!(
        answer.text().contains("- [Offline export]"),
        "{}",
        answer.text()
    );
    // Far from the question (a few common words): refused as well.
    let far: Vec<Passage> = unknown
        .iter()
        .map(|p| Passage {
            coverage: 0.1,
            score: 0.3,
            ..p.clone()
        })
        .collect();
    assert!(!compose_answer("How do I export the bundle to Dropbox?", &far).covered);
    // The same passages with the rare term matched by one of them answer.
    let mut strong: Vec<Passage> = unknown
        .iter()
        .map(|p| Passage {
            coverage: 0.3,
            score: 0.6,
            ..p.clone()
        })
        .collect();
    strong[0].coverage = 0.8;
    strong[0]
        .text
        .push_str("\nThe bundle can be copied to Dropbox once it is ready.");
    let sure = compose_answer("How do I export the bundle to Dropbox?", &strong);
    assert!(sure.covered && !sure.uncertain, "{}", sure.text());
    assert!(
        !sure
            .text()
            .starts_with("The docs don't state this directly"),
        "{}",
        sure.text()
    );
}

#[test]
fn a_close_passage_is_quoted_as_the_closest_and_marked_uncertain() {
    // Every passage holds part of what is asked and none covers it: the answer quotes the best and
    // says first that the docs do not state it directly.
    let close: Vec<Passage> = static_export_passages()
        .into_iter()
        .map(|p| Passage {
            coverage: 0.3,
            score: 0.6,
            ..p
        })
        .collect();
    let answer = compose_answer("How long is the bundle link valid?", &close);
    let text = answer.text();
    assert!(answer.covered && answer.uncertain, "{text}");
    assert!(
        text.starts_with("The docs don't state this directly; the closest is Static export"),
        "{text}"
    );
    assert!(
        text.contains("expiresAt") && text.contains(" [1]"),
        "{text}"
    );
    assert!(!answer.sources.is_empty());
    // The opening follows the question's script.
    assert!(Words::for_question("导出包的链接有效期多长？")
        .closest_is("静态导出")
        .starts_with("文档中没有直接说明这一点"));
    assert!(Words::for_question("リンクの有効期限は？")
        .closest_is("x")
        .starts_with("ドキュメントには直接の記載がありません"));
}

#[test]
fn not_covered_when_scores_are_below_threshold() {
    let opts = ExtractiveOptions {
        min_score: 10.0,
        ..Default::default()
    };
    let answer = compose_answer_with(
        "How long is the bundle link valid?",
        &static_export_passages(),
        &opts,
    );
    assert!(!answer.covered);
}

#[test]
fn a_passage_holding_only_the_rare_term_is_quoted_as_the_closest() {
    // Retrieval finds the question's rarest term ("cached") and little else; the passage shares one
    // of the question's four words, too few to count as relevant, but it is where the answer is.
    let passages = [passage(
        "client/request-caching",
        "Request caching",
        "",
        "Enable caching with the cache header.\nRequests will be cached for 3 days by default. This is currently not configurable.",
        0.17,
    )];
    let weak = vec![Passage {
        coverage: 0.47,
        ..passages[0].clone()
    }];
    let answer = compose_answer("how long are cached responses kept", &weak);
    let text = answer.text();
    assert!(answer.covered && answer.uncertain, "{text}");
    assert!(text.contains("3 days"), "{text}");
    // Far by retrieval's measure as well: refused.
    let far = vec![Passage {
        coverage: 0.1,
        ..passages[0].clone()
    }];
    assert!(!compose_answer("how long are cached responses kept", &far).covered);
}

#[test]
fn a_name_the_passages_hold_only_as_another_word_makes_the_answer_uncertain() {
    let steps = vec![passage(
        "nodes/code",
        "Code node",
        "Write a script",
        "Go to the Code node and write your script in Python or JavaScript. \
         The script can go through each item of the input.",
        0.6,
    )];
    let answer = compose_answer("Can I write Code node scripts in Go?", &steps);
    assert!(answer.covered && answer.uncertain, "{}", answer.text());
    // Held as a name (a list of providers, code, a heading), it is met.
    for text in [
        "Providers the editor supports:\n- OpenAI\n- Go (Coming Soon)",
        "Write Code node scripts with the `go` runtime.",
    ] {
        let held = vec![passage(
            "nodes/code",
            "Code node",
            "Write a script",
            text,
            0.6,
        )];
        let answer = compose_answer("Can I write Code node scripts in Go?", &held);
        assert!(!answer.uncertain, "{text}: {}", answer.text());
    }
    // An acronym is often written in lower case in code and paths (`.pdf`, `json`).
    let pdf = vec![passage(
        "files",
        "Files",
        "Static files",
        "Files such as `guide.pdf` in the repository are served as they are.",
        0.6,
    )];
    assert!(!compose_answer("Can I serve PDF files?", &pdf).uncertain);
}
