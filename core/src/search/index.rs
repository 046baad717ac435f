//! The index data and how it is built from pages. Everything here is what gets serialised; the only
//! thing derived again on load is the path lookup table.

use foldhash::HashMap;

use serde::{Deserialize, Serialize};

use super::chunk::chunk_page;
use super::codec::{check_avg_len, decode, encode, IndexError, FORMAT_VERSION};
use super::dict::{Dict, TermTable};
use super::postings::{self, Posting, HEADING, TEXT, TITLE};
use super::semantic::{ChunkVectors, StaticModel};
use crate::docs::sections::fence_title;
use crate::docs::Page;
use crate::text::Analyzer;

/// A built index: chunk texts, page metadata, term dictionary and postings.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchIndex {
    pub(crate) data: IndexData,
    /// Page numbers sorted by path, for [`SearchIndex::page`].
    pub(crate) by_path: Vec<u32>,
    /// Derived: see [`searchable_chunks`].
    pub(crate) searchable_chunks: usize,
    /// The semantic stage's chunk vectors, when a model embedded them ([`SearchIndex::embed`]).
    pub(crate) vectors: Option<ChunkVectors>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct IndexData {
    /// In the order given to `build` (navigation order).
    pub pages: Vec<PageMeta>,
    /// Grouped by page, in page order, sections in page order.
    pub chunks: Vec<ChunkMeta>,
    pub table: TermTable,
    /// Average field length in terms per field, over chunks where the field is not empty: intro chunks
    /// have no heading, and counting them would make every real heading look long.
    pub avg_len: [f32; 3],
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct PageMeta {
    pub path: String,
    pub title: String,
    pub sidebar_title: Option<String>,
    pub language: String,
    pub version: Option<String>,
    pub tab: Option<String>,
    pub groups: Vec<String>,
    /// Terms in title + sidebar title: the title field length of every chunk of the page.
    pub title_len: u32,
    pub first_chunk: u32,
    pub chunk_count: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ChunkMeta {
    pub page: u32,
    pub heading: String,
    pub anchor: String,
    pub level: u8,
    /// A later piece of a cut section: no heading line when the page is reassembled.
    pub continued: bool,
    pub text: String,
    pub heading_len: u32,
    pub text_len: u32,
}

impl SearchIndex {
    /// Builds the index. Never fails: odd pages (no sections, empty titles) still get one chunk.
    pub fn build(pages: &[Page]) -> SearchIndex {
        let mut builder = Builder::default();
        for page in pages {
            builder.add_page(page);
        }
        SearchIndex::from_data(builder.finish())
    }

    pub(crate) fn from_data(data: IndexData) -> SearchIndex {
        let by_path = sorted_by_path(&data.pages);
        let searchable_chunks = searchable_chunks(
            &data.pages,
            data.chunks
                .iter()
                .map(|c| (c.page, c.heading_len + c.text_len)),
        );
        SearchIndex {
            data,
            by_path,
            searchable_chunks,
            vectors: None,
        }
    }

    /// Gives every chunk its vector from `model` (the semantic stage).
    pub fn embed(&mut self, model: &StaticModel) {
        self.vectors = Some(embed_chunks(model, &self.data.pages, 0, &self.data.chunks));
    }

    /// The term dictionary and postings.
    pub(crate) fn dict(&self) -> Dict<'_> {
        self.data.dict()
    }
}

impl IndexData {
    pub(crate) fn dict(&self) -> Dict<'_> {
        self.table.dict()
    }
}

/// Page numbers sorted by path. Stable: for a path present twice (e.g. in two versions) the first
/// page in navigation order comes first, and [`find_page`] returns it.
pub(crate) fn sorted_by_path(pages: &[PageMeta]) -> Vec<u32> {
    let path = |i: u32| pages.get(i as usize).map_or("", |p| p.path.as_str());
    let mut by_path: Vec<u32> = (0..pages.len() as u32).collect();
    crate::sort::sort_by(&mut by_path, |&a, &b| path(a).cmp(path(b)));
    by_path
}

/// The page at `path` (already normalised) through the table [`sorted_by_path`] made.
/// The page at `path`, or else a folder's page at `path/index`: `llms.txt` and links name a folder's
/// page by the folder (`/publish`), as the site serves it.
pub(crate) fn find_page(pages: &[PageMeta], by_path: &[u32], path: &str) -> Option<u32> {
    let exact = |path: &str| {
        let meta = |i: u32| pages.get(i as usize);
        let at = by_path.partition_point(|&i| meta(i).is_some_and(|p| p.path.as_str() < path));
        let &i = by_path.get(at)?;
        meta(i).filter(|p| p.path == path).map(|_| i)
    };
    exact(path).or_else(|| {
        if path == "index" || path.ends_with("/index") {
            None
        } else {
            exact(&format!("{path}/index"))
        }
    })
}

