//! Renders a docs folder as the static export would, into a folder you can open or serve
//! (`python3 -m http.server -d <out dir>`; search needs HTTP, not file://), plus `bundle.tar.gz`
//! next to it, packed in batches as the worker packs it, with icons from the worker's icon assets
//! and code left plain (the worker highlights it with highlight.js).
//! `cargo run --release -p docs-edge-core --example export_site -- <docs dir> <out dir> [--domain d] [--version v] [--paths a,b] [--markdown pages|llms-full]`
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

mod support;
use support::read_folder;

use docs_edge_core::docs::site::build_site;
use docs_edge_core::export::icons::{self, IconSet, IconShards, ShardId};
use docs_edge_core::export::{
    search_bytes_for_query, tar_gz_member, tar_gz_trailer, ExportOptions, ExportPlan,
    MarkdownPages, PlainCode,
};

/// Pages per batch, as one Durable Object alarm would render them.
const BATCH: usize = 100;

/// Every shard of the icon sets the worker's assets hold (`scripts/build-icons.mjs` writes them),
/// so pages show their icons as the worker's export fills them; none when they are not built.
fn icon_shards() -> IconShards {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../worker/public/export-icons");
    let mut shards = IconShards::default();
    for set in IconSet::ALL {
        for index in 0..icons::SHARDS {
            let shard = ShardId { set, index };
            if let Ok(text) = std::fs::read_to_string(
                dir.join(shard.asset_path().trim_start_matches("export-icons/")),
            ) {
                shards.insert(shard, text);
            }
        }
    }
    shards
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(docs), Some(out)) = (args.first(), args.get(1)) else {
        eprintln!(
            "usage: export_site <docs dir> <out dir> [--domain d] [--version v] [--paths a,b] [--markdown pages|llms-full]"
        );
        std::process::exit(2);
    };
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let options = ExportOptions {
        version: flag("--version"),
        versions: None,
        paths: flag("--paths").map(|p| p.split(',').map(str::to_owned).collect()),
        domain: flag("--domain").unwrap_or_else(|| "docs.example.com".to_owned()),
        mtime: 0,
        features: Default::default(),
        markdown: flag("--markdown")
            .map(|m| MarkdownPages::from_name(&m).expect("--markdown pages|llms-full")),
    };
    let mut tree = BTreeMap::new();
    read_folder(Path::new(docs), Path::new(docs), &mut tree);
    let site = match build_site(&tree) {
        Ok(site) => site,
        Err(err) => {
            eprintln!("{docs}: {err}");
            std::process::exit(1);
        }
    };
    let started = Instant::now();
    let plan = match ExportPlan::new(&site, &tree, &options) {
        Ok(plan) => plan,
        Err(err) => {
            eprintln!("{err}");
            std::process::exit(1);
        }
    };
    let shards = icon_shards();
    let library = icons::Library::from_config(site.config.icon_library.as_deref());
    let mut files = Vec::new();
    let mut bundle = Vec::new();
    let mut packing = std::time::Duration::ZERO;
    let mut pack = |files: &[docs_edge_core::export::ExportFile], bundle: &mut Vec<u8>| {
        let t = Instant::now();
        bundle.extend(tar_gz_member(files, options.mtime));
        packing += t.elapsed();
    };
    for start in (0..plan.page_count()).step_by(BATCH) {
        let mut batch = plan.render_pages(&site, &tree, start..start + BATCH, &PlainCode);
        icons::fill(&mut batch, library, &shards, &tree);
        pack(&batch, &mut bundle);
        files.extend(batch);
    }
    let rendered = started.elapsed();
    let mut finishing = plan.finishing_files(&site, &tree);
    icons::fill(&mut finishing, library, &shards, &tree);
    pack(&finishing, &mut bundle);
    bundle.extend(tar_gz_trailer());
    files.extend(finishing);
    let total = started.elapsed();

    let out = Path::new(out);
    for file in &files {
        let path = out.join(&file.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("create folder");
        }
        std::fs::write(&path, &file.bytes).expect("write file");
    }
    std::fs::write(out.join("bundle.tar.gz"), &bundle).expect("write bundle");
    println!(
        "{} pages, {} files, {:.1} MB raw, bundle {:.2} MB; pages {:.0} ms, all {:.0} ms (gzip {:.0} ms)",
        plan.page_count(),
        files.len(),
        files.iter().map(|f| f.bytes.len()).sum::<usize>() as f64 / 1e6,
        bundle.len() as f64 / 1e6,
        rendered.as_secs_f64() * 1e3,
        total.as_secs_f64() * 1e3,
        packing.as_secs_f64() * 1e3
    );
    let mut page_bytes: Vec<usize> = files
        .iter()
        .filter(|f| {
            f.path.ends_with(".html") && !f.path.starts_with("_static/") && f.path != "404.html"
        })
        .map(|f| f.bytes.len())
        .collect();
    page_bytes.sort_unstable();
    println!(
        "page bytes: median {}, max {}",
        page_bytes.get(page_bytes.len() / 2).copied().unwrap_or(0),
        page_bytes.last().copied().unwrap_or(0)
    );
    println!("{} site warnings", site.warnings.len());
    if std::env::var_os("EXPORT_WARNINGS").is_some() {
        site.warnings.iter().for_each(|w| println!("  {w}"));
    }
    let language = site.languages.first().map_or("en", String::as_str);
    for query in ["custom domain", "api key", "static export bundle"] {
        println!(
            "search {query:?} loads {} bytes",
            search_bytes_for_query(&files, language, query)
        );
    }
}
