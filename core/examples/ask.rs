//! Asks the extractive assistant a question about a docs folder, natively: what retrieval finds and what
//! the answer cites, and the answer. `cargo run --release -p docs-edge-core --example ask -- <folder> "question" ["earlier question"]`;
//! `ASK_LIMIT=20` shows more of the ranking than the assistant's five passages (the answer still gets five).
use std::collections::BTreeMap;
use std::path::Path;

mod support;
use support::read_folder;

use docs_edge_core::assistant::extractive::compose_answer;
use docs_edge_core::assistant::offline::{passages, FOLLOWED_SECTIONS};
use docs_edge_core::assistant::passage::Passage;
use docs_edge_core::assistant::query::retrieval_query;
use docs_edge_core::docs::site::build_site;
use docs_edge_core::search::{Query, SearchIndex};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let folder = args.get(1).cloned().unwrap_or_default();
    let mut tree = BTreeMap::new();
    read_folder(Path::new(&folder), Path::new(&folder), &mut tree);
    let site = build_site(&tree).expect("site");
    let index = SearchIndex::build(&site.pages);
    for question in args.iter().skip(2) {
        let turns: Vec<&str> = question
            .split(" || ")
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let query = retrieval_query(&turns, &[]);
        let shown: usize = std::env::var("ASK_LIMIT")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(5);
        let hits = index.search(&Query {
            limit: shown.max(10),
            current_version: site.default_version(),
            follow_top: FOLLOWED_SECTIONS,
            ..Query::new(&query)
        });
        println!("Q: {question}\n  query: {query}");
        for h in &hits {
            println!(
                "  hit {:.3} (coverage {:.2}) {} # {:?}",
                h.score, h.coverage, h.path, h.heading
            );
        }
        let passages: Vec<Passage> = passages(hits, "d", 5);
        if std::env::var("ASK_TEXT").is_ok() {
            for p in &passages {
                println!("--- {} # {}\n{}", p.path, p.heading, p.text);
            }
        }
        let answer = compose_answer(&query, &passages);
        let cited: Vec<&str> = answer
            .sources
            .iter()
            .filter_map(|i| passages.get(*i))
            .map(|p| p.path.as_str())
            .collect();
        println!(
            "  cited: {cited:?} covered={}\n{}",
            answer.covered,
            answer.text()
        );
    }
}
