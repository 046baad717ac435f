//! The offline search index of the bundle, split so one query loads little.
//!
//! Per language, under `_static/search/<lang>/`:
//! - `meta.json`: `{"docs": N, "pages": P, "split": [prefix, ...]}`.
//! - `t/<key>.json`: postings of the terms of one key (file names: ASCII keys as they are, others
//!   `_` + UTF-8 hex): `{"term": [df, page, section, weight, page-delta, section, weight, ...]}`. A
//!   term's key is its first two characters, lengthened one character at a time while the key is in
//!   `split`: a shard over [`SHARD_BYTES`] is split by the next character, so no term file grows with
//!   the site. Terms equal to a split key stay in its file.
//! - `d/<n>.json`: the documents of pages `n*P .. (n+1)*P`, per page its documents as
//!   `[title, heading, url, snippet]`, url relative to the bundle root.
//!
//! A document is named by its page and its place in the page (pages numbered in export order), not
//! by a running count: a page that gains or loses a section changes its own `d` file and the term
//! files of its own terms, and the rest of the index keeps its bytes (what a mirror downloads).
//!
//! A document is a section of a page (the intro carries the title, description and keywords), so
//! a result links to the heading. A term keeps the postings of its [`MAX_POSTINGS`] best-weighted
//! documents (`df` counts them all, for idf), and a page contributes at most
//! [`PAGE_TERMS`] prose words: a common word costs the same bytes on any site size. `site.js`
//! tokenizes the query as [`tokens`] does, loads the term files of its words (the last word also
//! matches as a prefix), ranks, then loads only the document chunks of the top hits.
//! [`search_bytes_for_query`] replays that to measure what a query costs.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use flate2::Compression;
use serde_json::{json, Value};
use std::io::{Read, Write};

use crate::docs::sections::callout_text;
use crate::docs::Page;
#[cfg(test)]
use crate::docs::Site;
use crate::text::Analyzer;

use crate::export::page::layout::SEARCH_DIR;
#[cfg(test)]
use crate::export::render::links::output_file;
use crate::export::render::links::{encode_path, unambiguous};
use crate::export::ExportFile;

mod partial;
pub(crate) use partial::SearchPartial;

/// Pages per document file: about as many documents as sixteen on the fixture (nine a page), and a
/// query loads about the bytes it did with files of sixteen documents.
const FILE_PAGES: usize = 2;
/// Results whose documents a query loads.
pub(crate) const TOP: usize = 10;
/// Prefix expansions of the last query word.
const PREFIX_TERMS: usize = 30;
/// Postings kept per term, the best-weighted ones: enough for ten results of a several-word query.
pub(crate) const MAX_POSTINGS: usize = 128;
/// Prose words a page contributes to the index (headings, title and description always count):
/// long reference pages would otherwise dominate the postings of common words.
pub(crate) const PAGE_TERMS: usize = 2_000;
/// A term file over this size is split by the next character of its terms.
pub(crate) const SHARD_BYTES: usize = 8 * 1024;
const SNIPPET_CHARS: usize = 160;

/// The terms of `text` by [`Analyzer::OfflineShard`]: lowercase words of letters and digits
/// (stop words and words over 40 characters dropped), each Han or kana character a term of its
/// own. `site.js` implements the same rules (held to `text/vectors.json` on both sides).
pub(crate) fn tokens(text: &str) -> Vec<String> {
    Analyzer::OfflineShard.analyze(text)
}

/// The key of `term`: its first two characters, one more while the key is in `split`.
pub(crate) fn term_key(term: &str, split: &BTreeSet<String>) -> String {
    let chars: Vec<char> = term.chars().collect();
    let mut len = chars.len().min(2);
    while len < chars.len() && split.contains(&chars[..len].iter().collect::<String>()) {
        len += 1;
    }
    chars[..len].iter().collect()
}

/// File name (without `.json`) of a key: as it is when plain ASCII letters/digits, else `_`+hex.
pub(crate) fn key_file(key: &str) -> String {
    if key
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    {
        key.to_owned()
    } else {
        let mut name = String::from("_");
        for b in key.bytes() {
            name.push_str(&format!("{b:02x}"));
        }
        name
    }
}

