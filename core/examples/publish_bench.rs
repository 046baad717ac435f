//! Native figures for publishing a docs folder: archive → site → index, the peak heap it takes, the
//! index size against the source, and query latency. Run by `bench/publish.mjs` (or directly:
//! `cargo run --release -p docs-edge-core --example publish_bench -- <docs folder>`).

use std::collections::BTreeMap;
use std::path::Path;

mod support;
use std::sync::atomic::Ordering;
use std::time::Instant;
use support::{read_folder, Counting, LIVE, PEAK};

use docs_edge_core::docs::archive::{pack_tree, read_docs_archive, ArchiveLimits};
use docs_edge_core::docs::site::build_site;
use docs_edge_core::search::{Query, SearchIndex};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).copied().unwrap_or(0.0)
}

fn main() {
    let folder = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/fixtures/mintlify-docs".into());
    let mut tree = BTreeMap::new();
    read_folder(Path::new(&folder), Path::new(&folder), &mut tree);
    let source_bytes: usize = tree.values().map(Vec::len).sum();
    let archive = pack_tree(&tree);
    drop(tree);

    let baseline = LIVE.load(Ordering::Relaxed);
    PEAK.store(baseline, Ordering::Relaxed);
    let started = Instant::now();
    let tree = read_docs_archive(&archive, &ArchiveLimits::default()).expect("archive");
    let site = build_site(&tree).expect("site");
    // As the worker publishes: the agent documents (every page as Markdown) while the tree is held.
    let agent_started = Instant::now();
    let agent = docs_edge_core::agents::llms::agent_docs(&site, &tree, "docs.example.com");
    let agent_ms = agent_started.elapsed().as_secs_f64() * 1000.0;
    let (llms_txt_bytes, llms_full_bytes) = (agent.llms_txt.len(), agent.llms_full.len());
    drop(tree);
    let index = SearchIndex::build(&site.pages);
    let bytes = index.to_bytes();
    let publish_ms = started.elapsed().as_secs_f64() * 1000.0;
    let peak = PEAK.load(Ordering::Relaxed) - baseline;

    let load_started = Instant::now();
    let loaded = SearchIndex::from_bytes(&bytes).expect("index loads");
    let load_ms = load_started.elapsed().as_secs_f64() * 1000.0;

    let queries = [
        "static export bundle",
        "custom domain",
        "how do I add redirects",
        "api key",
        "analytics export csv",
        "single sign-on",
        "openapi playground",
        "dominio personalizado",
        "自定义域名",
        "rate limits",
    ];
    let mut times = Vec::new();
    for round in 0..50 {
        for q in &queries {
            let t = Instant::now();
            let hits = loaded.search(&Query {
                limit: 10,
                ..Query::new(q)
            });
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            if round == 0 && hits.is_empty() {
                eprintln!("no hits for {q}");
            }
        }
    }
    times.sort_by(|a, b| a.total_cmp(b));
    println!(
        "{}",
        serde_json::json!({
            "pages": site.pages.len(),
            "languages": site.languages,
            "warnings": site.warnings.len(),
            "sourceBytes": source_bytes,
            "archiveBytes": archive.len(),
            "indexBytes": bytes.len(),
            "indexToSource": bytes.len() as f64 / source_bytes as f64,
            "publishMs": publish_ms,
            "agentDocsMs": agent_ms,
            "llmsTxtBytes": llms_txt_bytes,
            "llmsFullBytes": llms_full_bytes,
            "peakHeapBytes": peak,
            "indexLoadMs": load_ms,
            "queryP50Ms": percentile(&times, 0.5),
            "queryP99Ms": percentile(&times, 0.99),
        })
    );
}
