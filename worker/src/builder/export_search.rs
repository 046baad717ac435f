//! The static export's copy of a version's split search index (`crate::edge::search_store`'s packs) into
//! the bundle, a few pieces per job step (core's `export::PackCursor`): each step heads the packs once
//! ([`Packs`]), then reads one range of at most `PACK_PIECE_BYTES` a piece and makes it one gzip
//! member of the pack's tar entry, so the export Durable Object never holds a pack whole. Pieces follow from the packs' sizes alone, so a
//! redone step writes the same bytes. A staged version's text pack is its batches' pieces
//! (`crate::shared::pieced`), found by its piece table.

use docs_edge_core::export::{tar_gz_entry_piece, PackCursor, PACK_PIECE_BYTES, SEARCH_PACK_FILES};
use docs_edge_core::publish::pieced::Pieced;
use std::ops::Range;
use worker::Bucket;

use crate::shared::error::{ApiError, ApiResult};
use crate::shared::pieced::Stored;
use crate::shared::storage::{version_key, SEARCH_META, SEARCH_TERMS};

/// A published version's packs as stored, in `SEARCH_PACK_FILES` order, and their sizes: looked up
/// once for the pieces of a step.
pub struct Packs {
    publish_id: String,
    packs: [Stored; 3],
    sizes: [u64; 3],
}

impl Packs {
    pub async fn of(bucket: &Bucket, domain: &str, publish_id: &str) -> ApiResult<Packs> {
        let table = crate::shared::pieced::table(bucket, domain, publish_id)
            .await?
            .map(std::rc::Rc::new);
        let packs = [
            Stored::Whole(version_key(domain, publish_id, SEARCH_META)),
            Stored::Whole(version_key(domain, publish_id, SEARCH_TERMS)),
            Stored::of(domain, publish_id, table, Pieced::Text),
        ];
        let mut sizes = [0u64; 3];
        for ((size, pack), path) in sizes.iter_mut().zip(&packs).zip(SEARCH_PACK_FILES) {
            *size = pack
                .size(bucket)
                .await?
                .ok_or_else(|| missing(publish_id, path))?;
        }
        Ok(Packs {
            publish_id: publish_id.to_string(),
            packs,
            sizes,
        })
    }
}

impl Packs {
    /// The pieces [`next_piece`] makes of the packs before the cursor `at` (every piece, past the
    /// last pack): a hosted site's export reserves parts for them before its finishing parts, and
    /// writes them after its switch.
    pub fn pieces_before(&self, at: PackCursor) -> u32 {
        let mut cursor = PackCursor::default();
        let mut count = 0;
        while cursor != at {
            let Some((_, after)) = cursor.next(&self.sizes, PACK_PIECE_BYTES) else {
                break;
            };
            cursor = after;
            count += 1;
        }
        count
    }

    /// Bytes `range` of pack `pack` (`SEARCH_PACK_FILES` order).
    pub async fn read(
        &self,
        bucket: &Bucket,
        pack: usize,
        range: Range<u64>,
    ) -> ApiResult<Vec<u8>> {
        self.packs[pack]
            .read(bucket, range)
            .await?
            .ok_or_else(|| missing(&self.publish_id, SEARCH_PACK_FILES[pack]))
    }

    /// The size of pack `pack`.
    pub fn size(&self, pack: usize) -> u64 {
        self.sizes[pack]
    }
}

fn missing(publish_id: &str, path: &str) -> ApiError {
    ApiError::Internal(format!(
        "{path} of the published version {publish_id} is missing"
    ))
}

/// The next piece after `at` as a gzip member, and where the copy stands after it; `None` once every
/// pack is in the bundle.
pub async fn next_piece(
    bucket: &Bucket,
    packs: &Packs,
    at: PackCursor,
    mtime: u64,
) -> ApiResult<Option<(Vec<u8>, PackCursor)>> {
    let Some((piece, after)) = at.next(&packs.sizes, PACK_PIECE_BYTES) else {
        return Ok(None);
    };
    let path = SEARCH_PACK_FILES[piece.pack];
    let bytes = if piece.range.is_empty() {
        Vec::new()
    } else {
        packs.read(bucket, piece.pack, piece.range.clone()).await?
    };
    let member = tar_gz_entry_piece(path, piece.size, mtime, piece.range.start, &bytes)
        .ok_or_else(|| {
            ApiError::Internal(format!("{path}: piece {:?} outside the file", piece.range))
        })?;
    Ok(Some((member, after)))
}