/// One term's postings, gathered in document order: `df` counts every document, and only the
/// [`MAX_POSTINGS`] best-weighted ones are kept (plus the one being added), so a common term costs
/// the same memory on any site size. Documents are numbered as they are added and a document's
/// weight changes only while it is the latest, so keeping the best as each one is done keeps
/// exactly the documents that ranking them all at the end would.
#[derive(Default)]
struct TermPostings {
    df: usize,
    /// The latest document and its weight so far.
    open: Option<(u32, u32)>,
    /// Finished documents; the root is the first to drop: the lowest weight, then the latest document.
    kept: BinaryHeap<Reverse<(u32, Reverse<u32>)>>,
}

impl TermPostings {
    /// Adds `weight` to `doc` (the latest document or a new one), the sum held under `cap` unless a
    /// single mention is already over it.
    fn add(&mut self, doc: u32, weight: u32, cap: u32) {
        let current = match self.open {
            Some((open, w)) if open == doc => w,
            _ => {
                self.close();
                self.df += 1;
                0
            }
        };
        self.open = Some((doc, (current + weight).min(cap.max(current))));
    }

    fn close(&mut self) {
        let Some((doc, weight)) = self.open.take() else {
            return;
        };
        let done = Reverse((weight, Reverse(doc)));
        if self.kept.len() < MAX_POSTINGS {
            self.kept.push(done);
        } else if let Some(mut worst) = self.kept.peek_mut() {
            // Replaced in place, so the heap never grows past the cap.
            if done < *worst {
                *worst = done;
            }
        }
    }

    /// The kept documents as (page delta, section, weight) triples in document order, once
    /// [`Self::close`]d; page `p`'s documents are numbered from `page_docs[p]`.
    fn triples(&self, page_docs: &[u32]) -> Vec<(usize, u32, u32)> {
        let mut kept: Vec<(u32, u32)> = self
            .kept
            .iter()
            .map(|&Reverse((weight, Reverse(doc)))| (doc, weight))
            .collect();
        crate::sort::sort(&mut kept);
        let mut last = 0usize;
        kept.into_iter()
            .map(|(doc, weight)| {
                let page = page_docs.partition_point(|&first| first <= doc).max(1) - 1;
                let section = doc - page_docs.get(page).copied().unwrap_or(0);
                let delta = page - last;
                last = page;
                (delta, section, weight)
            })
            .collect()
    }

    /// The JSON of the postings, once [`Self::close`]d: `df`, then the [`Self::triples`].
    fn json(&self, page_docs: &[u32], out: &mut String) {
        use std::fmt::Write;
        // Writing to a String cannot fail.
        let _ = write!(out, "[{}", self.df);
        for (delta, section, weight) in self.triples(page_docs) {
            let _ = write!(out, ",{delta},{section},{weight}");
        }
        out.push(']');
    }

    /// The length of [`Self::json`], counted without writing it (the term files are laid out by
    /// their terms' sizes before any is written).
    fn json_len(&self, page_docs: &[u32]) -> usize {
        fn digits(mut n: u64) -> usize {
            let mut count = 1;
            while n >= 10 {
                n /= 10;
                count += 1;
            }
            count
        }
        let triples: usize = self
            .triples(page_docs)
            .into_iter()
            .map(|(delta, section, weight)| {
                3 + digits(delta as u64) + digits(section.into()) + digits(weight.into())
            })
            .sum();
        2 + digits(self.df as u64) + triples
    }
}

