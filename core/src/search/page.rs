//! Whole pages out of the index, for the page endpoint and listings: the index is all a worker loads,
//! so the page text is reassembled from chunks rather than stored twice.

use super::index::{find_page, ChunkMeta, PageMeta, SearchIndex};
use crate::docs::model::push_heading;

/// A page as the page endpoint returns it.
#[derive(Debug, Clone, PartialEq)]
pub struct PageDoc {
    pub path: String,
    pub title: String,
    pub language: String,
    pub version: Option<String>,
    /// Same shape as `Page::full_text`: headings as `#` lines of their level.
    pub text: String,
}

/// One page in [`SearchIndex::pages`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageEntry<'a> {
    pub path: &'a str,
    pub title: &'a str,
    pub language: &'a str,
    pub version: Option<&'a str>,
}

/// What hits and page text need of one chunk, borrowed from whichever form of the index holds it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ChunkText<'a> {
    pub heading: &'a str,
    pub anchor: &'a str,
    pub level: u8,
    pub continued: bool,
    pub text: &'a str,
}

impl ChunkMeta {
    pub(crate) fn view(&self) -> ChunkText<'_> {
        ChunkText {
            heading: &self.heading,
            anchor: &self.anchor,
            level: self.level,
            continued: self.continued,
            text: &self.text,
        }
    }
}

/// The page's text from its chunks in order, the same shape as `Page::full_text`.
pub(crate) fn assemble(meta: &PageMeta, chunks: &[ChunkText<'_>]) -> PageDoc {
    let mut text = String::new();
    for (k, chunk) in chunks.iter().enumerate() {
        if !chunk.continued && !chunk.heading.is_empty() {
            push_heading(&mut text, chunk.level, chunk.heading);
        }
        text.push_str(chunk.text);
        let section_ends = !chunks.get(k + 1).is_some_and(|next| next.continued);
        if section_ends && !chunk.text.is_empty() && !chunk.text.ends_with('\n') {
            text.push('\n');
        }
    }
    PageDoc {
        path: meta.path.clone(),
        title: meta.title.clone(),
        language: meta.language.clone(),
        version: meta.version.clone(),
        text,
    }
}

impl SearchIndex {
    /// Looks a page up by path. Accepts what clients plausibly send: a leading or trailing `/`, a
    /// `.md`/`.mdx` extension, a `#anchor` or `?query`; an empty path means `index`. When the same
    /// path exists in several versions, the first in navigation order is returned.
    pub fn page(&self, path: &str) -> Option<PageDoc> {
        let d = &self.data;
        let i = find_page(&d.pages, &self.by_path, normalize_path(path))?;
        let meta = d.pages.get(i as usize)?;
        let chunks = d
            .chunks
            .get(meta.first_chunk as usize..)?
            .get(..meta.chunk_count as usize)?;
        let views: Vec<ChunkText<'_>> = chunks.iter().map(ChunkMeta::view).collect();
        Some(assemble(meta, &views))
    }

    pub fn page_count(&self) -> usize {
        self.data.pages.len()
    }

    /// Chunks indexed (sections, with long ones cut).
    pub fn chunk_count(&self) -> usize {
        self.data.chunks.len()
    }

    /// Distinct language codes in first-seen (navigation) order.
    pub fn languages(&self) -> Vec<&str> {
        distinct(self.data.pages.iter().map(|p| Some(p.language.as_str())))
    }

    /// Distinct version labels in first-seen order; empty for an unversioned site.
    pub fn versions(&self) -> Vec<&str> {
        distinct(self.data.pages.iter().map(|p| p.version.as_deref()))
    }

    /// Every page in navigation order.
    pub fn pages(&self) -> impl Iterator<Item = PageEntry<'_>> + '_ {
        self.data.pages.iter().map(|p| PageEntry {
            path: &p.path,
            title: &p.title,
            language: &p.language,
            version: p.version.as_deref(),
        })
    }
}

fn distinct<'a>(items: impl Iterator<Item = Option<&'a str>>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for item in items.flatten() {
        if !item.is_empty() && !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// The site path form stored in the index: no slashes at the ends, no extension, no fragment.
pub(crate) fn normalize_path(path: &str) -> &str {
    let path = path.split(['#', '?']).next().unwrap_or("").trim();
    let path = path.trim_matches('/');
    let path = path
        .strip_suffix(".mdx")
        .or_else(|| path.strip_suffix(".md"))
        .unwrap_or(path);
    if path.is_empty() {
        "index"
    } else {
        path
    }
}
