use serde_json::Value;

use super::analyzers::{
    ASSISTANT_CJK_STOP_BIGRAMS, ASSISTANT_STOP_WORDS, OFFLINE_STOP_WORDS, SEARCH_STOP_WORDS,
};
use super::*;

const VECTORS: &str = include_str!("vectors.json");

fn vectors(section: &str) -> Vec<(String, String, Vec<String>)> {
    let all: Value = serde_json::from_str(VECTORS).expect("vectors.json parses");
    let list = all[section].as_array().expect("a section is an array");
    assert!(!list.is_empty(), "{section}");
    list.iter()
        .map(|v| {
            let s = |k: &str| v[k].as_str().expect("name and text are strings").to_owned();
            let terms = v["terms"].as_array().expect("terms is an array");
            let terms = terms
                .iter()
                .map(|t| t.as_str().expect("a term is a string").to_owned());
            (s("name"), s("text"), terms.collect())
        })
        .collect()
}

#[test]
fn shared_vectors_hold_for_every_analyzer() {
    for (section, analyzer) in [
        ("offline_shard", Analyzer::OfflineShard),
        ("index", Analyzer::Index),
        ("query", Analyzer::Query),
    ] {
        for (name, text, terms) in vectors(section) {
            assert_eq!(analyzer.analyze(&text), terms, "{section}: {name}");
        }
    }
    for (name, text, terms) in vectors("assistant_keywords") {
        let got = Analyzer::AssistantKeywords.distinct_terms(&text, usize::MAX);
        assert_eq!(got, terms, "assistant_keywords: {name}");
    }
}

/// A stop word added on the Rust side fails here until `vectors.json` lists it, and then the Node
/// test until `site.js` drops it too.
#[test]
fn vectors_cover_every_offline_stop_word() {
    let texts: Vec<String> = vectors("offline_shard").into_iter().map(|v| v.1).collect();
    for word in OFFLINE_STOP_WORDS {
        assert!(
            texts
                .iter()
                .any(|t| t.split_whitespace().any(|w| w == *word)),
            "{word} is in no offline_shard vector"
        );
        assert!(Analyzer::OfflineShard.analyze(word).is_empty(), "{word}");
    }
}

#[test]
fn tables_are_sorted_lowercase_and_folded_as_their_analyzer_folds() {
    for (analyzer, table) in [
        (Analyzer::Index, SEARCH_STOP_WORDS),
        (Analyzer::AssistantKeywords, ASSISTANT_STOP_WORDS),
        (Analyzer::OfflineShard, OFFLINE_STOP_WORDS),
    ] {
        let mut sorted = table.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(
            sorted, table,
            "{analyzer:?}: sorted for binary search, no duplicates"
        );
        for word in table {
            // A stop word that analysis could never produce would be dead.
            let mut piece = None;
            analyzer.pieces(word, |p| piece = Some(format!("{p:?}")));
            assert_eq!(
                piece,
                Some(format!("{:?}", Piece::Word(word))),
                "{analyzer:?}: {word}"
            );
        }
    }
    for bigram in ASSISTANT_CJK_STOP_BIGRAMS {
        assert!(
            bigram.chars().count() == 2 && bigram.chars().all(is_cjk),
            "{bigram}"
        );
    }
}

#[test]
fn one_cjk_class_and_hangul_is_not_in_it() {
    for c in ['中', '域', 'ひ', 'カ', 'ー', 'ｶ', '𠀀', '豈'] {
        assert!(is_cjk(c), "{c}");
    }
    for c in ['서', 'ㄱ', 'a', '1', '。', '？', ' ', 'é'] {
        assert!(!is_cjk(c), "{c}");
    }
    // Every analyzer sees the same Korean words.
    for analyzer in [
        Analyzer::Index,
        Analyzer::Query,
        Analyzer::AssistantKeywords,
        Analyzer::OfflineShard,
    ] {
        assert_eq!(
            analyzer.analyze("서버를 설정"),
            ["서버를", "설정"],
            "{analyzer:?}"
        );
    }
}

#[test]
fn pieces_and_stem_rebuild_the_terms() {
    let text = "Configuring the Pages: 配置 policies, café";
    for analyzer in [
        Analyzer::Index,
        Analyzer::AssistantKeywords,
        Analyzer::OfflineShard,
    ] {
        let mut words = Vec::new();
        analyzer.pieces(text, |p| {
            if let Piece::Word(w) = p {
                if !analyzer.is_stop_word(w) {
                    words.push(analyzer.stem(w));
                }
            }
        });
        let terms: Vec<String> = analyzer
            .analyze(text)
            .into_iter()
            .filter(|t| !t.chars().any(is_cjk))
            .collect();
        assert_eq!(words, terms, "{analyzer:?}");
    }
}

#[test]
fn distinct_terms_keep_first_seen_order_and_the_cap() {
    assert_eq!(
        Analyzer::Query.distinct_terms("pages page Page domain pages", 10),
        ["pag", "domain"]
    );
    assert_eq!(
        Analyzer::Query.distinct_terms("alpha beta gamma", 2),
        ["alpha", "beta"]
    );
    assert!(Analyzer::Query.distinct_terms("alpha", 0).is_empty());
}

#[test]
fn a_whole_word_meets_its_clipped_form_in_the_index_and_the_assistant() {
    for analyzer in [
        Analyzer::Index,
        Analyzer::Query,
        Analyzer::AssistantKeywords,
    ] {
        assert_eq!(
            analyzer.analyze("maximum configuration"),
            analyzer.analyze("max config"),
            "{analyzer:?}"
        );
        assert!(
            analyzer
                .analyze("MAX_UPLOAD_BYTES")
                .contains(&analyzer.analyze("maximum")[0]),
            "{analyzer:?}"
        );
    }
    assert_eq!(
        Analyzer::OfflineShard.analyze("maximum"),
        vec!["maximum"],
        "the browser's mirror keeps words as typed"
    );
}
