//! Times the worker's small-site build (`publish::parse_small_site`, then `SmallMerge::finish`) natively on a docs folder:
//! unpack into source packs, then the build, `--runs` times. For profiling (`perf record`).
//!   cargo run --release -p docs-edge-core --example small_site -- <docs folder> [runs]

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

mod support;
use support::read_folder;

use docs_edge_core::docs::archive::{pack_tree, ArchiveLimits};
use docs_edge_core::publish::{parse_small_site, SourceWriter, Stored};

fn main() {
    let folder = std::env::args().nth(1).unwrap_or_else(|| "../shared/fixtures/mintlify-docs".into());
    let runs: usize = std::env::args().nth(2).and_then(|r| r.parse().ok()).unwrap_or(5);
    let mut tree = BTreeMap::new();
    read_folder(Path::new(&folder), Path::new(&folder), &mut tree);
    let archive = pack_tree(&tree);
    drop(tree);
    for _ in 0..runs {
        let started = Instant::now();
        let mut writer = SourceWriter::new(&ArchiveLimits::default());
        let mut packs = BTreeMap::new();
        for chunk in archive.chunks(1 << 20) {
            packs.extend(writer.push(chunk).expect("unpack").into_iter().filter_map(Stored::into_source_pack));
        }
        let (last, table) = writer.finish().expect("unpack");
        packs.extend(last.into_iter().filter_map(Stored::into_source_pack));
        let unpacked = started.elapsed().as_secs_f64() * 1000.0;
        let parsed = parse_small_site(&packs, &table, "docs.example.com").expect("parse");
        let parsed_at = started.elapsed().as_secs_f64() * 1000.0;
        let built = parsed.rest.finish("docs.example.com").expect("finish");
        let total = started.elapsed().as_secs_f64() * 1000.0;
        println!(
            "unpack {unpacked:.0} ms, parse {:.0} ms, merge and finish {:.0} ms, total {total:.0} ms; terms {} text {} llms-full {} bytes",
            parsed_at - unpacked, total - parsed_at, built.terms.len(), parsed.text.len(), parsed.llms_full.len()
        );
    }
}
