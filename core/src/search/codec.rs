//! Bytes in and out: one format version byte, then the postcard encoding of the index data.
//!
//! Loading checks every offset the query path relies on, so a corrupt or hostile blob is an error
//! here rather than a panic or a wrong answer later.

use std::fmt;

use super::index::{IndexData, SearchIndex};

/// Bump on any change to `IndexData` or the postings layout; old blobs are then rebuilt, not misread.
pub const FORMAT_VERSION: u8 = 1;

#[derive(Debug)]
#[non_exhaustive]
pub enum IndexError {
    /// No bytes at all.
    Empty,
    /// Written by another format version.
    UnsupportedVersion(u8),
    /// Not a valid encoding (truncated, garbage).
    Decode(postcard::Error),
    /// Bytes left over after the index.
    TrailingBytes,
    /// Decodes, but its parts do not fit together.
    Inconsistent(&'static str),
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::Empty => f.write_str("search index is empty"),
            IndexError::UnsupportedVersion(v) => write!(f, "unsupported search index format {v}"),
            IndexError::Decode(_) => f.write_str("search index is corrupt"),
            IndexError::TrailingBytes => f.write_str("search index has trailing bytes"),
            IndexError::Inconsistent(what) => write!(f, "search index is inconsistent: {what}"),
        }
    }
}

impl std::error::Error for IndexError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            IndexError::Decode(e) => Some(e),
            _ => None,
        }
    }
}

impl SearchIndex {
    pub fn to_bytes(&self) -> Vec<u8> {
        let out = vec![FORMAT_VERSION];
        // Serialising plain owned structs into a Vec cannot fail; an empty index is the safe fallback.
        match postcard::to_extend(&self.data, out) {
            Ok(bytes) => bytes,
            Err(_) => vec![FORMAT_VERSION],
        }
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<SearchIndex, IndexError> {
        let (&version, body) = bytes.split_first().ok_or(IndexError::Empty)?;
        if version != FORMAT_VERSION {
            return Err(IndexError::UnsupportedVersion(version));
        }
        let (data, rest): (IndexData, _) =
            postcard::take_from_bytes(body).map_err(IndexError::Decode)?;
        if !rest.is_empty() {
            return Err(IndexError::TrailingBytes);
        }
        validate(&data)?;
        Ok(SearchIndex::from_data(data))
    }
}

fn validate(d: &IndexData) -> Result<(), IndexError> {
    use IndexError::Inconsistent;
    let n_terms = d.term_ends.len();
    if d.dfs.len() != n_terms || d.posting_ends.len() != n_terms {
        return Err(Inconsistent("dictionary lengths differ"));
    }
    check_ends(&d.term_ends, d.terms.len()).ok_or(Inconsistent("term offsets"))?;
    check_ends(&d.posting_ends, d.postings.len()).ok_or(Inconsistent("posting offsets"))?;
    let mut prev: Option<&str> = None;
    let mut start = 0usize;
    for &end in &d.term_ends {
        let term = d
            .terms
            .get(start..end as usize)
            .ok_or(Inconsistent("term boundary"))?;
        if prev.is_some_and(|p| p >= term) {
            return Err(Inconsistent("terms not sorted"));
        }
        prev = Some(term);
        start = end as usize;
    }
    let n_chunks = d.chunks.len();
    if d.dfs.iter().any(|&df| df as usize > n_chunks) {
        return Err(Inconsistent("document frequency"));
    }
    for page in &d.pages {
        let end = u64::from(page.first_chunk) + u64::from(page.chunk_count);
        if end > n_chunks as u64 {
            return Err(Inconsistent("page chunk range"));
        }
    }
    if d.chunks.iter().any(|c| c.page as usize >= d.pages.len()) {
        return Err(Inconsistent("chunk page"));
    }
    if d.avg_len.iter().any(|a| !a.is_finite() || *a < 0.0) {
        return Err(Inconsistent("field lengths"));
    }
    Ok(())
}

/// Offsets must not decrease and must stay within `len`.
fn check_ends(ends: &[u32], len: usize) -> Option<()> {
    let mut prev = 0u32;
    for &e in ends {
        if e < prev || e as usize > len {
            return None;
        }
        prev = e;
    }
    Some(())
}
