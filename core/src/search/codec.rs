//! Bytes in and out: one format version byte, then the postcard encoding of the index data.
//!
//! Loading checks every offset the query path relies on, so a corrupt or hostile blob is an error
//! here rather than a panic or a wrong answer later.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::Serialize;

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
        encode(&[FORMAT_VERSION], &self.data)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<SearchIndex, IndexError> {
        let data: IndexData = decode(bytes, &[FORMAT_VERSION])?;
        let index = SearchIndex::from_data(data);
        validate(&index)?;
        Ok(index)
    }
}

/// `header` (format version, and for the sharded objects their kind), then the postcard encoding.
pub(crate) fn encode<T: Serialize>(header: &[u8], value: &T) -> Vec<u8> {
    // Serialising plain owned structs into a Vec cannot fail; the bare header (which never decodes)
    // is the safe fallback.
    postcard::to_extend(value, header.to_vec()).unwrap_or_else(|_| header.to_vec())
}

/// The inverse of [`encode`]: the header must match exactly and nothing may follow the value.
pub(crate) fn decode<T: DeserializeOwned>(bytes: &[u8], header: &[u8]) -> Result<T, IndexError> {
    let (&version, _) = bytes.split_first().ok_or(IndexError::Empty)?;
    if Some(&version) != header.first() {
        return Err(IndexError::UnsupportedVersion(version));
    }
    let body = bytes
        .strip_prefix(header)
        .ok_or(IndexError::Inconsistent("object kind"))?;
    let (value, rest): (T, _) = postcard::take_from_bytes(body).map_err(IndexError::Decode)?;
    if !rest.is_empty() {
        return Err(IndexError::TrailingBytes);
    }
    Ok(value)
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

pub(crate) fn check_avg_len(avg_len: [f32; 3]) -> Result<(), IndexError> {
    if avg_len.iter().any(|a| !a.is_finite() || *a < 0.0) {
        return Err(IndexError::Inconsistent("field lengths"));
    }
    Ok(())
}
