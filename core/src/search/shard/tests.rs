//! The split index answers exactly as the whole one: same hits (paths, headings, text, scores) for
//! every query, filter and limit, same page text, reading only the shards and blocks it names; and
//! corrupt bytes of each kind are errors. Figures of the fixture's split:
//! `cargo test --release -p docs-edge-core search::shard::tests::fixture_figures -- --ignored --nocapture`.

use std::collections::BTreeSet;
use std::path::Path;

use super::super::test_rng::Rng;
use super::super::tests::{multilingual, page, section, site};
use super::super::*;
use super::*;
use crate::docs::archive::read_dir_tree;
use crate::docs::{build_site, Page};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/fixtures/mintlify-docs"
);

/// Every object of a split, loaded, as a reader would fetch them from the packs.
struct Loaded {
    meta: SearchMeta,
    shards: Vec<TermShard>,
    blocks: Vec<TextBlock>,
    split: ShardedIndex,
}

fn slice(pack: &[u8], range: std::ops::Range<u64>) -> &[u8] {
    &pack[range.start as usize..range.end as usize]
}

fn load(index: &SearchIndex) -> Loaded {
    load_split(ShardedIndex::build(index).unwrap())
}

fn load_split(split: ShardedIndex) -> Loaded {
    let meta = SearchMeta::from_bytes(&split.meta).unwrap();
    let shards = (0..meta.shard_count())
        .map(|id| {
            let bytes = slice(&split.terms, meta.shard_range(id).unwrap());
            TermShard::from_bytes(bytes, id, meta.shard_count(), meta.chunk_count()).unwrap()
        })
        .collect();
    let blocks = (0..meta.block_count())
        .map(|id| {
            TextBlock::from_bytes(slice(&split.text, meta.block_range(id).unwrap()), id, &meta)
                .unwrap()
        })
        .collect();
    Loaded {
        meta,
        shards,
        blocks,
        split,
    }
}

impl Loaded {
    /// Search through the sharded path, given only the shards and blocks it asks for.
    fn search(&self, q: &Query) -> (Vec<Hit>, usize) {
        let wanted = self.meta.shards_for(q.text);
        let shards: Vec<&TermShard> = wanted.iter().map(|&id| &self.shards[id as usize]).collect();
        let ranked = score(&self.meta, &shards, q).unwrap();
        let block_ids = self.meta.blocks_for(&ranked);
        let blocks: Vec<&TextBlock> = block_ids
            .iter()
            .map(|&id| &self.blocks[id as usize])
            .collect();
        let read: u64 = wanted
            .iter()
            .map(|&id| self.meta.shard_range(id).unwrap())
            .chain(
                block_ids
                    .iter()
                    .map(|&id| self.meta.block_range(id).unwrap()),
            )
            .map(|r| r.end - r.start)
            .sum();
        (hits(&self.meta, &blocks, &ranked).unwrap(), read as usize)
    }

    fn page(&self, path: &str) -> Option<PageDoc> {
        let (page, ids) = self.meta.page_blocks(path)?;
        let blocks: Vec<&TextBlock> = ids.iter().map(|&id| &self.blocks[id as usize]).collect();
        Some(page_from_blocks(&self.meta, page, &blocks).unwrap())
    }
}

fn assert_same(index: &SearchIndex, loaded: &Loaded, q: &Query) {
    assert_eq!(loaded.search(q).0, index.search(q), "{q:?}");
}

