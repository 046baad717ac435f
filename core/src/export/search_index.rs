//! The offline search index of the bundle, split so one query loads little.
//!
//! Per language, under `_static/search/<lang>/`:
//! - `meta.json`: `{"docs": N, "chunk": C}`.
//! - `t/<key>.json`: postings of every term whose first two characters are `key` (ASCII keys as they
//!   are, others `_` + UTF-8 hex): `{"term": [doc, weight, doc-delta, weight, ...]}`.
//! - `d/<n>.json`: documents `n*C .. (n+1)*C` as `[title, heading, url, snippet]`, url relative to
//!   the bundle root.
//!
//! A document is a section of a page (the intro carries the title, description and keywords), so
//! a result links to the heading. `site.js` tokenizes the query as [`tokens`] does, loads the term
//! files of its words (the last word also matches as a prefix), ranks, then loads only the document
//! chunks of the top hits. [`search_bytes_for_query`] replays that to measure what a query costs.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

use crate::docs::{Page, Site};

use super::layout::SEARCH_DIR;
use super::links::{encode_path, output_file, unambiguous};
use super::ExportFile;

/// Documents per chunk file.
const CHUNK: usize = 16;
/// Results whose documents a query loads.
pub(crate) const TOP: usize = 10;
/// Prefix expansions of the last query word.
const PREFIX_TERMS: usize = 30;
const MAX_TERM_CHARS: usize = 40;
const SNIPPET_CHARS: usize = 160;
/// Words too common to help ranking; their postings would be the largest files.
const STOP_WORDS: [&str; 36] = [
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "has", "have",
    "how", "i", "if", "in", "is", "it", "its", "of", "on", "or", "that", "the", "this", "to",
    "was", "we", "were", "what", "will", "with", "you", "your",
];

/// Lowercase words of letters and digits; CJK ideographs and kana are one token each (those
/// scripts do not separate words). `site.js` implements the same rules.
pub(crate) fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_token(text, |t| out.push(t.to_owned()));
    out
}

/// [`tokens`] without an allocation per token: the index build calls it on every page's text.
fn for_each_token(text: &str, mut f: impl FnMut(&str)) {
    let mut word = String::new();
    let emit = |word: &mut String, f: &mut dyn FnMut(&str)| {
        if !word.is_empty() {
            if word.chars().count() <= MAX_TERM_CHARS && !STOP_WORDS.contains(&word.as_str()) {
                f(word);
            }
            word.clear();
        }
    };
    let mut buf = [0u8; 4];
    for c in text.chars() {
        if is_cjk(c) {
            emit(&mut word, &mut f);
            f(c.encode_utf8(&mut buf));
        } else if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        } else {
            emit(&mut word, &mut f);
        }
    }
    emit(&mut word, &mut f);
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0xFF66..=0xFF9F)
}

/// File key of a term: its first two characters, `_`+hex when not plain ASCII letters/digits.
pub(crate) fn shard_key(term: &str) -> String {
    let prefix: String = term.chars().take(2).collect();
    if prefix
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    {
        prefix
    } else {
        let mut key = String::from("_");
        for b in prefix.bytes() {
            key.push_str(&format!("{b:02x}"));
        }
        key
    }
}

#[derive(Default)]
struct LanguageIndex {
    docs: Vec<[String; 4]>,
    /// term -> doc -> weight
    postings: BTreeMap<String, BTreeMap<u32, u32>>,
}

impl LanguageIndex {
    fn add(&mut self, doc: u32, text: &str, weight: u32, cap: u32) {
        for term in tokens(text) {
            let w = self
                .postings
                .entry(term)
                .or_default()
                .entry(doc)
                .or_insert(0);
            *w = (*w + weight).min(cap.max(*w));
        }
    }

    fn add_page(&mut self, page: &Page) {
        let url = unambiguous(encode_path(&output_file(&page.path)));
        for (i, section) in page.sections.iter().enumerate() {
            if i > 0 && section.heading.is_empty() && section.text.is_empty() {
                continue;
            }
            let Ok(doc) = u32::try_from(self.docs.len()) else {
                return;
            };
            let href = if section.anchor.is_empty() {
                url.clone()
            } else {
                format!("{url}#{}", encode_path(&section.anchor))
            };
            self.docs.push([
                page.title.clone(),
                section.heading.clone(),
                href,
                snippet(&section.text),
            ]);
            // Prose counts once a mention up to 8; a heading or the title outweighs any prose.
            self.add(doc, &section.text, 1, 8);
            self.add(doc, &section.heading, 12, 40);
            if i == 0 {
                self.add(doc, &page.title, 20, 60);
                if let Some(description) = &page.description {
                    self.add(doc, description, 4, 60);
                }
                for keyword in &page.keywords {
                    self.add(doc, keyword, 6, 60);
                }
            }
        }
    }

