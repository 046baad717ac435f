//! What one changed page costs a mirror of the three packs: the split index of a docs folder built
//! as a publish builds it (text blocks cut where the publish's batches end), then again with one
//! sentence appended to one page, each pack cut into the delta listing's content-defined chunks; the
//! bytes of the new chunks the old packs lack are what docs-edge-serve's refresh fetches of them.
//! `SCALE_SITE=<folder from scripts/lib/scale-site.mjs> cargo test --release -p docs-edge-core
//! search::shard::delta_figures -- --ignored --nocapture`.

use std::collections::BTreeSet;
use std::path::Path;

use super::*;
use crate::docs::archive::read_dir_tree;
use crate::docs::build_site;
use crate::export::delta::Chunker;
use crate::search::SearchIndex;
use crate::security::signing::sha256_hex;

const CHANGED_PAGE: &str = "part0/quickstart.mdx";
const SENTENCE: &str = "\n\nOne more sentence about delta mirrors and their bytes.\n";

fn packs(tree: &crate::docs::archive::SourceTree) -> [Vec<u8>; 3] {
    let pages = build_site(tree).expect("the site builds").pages;
    let source = |p: &crate::docs::Page| {
        tree.get(&format!("{}.mdx", p.path))
            .or_else(|| tree.get(&format!("{}.md", p.path)))
            .map_or(0, |b| b.len() as u64)
    };
    let batches = crate::publish::batches(pages.iter().map(|p| (source(p), p.path.as_str())));
    let mut index = SearchIndex::build(&pages);
    index.embed(crate::search::semantic::embedded_model());
    let mut cuts = Vec::new();
    let mut chunks = 0u32;
    let mut page = 0u32;
    for batch in &batches {
        while page < batch.start {
            chunks += index.data.pages[page as usize].chunk_count;
            page += 1;
        }
        if chunks > 0 {
            cuts.push(chunks);
        }
    }
    let layout = batched::ShardLayout::for_source_bytes(pages.iter().map(source).sum::<u64>());
    let split = ShardedIndex::build_with_cuts(&index, layout.shard_count, &cuts).unwrap();
    println!(
        "{} pages, {} chunks, {} batches, {} shards",
        pages.len(),
        index.chunk_count(),
        batches.len(),
        layout.shard_count
    );
    [split.meta, split.terms, split.text]
}

fn chunk_hashes(bytes: &[u8], sizes: Option<(usize, usize, usize)>) -> Vec<(String, usize)> {
    let Some((min, avg, max)) = sizes else {
        let mut chunker = Chunker::default();
        let mut out: Vec<Vec<u8>> = chunker.push(bytes);
        out.extend(chunker.finish());
        return out.iter().map(|c| (sha256_hex(c), c.len())).collect();
    };
    fastcdc::v2020::FastCDC::new(bytes, min, avg, max)
        .map(|c| (sha256_hex(&bytes[c.offset..c.offset + c.length]), c.length))
        .collect()
}

#[test]
#[ignore]
fn one_changed_page_costs_of_the_packs() {
    let Ok(dir) = std::env::var("SCALE_SITE") else {
        eprintln!("SCALE_SITE not set");
        return;
    };
    let mut tree = read_dir_tree(Path::new(&dir)).expect("the folder reads");
    let before = packs(&tree);
    let page = tree.get_mut(CHANGED_PAGE).expect("the changed page");
    page.extend_from_slice(SENTENCE.as_bytes());
    let after = packs(&tree);
    let (m0, m1) = (
        SearchMeta::from_bytes(&before[0]).unwrap(),
        SearchMeta::from_bytes(&after[0]).unwrap(),
    );
    let slice =
        |pack: &[u8], r: std::ops::Range<u64>| pack[r.start as usize..r.end as usize].to_vec();
    let changed_shards: Vec<(u32, u64)> = (0..m1.shard_count())
        .filter(|&i| {
            slice(&before[1], m0.shard_range(i).unwrap())
                != slice(&after[1], m1.shard_range(i).unwrap())
        })
        .map(|i| {
            (
                i,
                m1.shard_range(i).unwrap().end - m1.shard_range(i).unwrap().start,
            )
        })
        .collect();
    println!(
        "{} shards changed, {} bytes: {changed_shards:?}",
        changed_shards.len(),
        changed_shards.iter().map(|s| s.1).sum::<u64>()
    );
    let changed_blocks = (0..m1.block_count())
        .filter(|&i| {
            m0.block_range(i).map(|r| slice(&before[2], r))
                != m1.block_range(i).map(|r| slice(&after[2], r))
        })
        .count();
    println!("{changed_blocks} blocks changed of {}", m1.block_count());
    let sizes = [
        None,
        Some((4096, 16384, 65536)),
        Some((2048, 8192, 16384)),
        Some((1024, 4096, 16384)),
        Some((1024, 4096, 8192)),
    ];
    for size in sizes {
        println!("chunk sizes {size:?} (None: the listing's)");
        let mut total = 0;
        let mut all = 0;
        for (name, (old, new)) in ["meta", "terms", "text"]
            .iter()
            .zip(before.iter().zip(&after))
        {
            let had: BTreeSet<String> = chunk_hashes(old, size)
                .into_iter()
                .map(|(h, _)| h)
                .collect();
            let chunks = chunk_hashes(new, size);
            let fetched: usize = chunks
                .iter()
                .filter(|(h, _)| !had.contains(h))
                .map(|(_, n)| n)
                .sum();
            let changed = chunks.iter().filter(|(h, _)| !had.contains(h)).count();
            println!(
                "{name}: {} bytes, {} chunks; fetched {fetched} bytes in {changed} chunks ({:.2}%)",
                new.len(),
                chunks.len(),
                100.0 * fetched as f64 / new.len().max(1) as f64
            );
            total += fetched;
            all += new.len();
        }
        println!("packs: fetched {total} of {all} bytes");
    }
}
