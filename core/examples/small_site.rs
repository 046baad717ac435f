//! Times the worker's small-site build (`publish::parse_small_site`, then `SmallMerge::finish`) natively on a docs folder:
//! unpack into source packs, then the build, `--runs` times. For profiling (`perf record`).
//!   cargo run --release -p docs-edge-core --example small_site -- <docs folder> [runs]

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

mod support;
use support::{peak_mib, read_folder, reset_peak, Counting};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

use docs_edge_core::docs::archive::{pack_tree, ArchiveLimits};
use docs_edge_core::publish::parsed::Reused;
use docs_edge_core::publish::{parse_small_site, plan_small_site, SourceWriter, Stored};

fn main() {
    let folder = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/fixtures/mintlify-docs".into());
    let runs: usize = std::env::args()
        .nth(2)
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let mut tree = BTreeMap::new();
    read_folder(Path::new(&folder), Path::new(&folder), &mut tree);
    let archive = pack_tree(&tree);
    {
        // The plan alone: docs.json, its $refs and the OpenAPI specs its endpoint pages come from.
        let paths: Vec<&str> = tree.keys().map(String::as_str).collect();
        reset_peak();
        let live = support::LIVE.load(std::sync::atomic::Ordering::Relaxed) as f64 / 1048576.0;
        let planned = docs_edge_core::docs::site::plan_site(&tree, &paths).expect("plan");
        println!(
            "plan: {} pages, peak heap {:.1} MiB over the {live:.1} MiB held",
            planned.pages().len(),
            peak_mib() - live
        );
    }
    drop(tree);
    for _ in 0..runs {
        let started = Instant::now();
        reset_peak();
        let held = support::LIVE.load(std::sync::atomic::Ordering::Relaxed) as f64 / 1048576.0;
        let mut writer = SourceWriter::new(&ArchiveLimits {
            max_total_bytes: 128 << 20,
            ..ArchiveLimits::default()
        });
        let mut packs = BTreeMap::new();
        for chunk in archive.chunks(1 << 20) {
            packs.extend(
                writer
                    .push(chunk)
                    .expect("unpack")
                    .into_iter()
                    .filter_map(Stored::into_source_pack),
            );
        }
        let (last, table, _digests) = writer.finish().expect("unpack");
        packs.extend(last.into_iter().filter_map(Stored::into_source_pack));
        let unpacked = started.elapsed().as_secs_f64() * 1000.0;
        let small = plan_small_site(&packs, &table, "docs.example.com").expect("plan");
        let parsed = parse_small_site(
            small,
            &packs,
            &table,
            "docs.example.com",
            &Reused::default(),
            support::semantic_model(),
        )
        .expect("parse");
        let parsed_at = started.elapsed().as_secs_f64() * 1000.0;
        let parse_peak = peak_mib() - held;
        let built = parsed.rest.finish("docs.example.com").expect("finish");
        let total = started.elapsed().as_secs_f64() * 1000.0;
        println!(
            "unpack {unpacked:.0} ms, parse {:.0} ms, merge and finish {:.0} ms, total {total:.0} ms; terms {} text {} llms-full {} bytes; peak heap over the upload held: {parse_peak:.1} MiB through the parse, {:.1} MiB in all",
            parsed_at - unpacked, total - parsed_at, built.terms.len(), parsed.text.len(), parsed.llms_full.len(), peak_mib() - held
        );
    }
}