/// Term files of one group of terms (sorted, all starting with `key`, each with the length of its
/// postings' JSON): one file, or when that is over [`SHARD_BYTES`] and some term is longer than
/// the key, one file per next character (terms equal to the key stay in the key's file),
/// recursively. Each file goes to `out` as its key and its terms; split keys go to `split`.
fn shard(
    key: &str,
    terms: &[(String, usize)],
    split: &mut BTreeSet<String>,
    out: &mut Vec<(String, Vec<String>)>,
) {
    let key_chars = key.chars().count();
    let size: usize = terms.iter().map(|(t, p)| t.len() + p + 4).sum();
    if size <= SHARD_BYTES || terms.iter().all(|(t, _)| t.chars().count() <= key_chars) {
        out.push((
            key.to_owned(),
            terms.iter().map(|(t, _)| t.clone()).collect(),
        ));
        return;
    }
    split.insert(key.to_owned());
    let exact: Vec<(String, usize)> = terms
        .iter()
        .filter(|(t, _)| t.chars().count() <= key_chars)
        .cloned()
        .collect();
    if !exact.is_empty() {
        shard(key, &exact, split, out);
    }
    let longer: Vec<&(String, usize)> = terms
        .iter()
        .filter(|(t, _)| t.chars().count() > key_chars)
        .collect();
    let mut start = 0;
    while start < longer.len() {
        let child: String = longer[start].0.chars().take(key_chars + 1).collect();
        let end = longer[start..]
            .iter()
            .position(|(t, _)| !t.starts_with(&child))
            .map_or(longer.len(), |n| start + n);
        let group: Vec<(String, usize)> = longer[start..end].iter().map(|&t| t.clone()).collect();
        shard(&child, &group, split, out);
        start = end;
    }
}

#[derive(Default)]
struct LanguageIndex {
    /// Documents added so far.
    docs: u32,
    /// Each page's first document.
    page_docs: Vec<u32>,
    /// Each full file of [`FILE_PAGES`] pages: per page, `[title, heading, url, snippet]` a document.
    chunks: Vec<StoredChunk>,
    /// The pages after the last full file.
    open_pages: Vec<Vec<[String; 4]>>,
    /// By term, hashed: every word of every page looks its term up here (ten million lookups at
    /// 10,000 pages, a third of the time a sorted map takes); sorted once, when the files are written.
    postings: foldhash::HashMap<String, TermPostings>,
    /// A batch's share ([`SearchPartial`]): every page's documents stay in `open_pages`, since
    /// the files they go into depend on the pages before the batch.
    keep_pages: bool,
}

impl LanguageIndex {
    /// Adds the terms of `text`, at most `budget` of them; returns how many it added.
    fn add(&mut self, doc: u32, text: &str, weight: u32, cap: u32, budget: usize) -> usize {
        let mut added = 0;
        Analyzer::OfflineShard.terms(text, |term| {
            if added == budget {
                return;
            }
            added += 1;
            // A term seen before (most are) is found without allocating its key.
            match self.postings.get_mut(term) {
                Some(postings) => postings.add(doc, weight, cap),
                None => self
                    .postings
                    .entry(term.to_owned())
                    .or_default()
                    .add(doc, weight, cap),
            }
        });
        added
    }

    /// Numbers a document of the latest page and keeps it.
    fn push_doc(&mut self, doc: [String; 4]) {
        self.docs += 1;
        if let Some(page) = self.open_pages.last_mut() {
            page.push(doc);
        }
    }

    /// Starts a page, serializing the file of the pages before once it is full.
    fn start_page(&mut self) {
        if !self.keep_pages && self.open_pages.len() == FILE_PAGES {
            self.chunks.push(StoredChunk::new(
                &json!(std::mem::take(&mut self.open_pages)).to_string(),
            ));
        }
        self.page_docs.push(self.docs);
        self.open_pages.push(Vec::new());
    }

    fn add_page(&mut self, page: &Page, file: &str) {
        if self.docs == u32::MAX {
            return;
        }
        self.start_page();
        let url = unambiguous(encode_path(file));
        let mut prose = PAGE_TERMS;
        for (i, section) in page.sections.iter().enumerate() {
            if i > 0 && section.heading.is_empty() && section.text.is_empty() {
                continue;
            }
            let doc = self.docs;
            if doc == u32::MAX {
                return;
            }
            let href = if section.anchor.is_empty() {
                url.clone()
            } else {
                format!("{url}#{}", encode_path(&section.anchor))
            };
            self.push_doc([
                page.title.clone(),
                section.heading.clone(),
                href,
                snippet(&section.text),
            ]);
            // Prose counts once a mention up to 8; a heading or the title outweighs any prose.
            // A page's prose words past its budget are not read at all.
            if prose > 0 {
                prose -= self.add(doc, &section.text, 1, 8, prose);
            }
            self.add(doc, &section.heading, 12, 40, usize::MAX);
            if i == 0 {
                self.add(doc, &page.title, 20, 60, usize::MAX);
                if let Some(description) = &page.description {
                    self.add(doc, description, 4, 60, usize::MAX);
                }
                for keyword in &page.keywords {
                    self.add(doc, keyword, 6, 60, usize::MAX);
                }
            }
        }
    }

