//! Bytes in and out: a header (format version, and for the sharded objects their kind), then the
//! postcard encoding. A leaf: the index and every stored object it encodes import it, never the
//! reverse.
//!
//! Loading checks every offset the query path relies on, so a corrupt or hostile blob is an error
//! rather than a panic or a wrong answer later.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::Serialize;

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

/// `header` (format version, and for the sharded objects their kind), then the postcard encoding.
pub(crate) fn encode<T: Serialize>(header: &[u8], value: &T) -> Vec<u8> {
    // Serialising plain owned structs into a Vec cannot fail; the bare header (which never decodes)
    // is the safe fallback.
    postcard::to_extend(value, header.to_vec()).unwrap_or_else(|_| header.to_vec())
}

/// The inverse of [`encode`]: the header must match exactly and nothing may follow the value.
pub(crate) fn decode<T: DeserializeOwned>(bytes: &[u8], header: &[u8]) -> Result<T, IndexError> {
    decode_rest(body(bytes, header)?)
}

/// [`decode`] of a value that may be followed by a second, optional one: objects that gained a
/// part after they were first stored, so stored objects without it still load.
pub(crate) fn decode_with_tail<T: DeserializeOwned, U: DeserializeOwned>(
    bytes: &[u8],
    header: &[u8],
) -> Result<(T, Option<U>), IndexError> {
    let (value, rest): (T, _) =
        postcard::take_from_bytes(body(bytes, header)?).map_err(IndexError::Decode)?;
    if rest.is_empty() {
        return Ok((value, None));
    }
    Ok((value, Some(decode_rest(rest)?)))
}

/// The first value of an object [`encode_with_tail`] wrote, and where its tail begins in `bytes`
/// (`bytes.len()` when it has none): the tail is left for the caller to read when it needs it.
pub(crate) fn decode_head<T: DeserializeOwned>(
    bytes: &[u8],
    header: &[u8],
) -> Result<(T, usize), IndexError> {
    let (value, rest): (T, _) =
        postcard::take_from_bytes(body(bytes, header)?).map_err(IndexError::Decode)?;
    Ok((value, bytes.len() - rest.len()))
}

/// A value that must fill `bytes` exactly (a tail [`decode_head`] left).
pub(crate) fn decode_rest<U: DeserializeOwned>(bytes: &[u8]) -> Result<U, IndexError> {
    let (value, rest): (U, _) = postcard::take_from_bytes(bytes).map_err(IndexError::Decode)?;
    if !rest.is_empty() {
        return Err(IndexError::TrailingBytes);
    }
    Ok(value)
}

/// The bytes after `header`, which must match exactly (its first byte is the format version).
fn body<'b>(bytes: &'b [u8], header: &[u8]) -> Result<&'b [u8], IndexError> {
    let (&version, _) = bytes.split_first().ok_or(IndexError::Empty)?;
    if Some(&version) != header.first() {
        return Err(IndexError::UnsupportedVersion(version));
    }
    bytes
        .strip_prefix(header)
        .ok_or(IndexError::Inconsistent("object kind"))
}

/// [`encode`] of a value and the optional second one [`decode_with_tail`] reads.
pub(crate) fn encode_with_tail<T: Serialize, U: Serialize>(
    header: &[u8],
    value: &T,
    tail: Option<&U>,
) -> Vec<u8> {
    let mut out = encode(header, value);
    match tail {
        Some(tail) => {
            // The tail can be most of the object (a 10,000-page site's chunk vectors, about 7 MB);
            // grown into by doubling, the buffer would briefly hold twice that in a publish's isolate.
            if let Ok(size) = postcard::experimental::serialized_size(tail) {
                out.reserve_exact(size);
            }
            postcard::to_extend(tail, out).unwrap_or_else(|_| header.to_vec())
        }
        None => out,
    }
}

pub(crate) fn check_avg_len(avg_len: [f32; 3]) -> Result<(), IndexError> {
    if avg_len.iter().any(|a| !a.is_finite() || *a < 0.0) {
        return Err(IndexError::Inconsistent("field lengths"));
    }
    Ok(())
}