#[test]
fn small_sites_answer_the_same() {
    let mut pages = site();
    pages.extend(multilingual());
    let mut v1 = page(
        "v1/auth",
        "Auth",
        vec![section("", 0, "Tokens in version one.")],
    );
    v1.version = Some("v1".into());
    v1.tab = Some("API Reference".into());
    let mut v2 = page(
        "v2/auth",
        "Auth",
        vec![section("", 0, "Tokens in version two.")],
    );
    v2.version = Some("v2".into());
    v2.groups = vec!["Guides".into()];
    pages.extend([v1, v2]);
    let index = SearchIndex::build(&pages);
    let loaded = load(&index);
    let groups = [String::from("guides")];
    for text in [
        "custom domain dns",
        "custom domain keys",
        "domain",
        "dominio domain",
        "install setup",
        "limits",
        "lorem",
        "tokens",
        "webhook",
        "",
        "deploy preview",
        "how is the",
        "rapido",
        "rotate key",
        "verifying",
        "webhooks",
        "zebra",
        "价格计划",
        "域名",
        "如何添加CNAME记录",
    ] {
        for q in [
            Query::new(text),
            Query {
                limit: 1,
                ..Query::new(text)
            },
            Query {
                limit: 0,
                ..Query::new(text)
            },
            Query {
                score_threshold: 0.5,
                ..Query::new(text)
            },
            Query {
                language: Some("es"),
                ..Query::new(text)
            },
            Query {
                version: Some("v2"),
                ..Query::new(text)
            },
            Query {
                tag: Some("api reference"),
                ..Query::new(text)
            },
            Query {
                groups: &groups,
                ..Query::new(text)
            },
            Query {
                near_path: Some("/guides/x"),
                ..Query::new(text)
            },
            // The sections read on after a short best hit come from blocks the split index asks for.
            Query {
                limit: 1,
                follow_top: 2,
                ..Query::new(text)
            },
        ] {
            assert_same(&index, &loaded, &q);
        }
    }
    for p in
        pages
            .iter()
            .map(|p| p.path.as_str())
            .chain(["/api/keys/", "api/keys.md", "api/key", ""])
    {
        assert_eq!(loaded.page(p), index.page(p), "{p}");
    }
}

#[test]
fn an_empty_site_splits_and_answers_nothing() {
    let index = SearchIndex::build(&[]);
    let loaded = load(&index);
    assert_eq!(
        (loaded.meta.shard_count(), loaded.meta.block_count()),
        (1, 0)
    );
    assert!(loaded.search(&Query::new("anything")).0.is_empty());
    assert!(loaded.page("index").is_none());
}

#[test]
fn a_missing_shard_or_block_is_an_error_not_a_different_answer() {
    let index = SearchIndex::build(&site());
    let loaded = load(&index);
    let q = Query::new("custom domain");
    assert!(score(&loaded.meta, &[], &q).is_err());
    let all: Vec<&TermShard> = loaded.shards.iter().collect();
    let ranked = score(&loaded.meta, &all, &q).unwrap();
    assert!(!ranked.is_empty());
    assert!(hits(&loaded.meta, &[], &ranked).is_err());
    let (page_no, _) = loaded.meta.page_blocks("api/keys").unwrap();
    assert!(page_from_blocks(&loaded.meta, page_no, &[]).is_err());
}

/// Every truncation is an error; garbage and bit flips never panic, and what loads still answers.
fn check_corruption(bytes: &[u8], load: impl Fn(&[u8]) -> bool) {
    assert!(!load(&[]));
    for len in 1..bytes.len() {
        assert!(!load(&bytes[..len]), "truncated at {len}");
    }
    let mut longer = bytes.to_vec();
    longer.push(0);
    assert!(!load(&longer), "trailing byte");
    let mut other = bytes.to_vec();
    other[0] = SHARD_FORMAT_VERSION + 1;
    assert!(!load(&other), "other version");
    super::super::test_rng::each_corruption(bytes, |corrupt| {
        let _ = load(corrupt);
    });
}

#[test]
fn corrupt_objects_of_every_kind_are_errors() {
    let mut pages = site();
    pages.extend(multilingual());
    let index = SearchIndex::build(&pages);
    let loaded = load(&index);
    let meta = &loaded.meta;
    let everything: Vec<&TermShard> = loaded.shards.iter().collect();
    let every_block: Vec<&TextBlock> = loaded.blocks.iter().collect();

    check_corruption(&loaded.split.meta, |b| match SearchMeta::from_bytes(b) {
        Ok(m) => {
            let q = Query::new("custom domain keys");
            if let Ok(ranked) = score(&m, &everything, &q) {
                let _ = hits(&m, &every_block, &ranked);
            }
            if let Some((p, _)) = m.page_blocks("api/keys") {
                let _ = page_from_blocks(&m, p, &every_block);
            }
            true
        }
        Err(_) => false,
    });
    let shard = &loaded.shards[meta.shard_of_test("domain") as usize];
    check_corruption(&shard.to_bytes(), |b| {
        match TermShard::from_bytes(b, shard.id(), meta.shard_count(), meta.chunk_count()) {
            Ok(s) => {
                let _ = score(meta, &[&s], &Query::new("domain"));
                true
            }
            Err(_) => false,
        }
    });
    let block = &loaded.blocks[0];
    check_corruption(&block.to_bytes(), |b| {
        match TextBlock::from_bytes(b, 0, meta) {
            Ok(bl) => {
                let ranked = score(meta, &everything, &Query::new("domain")).unwrap();
                let _ = hits(meta, &[&bl], &ranked);
                true
            }
            Err(_) => false,
        }
    });
    // One kind's bytes are not another's, and a shard or block is checked against its number.
    assert!(SearchMeta::from_bytes(&shard.to_bytes()).is_err());
    assert!(TermShard::from_bytes(
        &loaded.split.meta,
        0,
        meta.shard_count(),
        meta.chunk_count()
    )
    .is_err());
    assert!(TextBlock::from_bytes(&shard.to_bytes(), 0, meta).is_err());
    assert!(TermShard::from_bytes(
        &shard.to_bytes(),
        shard.id() + 1,
        meta.shard_count(),
        meta.chunk_count()
    )
    .is_err());
    assert!(TermShard::from_bytes(&shard.to_bytes(), shard.id(), meta.shard_count(), 0).is_err());
    assert!(TextBlock::from_bytes(&block.to_bytes(), 1, meta).is_err());
}

