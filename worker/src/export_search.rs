//! The static export's copy of a version's split search index (`crate::search_store`'s packs) into
//! the bundle, one piece per job step (core's `export::PackCursor`): each step heads the packs, reads
//! one range of at most `PACK_PIECE_BYTES` and makes it one gzip member of the pack's tar entry, so
//! the export Durable Object never holds a pack whole. Pieces follow from the packs' sizes alone, so a
//! redone step writes the same bytes.

use docs_edge_core::export::{tar_gz_entry_piece, PackCursor, PACK_PIECE_BYTES, SEARCH_PACK_FILES};
use worker::Bucket;

use crate::error::{ApiError, ApiResult};
use crate::storage::{self, version_key, SEARCH_META, SEARCH_TERMS, SEARCH_TEXT};

/// The packs as stored, in `SEARCH_PACK_FILES` order.
const PACK_OBJECTS: [&str; 3] = [SEARCH_META, SEARCH_TERMS, SEARCH_TEXT];

/// The next piece after `at` as a gzip member, and where the copy stands after it; `None` once every
/// pack is in the bundle.
pub async fn next_piece(bucket: &Bucket, domain: &str, publish_id: &str, at: PackCursor, mtime: u64) -> ApiResult<Option<(Vec<u8>, PackCursor)>> {
    let mut sizes = [0u64; 3];
    for (size, name) in sizes.iter_mut().zip(PACK_OBJECTS) {
        let head = bucket.head(version_key(domain, publish_id, name)).await?;
        *size = head.ok_or_else(|| ApiError::Internal(format!("{name} of the published version {publish_id} is missing")))?.size();
    }
    let Some((piece, after)) = at.next(&sizes, PACK_PIECE_BYTES) else { return Ok(None) };
    let (name, path) = (PACK_OBJECTS[piece.pack], SEARCH_PACK_FILES[piece.pack]);
    let bytes = if piece.range.is_empty() {
        Vec::new()
    } else {
        storage::read(bucket, &version_key(domain, publish_id, name), Some(piece.range.clone()))
            .await?
            .ok_or_else(|| ApiError::Internal(format!("{name} of the published version {publish_id} is missing")))?
    };
    if bytes.len() as u64 != piece.range.end - piece.range.start {
        return Err(ApiError::Internal(format!("{name} of {publish_id}: short read")));
    }
    let member = tar_gz_entry_piece(path, piece.size, mtime, piece.range.start, &bytes)
        .ok_or_else(|| ApiError::Internal(format!("{path}: piece {:?} outside the file", piece.range)))?;
    Ok(Some((member, after)))
}
