//! The eval's fast loop, natively: every question of a set (`eval/sets/*.jsonl`) searched and answered
//! over a docs folder as the worker would (the search API's 20 results, the assistant's retrieval and
//! the extractive answer), one JSON line a question (`hit_scores`: each passage's score and
//! coverage; `hit_paths`: its page; `query`: the retrieval query; `uncertain`: the answer quotes the
//! closest passage, saying so), scored by `scripts/lib/eval/metrics.mjs` without starting a worker
//! (`npm run eval -- --native …` and `--corpora …` run it).
//! `cargo run --release -p docs-edge-core --example eval_local -- <folder> <set.jsonl>`
use std::collections::BTreeMap;
use std::path::Path;

mod support;
use support::read_folder;

use docs_edge_core::assistant::extractive::compose_answer;
use docs_edge_core::assistant::offline::{passages, CHUNKS_PER_PASSAGE, FOLLOWED_SECTIONS};
use docs_edge_core::assistant::query::retrieval_query;
use docs_edge_core::docs::site::build_site;
use docs_edge_core::search::{Query, SearchIndex};
use serde_json::{json, Value};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(folder), Some(set)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: eval_local <folder> <set.jsonl>");
        std::process::exit(2);
    };
    let mut tree = BTreeMap::new();
    read_folder(Path::new(folder), Path::new(folder), &mut tree);
    let site = build_site(&tree).expect("site");
    let mut index = SearchIndex::build(&site.pages);
    let model = support::semantic_model();
    if let Some(m) = model {
        index.embed(m);
    }

    let lines = std::fs::read_to_string(set).expect("set");
    for line in lines.lines().filter(|l| !l.trim().is_empty()) {
        let q: Value = serde_json::from_str(line).expect("json");
        let question = q["question"].as_str().unwrap_or_default();
        let focused = docs_edge_core::search::parse_search_request(&json!({"query": question}))
            .map(|r| r.asked)
            .unwrap_or_else(|_| question.to_string());
        let fv = model.and_then(|m| m.embed(&focused));
        let search = index.search(&Query {
            limit: 20,
            by_meaning: true,
            semantic: fv.as_deref(),
            current_version: site.default_version(),
            ..Query::new(&focused)
        });
        let query = retrieval_query(&[question], &[]);
        let hits = index.search(&Query {
            limit: 5 * CHUNKS_PER_PASSAGE,
            follow_top: FOLLOWED_SECTIONS,
            current_version: site.default_version(),
            ..Query::new(&query)
        });
        let ps = passages(hits, "d", 5);
        let scores: Vec<[f32; 2]> = ps.iter().map(|p| [p.score, p.coverage]).collect();
        let hit_paths: Vec<String> = ps.iter().map(|p| p.path.clone()).collect();
        let answer = compose_answer(&query, &ps);
        let cited: Vec<&str> = answer
            .sources
            .iter()
            .filter_map(|i| ps.get(*i))
            .map(|p| p.path.as_str())
            .collect();
        let out = json!({
            "question": q,
            "retrieved": search.iter().map(|h| h.path.as_str()).collect::<Vec<_>>(),
            "hit_scores": scores,
            "hit_paths": hit_paths,
            "text": answer.text(),
            "cited": cited,
            "uncertain": answer.uncertain,
            "query": query,
        });
        println!("{out}");
    }
}