impl SearchMeta {
    fn shard_of_test(&self, term: &str) -> u32 {
        super::terms::shard_of(term, self.shard_count())
    }
}

fn fixture_pages() -> Option<Vec<Page>> {
    let root = Path::new(FIXTURE);
    if !root.join("docs.json").is_file() {
        eprintln!("fixture not found at {FIXTURE}");
        return None;
    }
    let mut pages = build_site(&read_dir_tree(root).ok()?).ok()?.pages;
    // The fixture has no versions: give a third of the pages one, so the filter is exercised.
    for (i, p) in pages.iter_mut().enumerate() {
        p.version = match i % 3 {
            0 => Some("v1".into()),
            1 => Some("v2".into()),
            _ => None,
        };
    }
    Some(pages)
}

/// Query texts of the tests plus `n` made of words of the fixture's own pages (1-5 words each).
fn fixture_queries(pages: &[Page], n: usize) -> Vec<String> {
    let mut out: Vec<String> = [
        "static export bundle",
        "domaine personnalisé",
        "api key",
        "rate limits",
        "custom domain",
        "how do I set up a custom domain with cloudflare",
        "configure analytics integration",
        "openapi playground",
        "dominio personalizado",
        "自定义域名",
        "redirects",
        "search api key",
        "zebra stripes",
    ]
    .map(String::from)
    .to_vec();
    let words: Vec<&str> = pages
        .iter()
        .flat_map(|p| p.sections.iter().take(2))
        .flat_map(|s| s.text.split_whitespace().take(30))
        .filter(|w| w.chars().count() > 2)
        .collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for i in 0..n {
        let len = 1 + i % 5;
        out.push(
            (0..len)
                .map(|_| *rng.pick(&words))
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    out
}

#[test]
fn the_fixture_answers_the_same_for_hundreds_of_queries_and_every_page() {
    let Some(pages) = fixture_pages() else { return };
    let index = SearchIndex::build(&pages);
    let loaded = load(&index);
    assert!(
        loaded.meta.shard_count() > 10,
        "{} shards",
        loaded.meta.shard_count()
    );
    assert_answers_like_whole(&pages, &index, &loaded);
}

/// A publish fixes the shard count from the source size before the dictionary exists (the batched
/// build gives these bytes exactly: `publish::tests`); split so, the fixture answers the same too.
#[test]
fn the_fixture_answers_the_same_split_at_the_publish_shard_count() {
    let Some(pages) = fixture_pages() else { return };
    let index = SearchIndex::build(&pages);
    let source: u64 = read_dir_tree(Path::new(FIXTURE))
        .expect("the fixture is readable")
        .iter()
        .filter(|(p, _)| p.ends_with(".mdx") || p.ends_with(".md"))
        .map(|(_, b)| b.len() as u64)
        .sum();
    let layout = batched::ShardLayout::for_source_bytes(source);
    let loaded = load_split(ShardedIndex::build_with_shards(&index, layout.shard_count).unwrap());
    assert_eq!(loaded.meta.shard_count(), layout.shard_count);
    assert_ne!(
        layout.shard_count,
        load(&index).meta.shard_count(),
        "a different split than the whole build's"
    );
    assert_answers_like_whole(&pages, &index, &loaded);
}

fn assert_answers_like_whole(pages: &[Page], index: &SearchIndex, loaded: &Loaded) {
    let tags: Vec<String> = pages
        .iter()
        .flat_map(|p| p.tab.iter().chain(&p.groups))
        .cloned()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let paths: Vec<&str> = pages.iter().map(|p| p.path.as_str()).collect();
    let languages = ["en", "fr", "es", "zh", "EN"];
    let versions = ["v1", "v2", "v3"];
    let mut rng = Rng(7);
    let mut nonempty = 0;
    for (i, text) in fixture_queries(pages, 400).iter().enumerate() {
        let groups = [rng.pick(&tags).clone(), rng.pick(&tags).to_lowercase()];
        let mut q = Query {
            limit: [10, 5, 50, 1][i % 4],
            ..Query::new(text)
        };
        match i % 7 {
            1 => q.language = Some(*rng.pick(&languages)),
            2 => q.version = Some(*rng.pick(&versions)),
            3 => q.tag = Some(rng.pick(&tags).as_str()),
            4 => q.groups = &groups,
            5 => q.near_path = Some(*rng.pick(&paths)),
            6 => q.score_threshold = 0.3,
            _ => {}
        }
        let expected = index.search(&q);
        nonempty += usize::from(!expected.is_empty());
        assert_eq!(loaded.search(&q).0, expected, "{q:?}");
    }
    assert!(nonempty > 300, "{nonempty} queries with hits");
    for p in pages {
        assert_eq!(loaded.page(&p.path), index.page(&p.path), "{}", p.path);
    }
}

#[test]
#[ignore]
fn fixture_figures() {
    let Some(pages) = fixture_pages() else { return };
    let index = SearchIndex::build(&pages);
    let whole = index.to_bytes().len();
    let t = std::time::Instant::now();
    let loaded = load(&index);
    let split_ms = t.elapsed().as_secs_f64() * 1000.0;
    let meta = &loaded.meta;
    let sizes = |ranges: Vec<std::ops::Range<u64>>| {
        let mut v: Vec<u64> = ranges.into_iter().map(|r| r.end - r.start).collect();
        v.sort_unstable();
        v
    };
    let shard_sizes = sizes(
        (0..meta.shard_count())
            .filter_map(|i| meta.shard_range(i))
            .collect(),
    );
    let block_sizes = sizes(
        (0..meta.block_count())
            .filter_map(|i| meta.block_range(i))
            .collect(),
    );
    let mid = |v: &[u64]| v.get(v.len() / 2).copied().unwrap_or(0);
    let max = |v: &[u64]| v.last().copied().unwrap_or(0);
    println!(
        "fixture: {} pages, {} chunks; whole index {:.2} MB; split (and load) {split_ms:.0} ms",
        meta.page_count(),
        meta.chunk_count(),
        whole as f64 / 1e6
    );
    println!(
        "meta {:.1} KiB (heap ≈ {:.1} KiB); {} term shards ({:.2} MB): median {:.1} KiB, max {:.1} KiB; \
         {} text blocks ({:.2} MB): median {:.1} KiB, max {:.1} KiB",
        loaded.split.meta.len() as f64 / 1024.0,
        meta.heap_bytes() as f64 / 1024.0,
        meta.shard_count(),
        loaded.split.terms.len() as f64 / 1e6,
        mid(&shard_sizes) as f64 / 1024.0,
        max(&shard_sizes) as f64 / 1024.0,
        meta.block_count(),
        loaded.split.text.len() as f64 / 1e6,
        mid(&block_sizes) as f64 / 1024.0,
        max(&block_sizes) as f64 / 1024.0,
    );
    let mut embedded = index.clone();
    embedded.embed(super::super::semantic::embedded_model());
    let with_vectors = ShardedIndex::build(&embedded).unwrap().meta.len();
    println!(
        "meta with the semantic stage's chunk vectors {:.1} KiB: {:.0} bytes a page more",
        with_vectors as f64 / 1024.0,
        (with_vectors - loaded.split.meta.len()) as f64 / meta.page_count().max(1) as f64
    );
    let mut reads: Vec<u64> = fixture_queries(&pages, 200)
        .iter()
        .map(|t| loaded.search(&Query::new(t)).1 as u64)
        .collect();
    reads.sort_unstable();
    println!(
        "bytes a query reads beyond meta (shards + blocks of 10 hits, 213 queries): median {:.1} KiB, p90 {:.1} KiB, max {:.1} KiB",
        mid(&reads) as f64 / 1024.0,
        reads[reads.len() * 9 / 10] as f64 / 1024.0,
        max(&reads) as f64 / 1024.0
    );
    for text in [
        "static export bundle",
        "api key",
        "custom domain",
        "how do I set up a custom domain with cloudflare",
    ] {
        let q = Query::new(text);
        let (_, read) = loaded.search(&q);
        println!(
            "  {text:?}: {} shards, {} blocks, {:.1} KiB",
            meta.shards_for(text).len(),
            meta.blocks_for(&score(meta, &loaded.shards.iter().collect::<Vec<_>>(), &q).unwrap())
                .len(),
            read as f64 / 1024.0
        );
    }
    let mut page_reads: Vec<u64> = pages
        .iter()
        .filter_map(|p| meta.page_blocks(&p.path))
        .map(|(_, ids)| {
            ids.iter()
                .filter_map(|&id| meta.block_range(id))
                .map(|r| r.end - r.start)
                .sum()
        })
        .collect();
    page_reads.sort_unstable();
    println!(
        "bytes a page reads: median {:.1} KiB, max {:.1} KiB",
        mid(&page_reads) as f64 / 1024.0,
        max(&page_reads) as f64 / 1024.0
    );
}

/// With the semantic stage, the split index fuses the cosines stored in its meta exactly as the
/// whole index fuses its own; a meta stored before the stage loads without vectors.
#[test]
fn chunk_vectors_ride_in_the_meta_and_fuse_alike() {
    let model = super::super::semantic::embedded_model();
    let mut index = SearchIndex::build(&site());
    let plain = load(&index);
    assert!(!plain.meta.has_vectors());
    index.embed(model);
    let loaded = load(&index);
    assert!(loaded.meta.has_vectors());
    assert!(loaded.split.meta.len() > plain.split.meta.len());
    assert_eq!(
        plain.split.meta,
        ShardedIndex::build(&SearchIndex::build(&site()))
            .unwrap()
            .meta
    );
    for text in ["install the cli", "how do I authenticate", "limits"] {
        let vector = model.embed(text);
        let q = Query {
            semantic: vector.as_deref(),
            ..Query::new(text)
        };
        assert_same(&index, &loaded, &q);
    }
    // A vector cut short is corruption, not a quietly different ranking.
    let cut = &loaded.split.meta[..loaded.split.meta.len() - 1];
    assert!(SearchMeta::from_bytes(cut).is_err());
    let lazy = SearchMeta::from_bytes_without_vectors(cut).unwrap();
    let range = lazy.vectors_range().unwrap();
    assert!(lazy.vectors_from(&cut[range.start as usize..]).is_err());
}

/// A meta read without its vectors holds none of them, and with the vectors read from its range
/// the split index ranks as the whole one does; without them it ranks by terms alone.
#[test]
fn chunk_vectors_read_apart_from_the_meta_fuse_alike() {
    let model = super::super::semantic::embedded_model();
    let mut index = SearchIndex::build(&site());
    let whole = load(&index);
    index.embed(model);
    let loaded = load(&index);
    let bytes = &loaded.split.meta;
    let lazy = SearchMeta::from_bytes_without_vectors(bytes).unwrap();
    assert!(lazy.has_vectors());
    let range = lazy.vectors_range().unwrap();
    assert_eq!(range.end as usize, bytes.len());
    let vectors = lazy
        .vectors_from(&bytes[range.start as usize..range.end as usize])
        .unwrap();
    // The isolate is charged for the vectors only when it reads them.
    assert_eq!(
        lazy.heap_bytes() + vectors.heap_bytes(),
        loaded.meta.heap_bytes()
    );
    let plain = SearchMeta::from_bytes_without_vectors(&whole.split.meta).unwrap();
    assert!(!plain.has_vectors() && plain.vectors_range().is_none());
    for text in ["install the cli", "how do I authenticate", "limits"] {
        let vector = model.embed(text);
        let q = Query {
            semantic: vector.as_deref(),
            ..Query::new(text)
        };
        let refs: Vec<&TermShard> = lazy
            .shards_for(q.text)
            .iter()
            .map(|&id| &loaded.shards[id as usize])
            .collect();
        assert_eq!(
            score_with_vectors(&lazy, &refs, Some(&vectors), &q).unwrap(),
            score(&loaded.meta, &refs, &q).unwrap(),
            "{text}"
        );
        assert_eq!(
            score(&lazy, &refs, &q).unwrap(),
            score(
                &loaded.meta,
                &refs,
                &Query {
                    semantic: None,
                    ..q
                }
            )
            .unwrap(),
            "{text}"
        );
    }
}