    /// The language's files under `dir`, in path order, each handed to `emit` as it is made. The
    /// term files are laid out first from their postings' sizes (`meta.json`, before them, names
    /// the split keys), then each is written from its terms' postings, which go as it is: no more
    /// than one term file's JSON is held at a time.
    fn write_files(mut self, dir: &str, emit: &mut dyn FnMut(ExportFile)) {
        let page_docs = std::mem::take(&mut self.page_docs);
        let mut postings: BTreeMap<String, TermPostings> =
            std::mem::take(&mut self.postings).into_iter().collect();
        postings.values_mut().for_each(TermPostings::close);
        let mut split = BTreeSet::new();
        let mut layout = Vec::new();
        // Terms are sorted, so the terms of one two-character prefix are consecutive.
        let mut group: Vec<(String, usize)> = Vec::new();
        let mut group_key = String::new();
        for (term, docs) in &postings {
            let key: String = term.chars().take(2).collect();
            if key != group_key && !group.is_empty() {
                shard(
                    &group_key,
                    &std::mem::take(&mut group),
                    &mut split,
                    &mut layout,
                );
            }
            group_key = key;
            group.push((term.clone(), docs.json_len(&page_docs)));
        }
        if !group.is_empty() {
            shard(&group_key, &group, &mut split, &mut layout);
        }
        if !self.open_pages.is_empty() {
            let last = json!(std::mem::take(&mut self.open_pages)).to_string();
            self.chunks.push(StoredChunk::new(&last));
        }
        let mut chunks: Vec<(String, StoredChunk)> = std::mem::take(&mut self.chunks)
            .into_iter()
            .enumerate()
            .map(|(n, chunk)| (format!("{dir}/d/{n}.json"), chunk))
            .collect();
        crate::sort::sort_by(&mut chunks, |a, b| a.0.cmp(&b.0));
        for (path, chunk) in chunks {
            emit(ExportFile::new(path, chunk.text()));
        }
        let meta = json!({"docs": self.docs, "pages": FILE_PAGES, "split": split});
        emit(ExportFile::new(
            format!("{dir}/meta.json"),
            meta.to_string(),
        ));
        let mut layout: Vec<(String, Vec<String>)> = layout
            .into_iter()
            .map(|(key, terms)| (format!("{dir}/t/{}.json", key_file(&key)), terms))
            .collect();
        crate::sort::sort_by(&mut layout, |a, b| a.0.cmp(&b.0));
        for (path, terms) in layout {
            let mut file = String::from("{");
            for (i, term) in terms.into_iter().enumerate() {
                if i > 0 {
                    file.push(',');
                }
                file.push_str(&Value::String(term.clone()).to_string());
                file.push(':');
                if let Some(docs) = postings.remove(&term) {
                    docs.json(&page_docs, &mut file);
                }
            }
            file.push('}');
            emit(ExportFile::new(path, file));
        }
    }
}

/// A full chunk file's JSON, deflated while it waits for the index to be written: the documents'
/// titles, headings and snippets are most of what the index holds (23 MB at 10,000 pages).
struct StoredChunk(Box<[u8]>);

impl StoredChunk {
    fn new(json: &str) -> Self {
        let mut deflate = DeflateEncoder::new(Vec::new(), Compression::fast());
        // Writing into memory cannot fail.
        let _ = deflate.write_all(json.as_bytes());
        StoredChunk(deflate.finish().unwrap_or_default().into_boxed_slice())
    }

    fn text(&self) -> String {
        let mut json = String::new();
        // What `new` deflated inflates again.
        let _ = DeflateDecoder::new(&self.0[..]).read_to_string(&mut json);
        json
    }
}

