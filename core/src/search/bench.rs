//! Figures, not assertions: `cargo test --release -p docs-edge-core search::bench -- --ignored --nocapture`.

use std::time::Instant;

use super::test_rng::Rng;
use super::*;
use crate::docs::{Page, Section};

fn vocabulary(rng: &mut Rng, n: usize) -> Vec<String> {
    const SYL: &[&str] = &[
        "ka", "lo", "re", "mi", "to", "san", "der", "vel", "qu", "is", "on", "ex", "pa", "ti",
    ];
    (0..n)
        .map(|_| {
            let len = 2 + rng.next() % 3;
            (0..len)
                .map(|_| SYL[(rng.next() % SYL.len() as u64) as usize])
                .collect()
        })
        .collect()
}

fn sentence(rng: &mut Rng, vocab: &[String], words: usize) -> String {
    let mut s: Vec<&str> = Vec::with_capacity(words);
    for _ in 0..words {
        s.push(&vocab[rng.zipf(vocab.len())]);
    }
    s.join(" ")
}

/// 2,000 pages x 5 sections of about 1,000-1,400 characters: 10,000 chunks.
fn synthetic_site() -> Vec<Page> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let vocab = vocabulary(&mut rng, 8000);
    (0..2000)
        .map(|p| Page {
            path: format!("section{}/page{p}", p % 20),
            title: sentence(&mut rng, &vocab, 3),
            language: "en".into(),
            groups: vec![format!("Group {}", p % 7)],
            sections: (0..5)
                .map(|s| Section {
                    heading: if s == 0 {
                        String::new()
                    } else {
                        sentence(&mut rng, &vocab, 3)
                    },
                    anchor: format!("s{s}"),
                    level: if s == 0 { 0 } else { 2 },
                    text: (0..8)
                        .map(|_| sentence(&mut rng, &vocab, 20))
                        .collect::<Vec<_>>()
                        .join("\n"),
                })
                .collect(),
            ..Default::default()
        })
        .collect()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p) as usize]
}

#[test]
#[ignore]
fn synthetic_10k_chunks_figures() {
    let pages = synthetic_site();
    let text_bytes: usize = pages
        .iter()
        .flat_map(|p| &p.sections)
        .map(|s| s.text.len())
        .sum();

    let t = Instant::now();
    let index = SearchIndex::build(&pages);
    let build = t.elapsed();

    let t = Instant::now();
    let bytes = index.to_bytes();
    let encode = t.elapsed();
    let t = Instant::now();
    let loaded = SearchIndex::from_bytes(&bytes).unwrap();
    let load = t.elapsed();

    let mut rng = Rng(42);
    let vocab = vocabulary(&mut Rng(0x9e37_79b9_7f4a_7c15), 8000);
    let queries: Vec<String> = (0..500)
        .map(|i| {
            let words = 1 + i % 5;
            (0..words)
                .map(|_| vocab[rng.zipf(400)].as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let mut times = Vec::new();
    let mut hits = 0;
    for q in &queries {
        let t = Instant::now();
        hits += loaded.search(&Query::new(q)).len();
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    let d = &index.data;
    let stored: usize = d
        .chunks
        .iter()
        .map(|c| c.text.len() + c.heading.len())
        .sum();
    println!(
        "bytes: chunk text {:.2} MB, postings {:.2} MB, terms {} ({:.2} MB), gzip -6 {:.2} MB",
        stored as f64 / 1e6,
        d.table.postings.len() as f64 / 1e6,
        d.table.term_ends.len(),
        d.table.terms.len() as f64 / 1e6,
        gzip_len(&bytes) as f64 / 1e6,
    );

    println!(
        "pages {} chunks {} text {:.1} MB | build {:.0} ms | bytes {:.2} MB (encode {:.0} ms, load {:.1} ms) \
         | query p50 {:.3} ms p95 {:.3} ms max {:.3} ms ({} hits)",
        index.page_count(),
        index.chunk_count(),
        text_bytes as f64 / 1e6,
        build.as_secs_f64() * 1000.0,
        bytes.len() as f64 / 1e6,
        encode.as_secs_f64() * 1000.0,
        load.as_secs_f64() * 1000.0,
        percentile(&times, 0.5),
        percentile(&times, 0.95),
        percentile(&times, 1.0),
        hits,
    );
}

fn gzip_len(bytes: &[u8]) -> usize {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let _ = enc.write_all(bytes);
    enc.finish().map_or(0, |v| v.len())
}
