//! On the real repositories of `../shared/fixtures`, at least 95% of the fenced blocks that name a
//! language are split into tokens. Languages that mean "no colours" (`text`, `output`, ...) are
//! not counted. Figures are printed: `cargo test -p docs-edge-core code::fixture_tests -- --nocapture`.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use crate::docs::archive::read_dir_tree;
use crate::docs::build_site;
use crate::export::tests::options;
use crate::export::ExportPlan;

const PLAIN: &[&str] = &["text", "txt", "plaintext", "plain", "output", "log", "none", "ascii", "console-output"];

/// (blocks with a language, of them split into tokens, misses by language).
fn count(html: &str, totals: &mut (usize, usize), misses: &mut BTreeMap<String, usize>) {
    for (i, _) in html.match_indices("<code class=\"language-") {
        let rest = &html[i + 22..];
        let lang = &rest[..rest.find('"').unwrap_or(0)];
        if PLAIN.contains(&lang) {
            continue;
        }
        let block = &rest[..rest.find("</code>").unwrap_or(rest.len())];
        totals.0 += 1;
        if block.contains("<span class=\"tk-") {
            totals.1 += 1;
        } else {
            *misses.entry(lang.to_owned()).or_default() += 1;
        }
    }
}

fn fixture_share(name: &str) -> f64 {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures").join(name);
    let tree = read_dir_tree(&root).unwrap_or_else(|e| panic!("fixture {name} at {}: {e}", root.display()));
    let site = build_site(&tree).unwrap();
    let plan = ExportPlan::new(&site, &tree, &options()).unwrap();
    let started = Instant::now();
    let (mut totals, mut misses) = ((0, 0), BTreeMap::new());
    for start in (0..plan.page_count()).step_by(100) {
        for file in plan.render_pages(&site, &tree, start..start + 100) {
            if file.path.ends_with(".html") {
                count(std::str::from_utf8(&file.bytes).unwrap_or(""), &mut totals, &mut misses);
            }
        }
        super::release();
    }
    let share = totals.1 as f64 / totals.0.max(1) as f64;
    println!(
        "{name}: {} pages rendered in {:.2?}; {} of {} fenced blocks with a language split into tokens ({:.1}%); plain: {misses:?}",
        plan.page_count(),
        started.elapsed(),
        totals.1,
        totals.0,
        share * 100.0
    );
    assert!(totals.0 > 50, "{name}: only {} blocks with a language", totals.0);
    share
}

#[test]
fn agentops_docs_blocks_are_highlighted() {
    let share = fixture_share("agentops-docs");
    assert!(share >= 0.95, "{share}");
}

#[test]
fn dify_docs_blocks_are_highlighted() {
    let share = fixture_share("dify-docs");
    assert!(share >= 0.95, "{share}");
}