fn snippet(text: &str) -> String {
    let mut out = String::new();
    // A callout's lines are quoted with `> ` in the section text; a snippet shows the words alone.
    let words = text
        .lines()
        .flat_map(|l| callout_text(l).unwrap_or(l).split_whitespace());
    for (i, word) in words.enumerate() {
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

/// The index being built, a page at a time in export order, so a reader may hold one batch of
/// pages' text at a time.
#[derive(Default)]
pub(crate) struct SearchIndex {
    by_language: BTreeMap<String, LanguageIndex>,
    /// A batch's share of the index ([`SearchIndex::for_batch`]).
    batch: bool,
}

impl SearchIndex {
    /// Adds `page` (with its sections); pages search leaves out (`Page::unsearchable`) are left out.
    #[cfg(test)]
    pub(crate) fn add(&mut self, page: &Page) {
        self.add_as(page, page.language.clone(), &output_file(&page.path));
    }

    /// Adds `page` to the index `key` (a language, or a language and version: `en.v1`) as the
    /// bundle's file `file`.
    pub(crate) fn add_as(&mut self, page: &Page, key: String, file: &str) {
        if !page.unsearchable {
            self.language(key).add_page(page, file);
        }
    }

    fn language(&mut self, key: String) -> &mut LanguageIndex {
        let keep_pages = self.batch;
        self.by_language
            .entry(key)
            .or_insert_with(|| LanguageIndex {
                keep_pages,
                ..LanguageIndex::default()
            })
    }

    /// Every file of the index, in path order, each handed to `emit` as it is made.
    pub(crate) fn write_files(self, emit: &mut dyn FnMut(ExportFile)) {
        // By directory, as paths sort (`en-GB/` before `en/`).
        let mut languages: Vec<(String, LanguageIndex)> = self
            .by_language
            .into_iter()
            .map(|(language, index)| (format!("{SEARCH_DIR}/{language}/"), index))
            .collect();
        crate::sort::sort_by(&mut languages, |a, b| a.0.cmp(&b.0));
        for (dir, index) in languages {
            index.write_files(dir.trim_end_matches('/'), emit);
        }
    }

    #[cfg(test)]
    pub(crate) fn files(self) -> Vec<ExportFile> {
        let mut files = Vec::new();
        self.write_files(&mut |file| files.push(file));
        files
    }
}

/// Index files for the given pages (indices into `site.pages`), hidden pages left out.
#[cfg(test)]
fn build(site: &Site, pages: &[usize]) -> Vec<ExportFile> {
    let mut index = SearchIndex::default();
    pages
        .iter()
        .filter_map(|&i| site.pages.get(i))
        .for_each(|page| index.add(page));
    index.files()
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
    let meta: Value = serde_json::from_slice(&meta.bytes).unwrap_or(Value::Null);
    let total = meta.get("docs").and_then(Value::as_u64).unwrap_or(0) as f64;
    let split: BTreeSet<String> = meta
        .get("split")
        .and_then(Value::as_array)
        .map(|keys| {
            keys.iter()
                .filter_map(|k| k.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let words = tokens(query);
    let mut shards: BTreeMap<String, Value> = BTreeMap::new();
    for word in &words {
        let key = term_key(word, &split);
        if shards.contains_key(&key) {
            continue;
        }
        let parsed = match find(&format!("{dir}/t/{}.json", key_file(&key))) {
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
    // Documents as (page, section).
    let mut scores: BTreeMap<(u64, u64), (usize, f64)> = BTreeMap::new();
    for (i, word) in words.iter().enumerate() {
        let key = term_key(word, &split);
        let Some(Value::Object(terms)) = shards.get(&key) else {
            continue;
        };
        // Prefix matches of the last word are in its file unless that file was split at the word.
        let last = i + 1 == words.len() && !split.contains(&key);
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
        let mut best: BTreeMap<(u64, u64), f64> = BTreeMap::new();
        for (postings, factor) in matched {
            let Some(flat) = postings.as_array() else {
                continue;
            };
            let df = flat.first().and_then(Value::as_u64).unwrap_or(0).max(1) as f64;
            let idf = (1.0 + total / df).ln();
            let mut page = 0u64;
            let number = |v: Option<&Value>| v.and_then(Value::as_u64).unwrap_or(0);
            for triple in flat[1.min(flat.len())..].chunks(3) {
                page += number(triple.first());
                let doc = (page, number(triple.get(1)));
                let w = number(triple.get(2)) as f64;
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
    let mut ranked: Vec<((u64, u64), (usize, f64))> = scores.into_iter().collect();
    crate::sort::sort_by(&mut ranked, |a, b| {
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
        .map(|((page, _), _)| page / FILE_PAGES as u64)
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
    use proptest::prelude::*;

    use super::*;
    use crate::docs::Section;

    /// The postings as the index wrote them before it capped them while gathering: every document
    /// kept, the best [`MAX_POSTINGS`] chosen at the end.
    fn postings_of_every_document(adds: &[(u32, u32, u32)]) -> String {
        let mut docs: BTreeMap<u32, u32> = BTreeMap::new();
        for &(doc, weight, cap) in adds {
            let w = docs.entry(doc).or_insert(0);
            *w = (*w + weight).min(cap.max(*w));
        }
        let mut kept: Vec<(u32, u32)> = docs.iter().map(|(&d, &w)| (d, w)).collect();
        if kept.len() > MAX_POSTINGS {
            kept.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            kept.truncate(MAX_POSTINGS);
            kept.sort_unstable();
        }
        // Each document a page of its own, as the test numbers them.
        let mut out = format!("[{}", docs.len());
        let mut last = 0;
        for (doc, weight) in kept {
            out.push_str(&format!(",{},0,{weight}", doc - last));
            last = doc;
        }
        out.push(']');
        out
    }

    proptest! {
        #[test]
        fn capped_postings_keep_what_ranking_every_document_keeps(
            steps in proptest::collection::vec((0u32..3, 1u32..25, prop_oneof![Just(8u32), Just(40), Just(60)]), 0..600)
        ) {
            // Documents in order, as pages add them: each step stays on the document or moves on.
            let mut doc = 0;
            let adds: Vec<(u32, u32, u32)> = steps.into_iter().map(|(next, weight, cap)| {
                doc += next.min(1);
                (doc, weight, cap)
            }).collect();
            let mut postings = TermPostings::default();
            for &(doc, weight, cap) in &adds {
                postings.add(doc, weight, cap);
            }
            let mut json = String::new();
            let page_docs: Vec<u32> = (0..=doc).collect();
            postings.close();
            postings.json(&page_docs, &mut json);
            prop_assert_eq!(postings.json_len(&page_docs), json.len());
            prop_assert_eq!(json, postings_of_every_document(&adds));
            // Pages of three documents: sections past the first, and page deltas of any size.
            let pages_of_three: Vec<u32> = (0..=doc).step_by(3).collect();
            let mut grouped = String::new();
            postings.json(&pages_of_three, &mut grouped);
            prop_assert_eq!(postings.json_len(&pages_of_three), grouped.len());
        }
    }

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
    fn keys_lengthen_where_split_and_file_names_are_safe() {
        let none = BTreeSet::new();
        assert_eq!(term_key("domain", &none), "do");
        assert_eq!(term_key("x", &none), "x");
        let split = BTreeSet::from(["do".to_owned(), "dom".to_owned()]);
        assert_eq!(term_key("domain", &split), "doma");
        assert_eq!(term_key("dom", &split), "dom");
        assert_eq!(term_key("docs", &split), "doc");
        assert_eq!(key_file("doma"), "doma");
        assert_eq!(key_file("配"), "_e9858d");
        assert_eq!(key_file("éd"), "_c3a964");
    }

    #[test]
    fn big_shards_split_common_terms_keep_their_best_postings_and_costs_stay_flat() {
        let words = ["domain", "docs"];
        let pages: Vec<Page> = (0..600)
            .map(|i| {
                let text = format!("{} dom{i} doc{i} {}", words[i % 2], "filler ".repeat(i % 5));
                let title = if i == 599 { "Domain setup" } else { "Page" };
                page(&format!("p{i}"), title, &[("", &text)])
            })
            .collect();
        let site = Site {
            pages,
            ..Site::default()
        };
        let files = build(&site, &(0..600).collect::<Vec<_>>());
        let meta = files
            .iter()
            .find(|f| f.path.ends_with("/meta.json"))
            .unwrap();
        let meta: Value = serde_json::from_slice(&meta.bytes).unwrap();
        let split: BTreeSet<String> = meta["split"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap().to_owned())
            .collect();
        assert!(split.contains("do"), "{meta}");
        for file in files.iter().filter(|f| f.path.contains("/t/")) {
            assert!(
                file.bytes.len() <= SHARD_BYTES || !file.path.ends_with("do.json"),
                "{}",
                file.path
            );
            let terms: serde_json::Map<String, Value> =
                serde_json::from_slice(&file.bytes).unwrap();
            for (term, postings) in terms {
                let name = format!(
                    "{SEARCH_DIR}/en/t/{}.json",
                    key_file(&term_key(&term, &split))
                );
                assert_eq!(file.path, name, "{term} is in the file its key names");
                let postings = postings.as_array().unwrap();
                assert!(postings.len() <= 1 + 3 * MAX_POSTINGS);
            }
        }
        let domain = files
            .iter()
            .find(|f| {
                f.path
                    .ends_with(&format!("t/{}.json", key_file(&term_key("domain", &split))))
            })
            .unwrap();
        let v: Value = serde_json::from_slice(&domain.bytes).unwrap();
        assert_eq!(v["domain"][0], 301, "df counts every document");
        let mut page = 0;
        let mut docs = Vec::new();
        for triple in v["domain"].as_array().unwrap()[1..].chunks(3) {
            page += triple[0].as_u64().unwrap();
            docs.push((page, triple[1].as_u64().unwrap()));
        }
        assert_eq!(docs.len(), MAX_POSTINGS);
        assert!(docs.contains(&(599, 0)), "the page titled Domain is kept");
        assert!(search_bytes_for_query(&files, "en", "domain") < 3 * SHARD_BYTES);
    }

    /// A page that gains a section changes its own document file and the term files of its own
    /// words (and the document count), nothing else.
    #[test]
    fn a_page_that_gains_a_section_leaves_the_other_files_as_they_were() {
        let pages = |extra: bool| -> Vec<Page> {
            (0..40)
                .map(|i| {
                    let mut sections = vec![
                        ("", format!("intro {i} shared words")),
                        ("Setup", format!("steps {i} and more shared")),
                    ];
                    if extra && i == 3 {
                        sections.push(("Zebra", "quagga okapi".to_owned()));
                    }
                    let sections: Vec<(&str, &str)> =
                        sections.iter().map(|(h, t)| (*h, t.as_str())).collect();
                    page(&format!("p{i}"), &format!("Page {i}"), &sections)
                })
                .collect()
        };
        let files = |extra: bool| {
            let site = Site {
                pages: pages(extra),
                ..Site::default()
            };
            build(&site, &(0..40).collect::<Vec<_>>())
        };
        let (before, after) = (files(false), files(true));
        let changed: Vec<&str> = after
            .iter()
            .filter(|f| {
                !before
                    .iter()
                    .any(|b| b.path == f.path && b.bytes == f.bytes)
            })
            .map(|f| f.path.as_str())
            .collect();
        let dir = "_static/search/en";
        assert_eq!(
            changed,
            [
                format!("{dir}/d/1.json"),
                format!("{dir}/meta.json"),
                format!("{dir}/t/ok.json"),
                format!("{dir}/t/qu.json"),
                format!("{dir}/t/ze.json"),
            ]
        );
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
        assert_eq!(v["domain"][0], 2, "document frequency");
        assert_eq!(v["domain"][1], 0, "first page");
        assert_eq!(v["domain"][2], 0, "its first section");
        assert_eq!(v["domain"][4], 1, "the next page");
        assert!(v["domains"].is_array());
        let docs = files.iter().find(|f| f.path.ends_with("d/0.json")).unwrap();
        let v: Value = serde_json::from_slice(&docs.bytes).unwrap();
        assert_eq!(v[0][1][2], "a.html#dns-records");
        assert_eq!(v[1][0][0], "Analytics");
        let cost = search_bytes_for_query(&files, "en", "domain");
        assert!(cost > 0 && cost < files.iter().map(|f| f.bytes.len()).sum::<usize>() + 1);
        assert_eq!(search_bytes_for_query(&files, "fr", "domain"), 0);
    }
}