#[derive(Default)]
pub(crate) struct Builder {
    /// Numbers of this builder's first page and chunk in the site: a batch of a larger site
    /// numbers its pages and chunks (and so its postings) as the whole build would.
    page_base: u32,
    chunk_base: u32,
    pages: Vec<PageMeta>,
    chunks: Vec<ChunkMeta>,
    term_ids: HashMap<String, u32>,
    lists: Vec<Vec<Posting>>,
    totals: [u64; 3],
    non_empty: [u64; 3],
    /// Reused per chunk: term id -> field frequencies.
    counts: HashMap<u32, [u32; 3]>,
}

impl Builder {
    /// A builder whose first page and chunk are numbered `page_base` and `chunk_base`.
    pub(crate) fn starting_at(page_base: u32, chunk_base: u32) -> Builder {
        Builder {
            page_base,
            chunk_base,
            ..Builder::default()
        }
    }

    pub(crate) fn add_page(&mut self, page: &Page) {
        let page_no = self.page_base + self.pages.len() as u32;
        let first_chunk = self.chunk_base + self.chunks.len() as u32;

        // A page search leaves out keeps its chunks (pages are read back from them), with no
        // term, posting or length: its words would count in the ranking's statistics (a name only
        // it spells would no longer be unknown to the site).
        let searchable = !page.unsearchable;
        let mut title_terms: Vec<u32> = Vec::new();
        let mut title_text = page.title.clone();
        if let Some(sidebar) = page.sidebar_title.as_deref().filter(|s| *s != page.title) {
            title_text.push('\n');
            title_text.push_str(sidebar);
        }
        if searchable {
            Analyzer::Index.terms(&title_text, |t| title_terms.push(self.intern(t)));
        }

        // Description and openapi line are searchable but not stored: the page text never had them.
        let mut extra = String::new();
        for s in [&page.description, &page.openapi].into_iter().flatten() {
            extra.push_str(s);
            extra.push('\n');
        }

        let drafts = chunk_page(page);
        for (i, draft) in drafts.iter().enumerate() {
            let chunk_no = self.chunk_base + self.chunks.len() as u32;
            self.counts.clear();
            for &t in &title_terms {
                bump(&mut self.counts, t, TITLE);
            }
            let mut heading_len = 0u32;
            // A continued piece still belongs under its heading, so it keeps the heading field.
            let mut heading_terms = Vec::new();
            let mut text_terms = Vec::new();
            if searchable {
                Analyzer::Index.terms(draft.heading, |t| heading_terms.push(self.intern(t)));
                let text = without_code_titles(draft.text);
                Analyzer::Index.terms(&text, |t| text_terms.push(self.intern(t)));
                if i == 0 {
                    Analyzer::Index.terms(&extra, |t| text_terms.push(self.intern(t)));
                }
            }
            for t in heading_terms {
                bump(&mut self.counts, t, HEADING);
                heading_len += 1;
            }
            let text_len = text_terms.len() as u32;
            for t in text_terms {
                bump(&mut self.counts, t, TEXT);
            }
            for (&term, &tf) in &self.counts {
                if let Some(list) = self.lists.get_mut(term as usize) {
                    list.push(Posting {
                        chunk: chunk_no,
                        tf,
                    });
                }
            }
            for (field, len) in [
                (TITLE, title_terms.len() as u64),
                (HEADING, heading_len.into()),
                (TEXT, text_len.into()),
            ] {
                self.totals[field] += len;
                self.non_empty[field] += u64::from(len > 0);
            }
            self.chunks.push(ChunkMeta {
                page: page_no,
                heading: draft.heading.to_owned(),
                anchor: draft.anchor.to_owned(),
                level: draft.level,
                continued: draft.continued,
                text: draft.text.to_owned(),
                heading_len,
                text_len,
            });
        }

        self.pages.push(PageMeta {
            path: page.path.trim_matches('/').to_owned(),
            title: page.title.clone(),
            sidebar_title: page.sidebar_title.clone(),
            language: page.language.clone(),
            version: page.version.clone(),
            tab: page.tab.clone(),
            groups: page.groups.clone(),
            title_len: title_terms.len() as u32,
            first_chunk,
            chunk_count: drafts.len() as u32,
        });
    }

    fn intern(&mut self, term: &str) -> u32 {
        if let Some(&id) = self.term_ids.get(term) {
            return id;
        }
        let id = self.lists.len() as u32;
        self.term_ids.insert(term.to_owned(), id);
        self.lists.push(Vec::new());
        id
    }

    fn finish(self) -> IndexData {
        self.finish_parts().0
    }

