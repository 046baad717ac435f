//! Spot checks on the real docs fixture, with a throwaway page reader (frontmatter title, `#`
//! headings) so this does not wait for the docs parser. Figures and top hits are printed:
//! `cargo test -p docs-edge-core search::fixture -- --ignored --nocapture`.

use std::path::Path;
use std::time::Instant;

use super::*;
use crate::docs::{Page, Section};

const FIXTURE: &str = "../../shared/fixtures/mintlify-docs";

fn read_pages(root: &Path, dir: &Path, out: &mut Vec<Page>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            read_pages(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "mdx") {
            let Ok(src) = std::fs::read_to_string(&path) else {
                continue;
            };
            let rel = path.strip_prefix(root).unwrap().with_extension("");
            out.push(parse(&rel.to_string_lossy(), &src));
        }
    }
}

fn parse(path: &str, src: &str) -> Page {
    let mut title = String::new();
    let mut body = src;
    if let Some(rest) = src.strip_prefix("---\n") {
        if let Some((front, after)) = rest.split_once("\n---") {
            body = after;
            for line in front.lines() {
                if let Some(t) = line.strip_prefix("title:") {
                    title = t.trim().trim_matches('"').to_owned();
                }
            }
        }
    }
    let language = match path.split('/').next() {
        Some(l @ ("es" | "fr" | "zh")) => l.to_owned(),
        _ => "en".to_owned(),
    };
    let mut sections = vec![Section::default()];
    let mut in_code = false;
    for line in body.lines() {
        in_code ^= line.trim_start().starts_with("```");
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !in_code && (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let heading = line[hashes..].trim().to_owned();
            let anchor = heading.to_lowercase().replace(' ', "-");
            sections.push(Section {
                heading,
                anchor,
                level: hashes as u8,
                text: String::new(),
            });
        } else if let Some(last) = sections.last_mut() {
            last.text.push_str(line);
            last.text.push('\n');
        }
    }
    Page {
        path: path.to_owned(),
        title,
        language,
        sections,
        ..Default::default()
    }
}

#[test]
#[ignore]
fn fixture_figures_and_top_hits() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE);
    let mut pages = Vec::new();
    read_pages(&root, &root, &mut pages);
    if pages.is_empty() {
        println!("fixture not found at {}", root.display());
        return;
    }
    pages.sort_by(|a, b| a.path.cmp(&b.path));

    let t = Instant::now();
    let index = SearchIndex::build(&pages);
    let build = t.elapsed();
    let bytes = index.to_bytes();
    let t = Instant::now();
    let index = SearchIndex::from_bytes(&bytes).unwrap();
    let load = t.elapsed();
    println!(
        "fixture: {} pages, {} chunks, build {:.0} ms, {:.2} MB, load {:.1} ms",
        index.page_count(),
        index.chunk_count(),
        build.as_secs_f64() * 1000.0,
        bytes.len() as f64 / 1e6,
        load.as_secs_f64() * 1000.0
    );

    let queries = [
        ("custom domain", None),
        ("how do I set up a custom domain with cloudflare", None),
        ("configure analytics integration", None),
        ("openapi playground", None),
        ("dominio personalizado", Some("es")),
        ("自定义域名", Some("zh")),
        ("redirects", None),
        ("search api key", None),
    ];
    for (text, language) in queries {
        let t = Instant::now();
        let hits = index.search(&Query {
            limit: 5,
            language,
            ..Query::new(text)
        });
        let took = t.elapsed().as_secs_f64() * 1000.0;
        println!("\n{text:?} ({took:.2} ms)");
        for h in hits {
            println!(
                "  {:.3} {} # {}",
                h.score,
                h.path,
                h.heading.unwrap_or_default()
            );
        }
    }
}