    fn files(self, dir: &str) -> Vec<ExportFile> {
        let mut files = Vec::new();
        let meta = json!({"docs": self.docs.len(), "chunk": CHUNK});
        files.push(ExportFile::new(
            format!("{dir}/meta.json"),
            meta.to_string(),
        ));
        // Terms are sorted, so the terms of one key are consecutive: one shard is written at a time.
        let mut shard = String::new();
        let mut shard_of: Option<String> = None;
        for (term, docs) in self.postings {
            let key = shard_key(&term);
            if shard_of.as_ref() != Some(&key) {
                if let Some(done) = shard_of.replace(key) {
                    shard.push('}');
                    files.push(ExportFile::new(
                        format!("{dir}/t/{done}.json"),
                        std::mem::take(&mut shard),
                    ));
                }
                shard.push('{');
            } else {
                shard.push(',');
            }
            shard.push_str(&Value::String(term).to_string());
            shard.push_str(":[");
            let mut last = 0u32;
            for (i, (doc, weight)) in docs.into_iter().enumerate() {
                if i > 0 {
                    shard.push(',');
                }
                shard.push_str(&format!("{},{weight}", doc - last));
                last = doc;
            }
            shard.push(']');
        }
        if let Some(done) = shard_of {
            shard.push('}');
            files.push(ExportFile::new(format!("{dir}/t/{done}.json"), shard));
        }
        for (n, chunk) in self.docs.chunks(CHUNK).enumerate() {
            files.push(ExportFile::new(
                format!("{dir}/d/{n}.json"),
                json!(chunk).to_string(),
            ));
        }
        files
    }
}