    /// The data, and the field length totals and non-empty counts its averages come from (a
    /// batched build sums them over batches).
    pub(crate) fn finish_parts(self) -> (IndexData, [u64; 3], [u64; 3]) {
        let Builder {
            pages,
            mut chunks,
            term_ids,
            mut lists,
            totals,
            non_empty,
            ..
        } = self;
        let mut sorted: Vec<(String, u32)> = term_ids.into_iter().collect();
        // std's sort, not crate::sort: every term of the index, where the shared sort is about twice as slow.
        sorted.sort_unstable();

        let mut table = TermTable {
            term_ends: Vec::with_capacity(sorted.len()),
            dfs: Vec::with_capacity(sorted.len()),
            posting_ends: Vec::with_capacity(sorted.len()),
            ..TermTable::default()
        };
        for (term, id) in sorted {
            let list = lists
                .get_mut(id as usize)
                .map(std::mem::take)
                .unwrap_or_default();
            table.push(&term, list.len() as u32, |blob| {
                postings::encode(&list, blob)
            });
        }

        chunks.shrink_to_fit();
        let data = IndexData {
            pages,
            chunks,
            table,
            avg_len: average_lengths(totals, non_empty),
        };
        (data, totals, non_empty)
    }
}

/// Average field length in terms per field, over chunks where the field is not empty.
pub(crate) fn average_lengths(totals: [u64; 3], non_empty: [u64; 3]) -> [f32; 3] {
    [TITLE, HEADING, TEXT].map(|f| totals[f] as f32 / non_empty[f].max(1) as f32)
}

fn bump(counts: &mut HashMap<u32, [u32; 3]>, term: u32, field: usize) {
    let entry = counts.entry(term).or_insert([0; 3]);
    if let Some(slot) = entry.get_mut(field) {
        *slot = slot.saturating_add(1);
    }
}

/// The chunks search can return, the ranking's N: a chunk with words in its title, heading or
/// text. A page search leaves out keeps its chunks with none (`Builder::add_page`), so its size
/// does not dilute every term's rarity. `chunks` gives each chunk's page and heading plus text
/// length.
pub(crate) fn searchable_chunks(
    pages: &[PageMeta],
    chunks: impl Iterator<Item = (u32, u32)>,
) -> usize {
    chunks
        .filter(|&(page, len)| len > 0 || pages.get(page as usize).is_some_and(|p| p.title_len > 0))
        .count()
}

impl SearchIndex {
    pub fn to_bytes(&self) -> Vec<u8> {
        encode(&[FORMAT_VERSION], &self.data)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<SearchIndex, IndexError> {
        let data: IndexData = decode(bytes, &[FORMAT_VERSION])?;
        let index = SearchIndex::from_data(data);
        validate(&index)?;
        Ok(index)
    }
}

fn validate(index: &SearchIndex) -> Result<(), IndexError> {
    use IndexError::Inconsistent;
    let d = &index.data;
    let n_chunks = d.chunks.len();
    index.dict().validate(n_chunks)?;
    for page in &d.pages {
        let end = u64::from(page.first_chunk) + u64::from(page.chunk_count);
        if end > n_chunks as u64 {
            return Err(Inconsistent("page chunk range"));
        }
    }
    if d.chunks.iter().any(|c| c.page as usize >= d.pages.len()) {
        return Err(Inconsistent("chunk page"));
    }
    check_avg_len(d.avg_len)
}

/// The vector of every chunk: its page's title, its heading and its text, as search reads them.
pub(crate) fn embed_chunks(
    model: &StaticModel,
    pages: &[PageMeta],
    page_base: u32,
    chunks: &[ChunkMeta],
) -> ChunkVectors {
    let mut vectors = ChunkVectors::new(model.dims());
    let mut text = String::new();
    for chunk in chunks {
        text.clear();
        if let Some(page) = chunk
            .page
            .checked_sub(page_base)
            .and_then(|p| pages.get(p as usize))
        {
            text.push_str(&page.title);
            text.push('\n');
        }
        text.push_str(&chunk.heading);
        text.push('\n');
        text.push_str(&chunk.text);
        vectors.push(model.embed(&text).as_deref());
    }
    vectors
}

/// The text without its code blocks' titles (```` ``` Shuttle.toml ````, `docs::sections` keeps
/// them after the fence): the answer quotes a title as its snippet's caption, but as a word of the
/// section it outranked pages that explain (measured: fixture fact 0.84 → 0.83, one more dev false
/// refusal).
fn without_code_titles(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("``` ") {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let fence = line.len() - line.trim_start_matches('`').len();
        match fence >= 3 && fence_title(line[fence..].trim_end_matches('\n')).is_some() {
            true => {
                out.push_str(&line[..fence]);
                out.push_str(&line[line.trim_end_matches('\n').len()..]);
            }
            false => out.push_str(line),
        }
    }
    out.into()
}

#[cfg(test)]
mod code_title_tests {
    use super::without_code_titles;

    #[test]
    fn a_code_blocks_title_is_not_a_word_of_its_section() {
        let text = "Declare it:\n``` Shuttle.toml\n[build]\nassets = [\"static\"]\n```\n```` docs.json\n{}\n````";
        assert_eq!(
            without_code_titles(text),
            "Declare it:\n```\n[build]\nassets = [\"static\"]\n```\n````\n{}\n````"
        );
        assert_eq!(without_code_titles("```\nplain\n```"), "```\nplain\n```");
    }
}