fn snippet(text: &str) -> String {
    let mut out = String::new();
    for (i, word) in text.split_whitespace().enumerate() {
        if out.chars().count() + word.chars().count() > SNIPPET_CHARS {
            out.push('\u{2026}');
            break;
        }
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Index files for the given pages (indices into `site.pages`), hidden pages left out.
pub(crate) fn build(site: &Site, pages: &[usize]) -> Vec<ExportFile> {
    let mut by_language: BTreeMap<&str, LanguageIndex> = BTreeMap::new();
    for page in pages.iter().filter_map(|&i| site.pages.get(i)) {
        if page.hidden {
            continue;
        }
        by_language
            .entry(page.language.as_str())
            .or_default()
            .add_page(page);
    }
    by_language
        .into_iter()
        .flat_map(|(language, index)| index.files(&format!("{SEARCH_DIR}/{language}")))
        .collect()
}

/// Bytes the bundled `site.js` fetches to answer `query` on a page in `language`: the manifest,
/// the term files of the query's words and the document chunks of the top results.
pub fn search_bytes_for_query(files: &[ExportFile], language: &str, query: &str) -> usize {
    let dir = format!("{SEARCH_DIR}/{language}");
    let find = |path: &str| files.iter().find(|f| f.path == path);
    let Some(meta) = find(&format!("{dir}/meta.json")) else {
        return 0;
    };
    let mut bytes = meta.bytes.len();
    let total = serde_json::from_slice::<Value>(&meta.bytes)
        .ok()
        .and_then(|m| m.get("docs").and_then(Value::as_u64))
        .unwrap_or(0) as f64;
    let words = tokens(query);
    let mut shards: BTreeMap<String, Value> = BTreeMap::new();
    for word in &words {
        let key = shard_key(word);
        if shards.contains_key(&key) {
            continue;
        }
        let parsed = match find(&format!("{dir}/t/{key}.json")) {
            Some(file) => {
                bytes += file.bytes.len();
                serde_json::from_slice(&file.bytes).unwrap_or(Value::Null)
            }
            None => Value::Null,
        };
        shards.insert(key, parsed);
    }
    // Score as site.js does: per word, the best-weighted matching term; documents matching more
    // words rank first.
    let mut scores: BTreeMap<u64, (usize, f64)> = BTreeMap::new();
    for (i, word) in words.iter().enumerate() {
        let Some(Value::Object(terms)) = shards.get(&shard_key(word)) else {
            continue;
        };
        let last = i + 1 == words.len();
        let mut matched: Vec<(&Value, f64)> = Vec::new();
        if let Some(p) = terms.get(word) {
            matched.push((p, 1.0));
        }
        if last {
            matched.extend(
                terms
                    .iter()
                    .filter(|(t, _)| t.starts_with(word.as_str()) && *t != word)
                    .take(PREFIX_TERMS)
                    .map(|(_, p)| (p, 0.6)),
            );
        }
        let mut best: BTreeMap<u64, f64> = BTreeMap::new();
        for (postings, factor) in matched {
            let Some(flat) = postings.as_array() else {
                continue;
            };
            let df = (flat.len() / 2).max(1) as f64;
            let idf = (1.0 + total / df).ln();
            let mut doc = 0u64;
            for pair in flat.chunks(2) {
                doc += pair[0].as_u64().unwrap_or(0);
                let w = pair.get(1).and_then(Value::as_u64).unwrap_or(0) as f64;
                let s = idf * w * factor;
                let e = best.entry(doc).or_insert(0.0);
                if s > *e {
                    *e = s;
                }
            }
        }
        for (doc, s) in best {
            let e = scores.entry(doc).or_insert((0, 0.0));
            e.0 += 1;
            e.1 += s;
        }
    }
    let mut ranked: Vec<(u64, (usize, f64))> = scores.into_iter().collect();
    ranked.sort_by(|a, b| {
        b.1 .0
            .cmp(&a.1 .0)
            .then(
                b.1 .1
                    .partial_cmp(&a.1 .1)
                    .unwrap_or(std::cmp::Ordering::Equal),
            )
            .then(a.0.cmp(&b.0))
    });
    let chunks: BTreeSet<u64> = ranked
        .iter()
        .take(TOP)
        .map(|(doc, _)| doc / CHUNK as u64)
        .collect();
    for chunk in chunks {
        if let Some(file) = find(&format!("{dir}/d/{chunk}.json")) {
            bytes += file.bytes.len();
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::Section;

    fn page(path: &str, title: &str, sections: &[(&str, &str)]) -> Page {
        Page {
            path: path.into(),
            title: title.into(),
            language: "en".into(),
            sections: sections
                .iter()
                .map(|(h, t)| Section {
                    heading: h.to_string(),
                    anchor: crate::docs::slug::slugify(h),
                    level: if h.is_empty() { 0 } else { 2 },
                    text: t.to_string(),
                })
                .collect(),
            ..Page::default()
        }
    }

    #[test]
    fn tokenizer_lowercases_splits_and_separates_cjk() {
        assert_eq!(
            tokens("Custom-Domain setup, v2!"),
            ["custom", "domain", "setup", "v2"]
        );
        assert_eq!(tokens("配置域名 DNS"), ["配", "置", "域", "名", "dns"]);
        assert_eq!(tokens("The domain of it"), ["domain"]);
        assert_eq!(tokens("Instalación rápida"), ["instalación", "rápida"]);
    }

    #[test]
    fn shard_keys_are_safe_file_names() {
        assert_eq!(shard_key("domain"), "do");
        assert_eq!(shard_key("x"), "x");
        assert_eq!(shard_key("配"), "_e9858d");
        assert_eq!(shard_key("éd"), "_c3a964");
    }

    #[test]
    fn index_files_and_query_cost() {
        let site = Site {
            pages: vec![
                page(
                    "a",
                    "Custom domains",
                    &[("", "Point your domain"), ("DNS records", "Add a CNAME")],
                ),
                page("b", "Analytics", &[("", "Traffic and domain insights")]),
            ],
            ..Site::default()
        };
        let files = build(&site, &[0, 1]);
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        assert!(paths.contains(&"_static/search/en/meta.json"));
        assert!(paths.contains(&"_static/search/en/t/do.json"));
        assert!(paths.contains(&"_static/search/en/d/0.json"));
        let shard = files
            .iter()
            .find(|f| f.path.ends_with("t/do.json"))
            .unwrap();
        let v: Value = serde_json::from_slice(&shard.bytes).unwrap();
        assert_eq!(v["domain"][0], 0, "first doc id");
        assert!(v["domains"].is_array());
        let docs = files.iter().find(|f| f.path.ends_with("d/0.json")).unwrap();
        let v: Value = serde_json::from_slice(&docs.bytes).unwrap();
        assert_eq!(v[1][2], "a.html#dns-records");
        let cost = search_bytes_for_query(&files, "en", "domain");
        assert!(cost > 0 && cost < files.iter().map(|f| f.bytes.len()).sum::<usize>() + 1);
        assert_eq!(search_bytes_for_query(&files, "fr", "domain"), 0);
    }
}
