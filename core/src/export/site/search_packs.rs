//! The split search index in the bundle: the three packs a publish stores (`search::shard`), at
//! [`SEARCH_PACK_FILES`], for a self-hosted server to read the way the worker does. The export copies
//! them in pieces of at most [`PACK_PIECE_BYTES`], one gzip member each ([`tar_gz_entry_piece`]), so no
//! step holds a pack whole; where a copy stands is a [`PackCursor`] the job stores between steps, and
//! the pieces depend only on the packs' sizes, so a redone step writes the same bytes.
//!
//! [`tar_gz_entry_piece`]: crate::export::tar_gz_entry_piece

use std::ops::Range;

use serde::{Deserialize, Serialize};

/// Bundle paths of the meta, the term shards and the text blocks, in the order they are copied.
pub const SEARCH_PACK_FILES: [&str; 3] = [
    "_docs-edge/search/meta.bin",
    "_docs-edge/search/terms.bin",
    "_docs-edge/search/text.bin",
];
/// Raw bytes of a pack one export step copies: a ranged read, and one gzip member of about as much.
pub const PACK_PIECE_BYTES: u64 = 4 << 20;

/// How far a copy of the packs got: the pack being copied (`SEARCH_PACK_FILES` order) and how many of
/// its bytes are in the bundle. The default is the start; past the last pack, the copy is done.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PackCursor {
    pub pack: u32,
    pub offset: u64,
}

/// One piece to copy: pack `pack` (of `size` bytes), bytes `range` of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackPiece {
    pub pack: usize,
    pub size: u64,
    pub range: Range<u64>,
}

impl PackCursor {
    /// The next piece of packs of `sizes` and where the copy stands after it; `None` when every pack
    /// is copied. An empty pack is one empty piece (its tar entry still needs a header).
    pub fn next(self, sizes: &[u64; 3], piece_bytes: u64) -> Option<(PackPiece, PackCursor)> {
        let pack = self.pack as usize;
        let size = *sizes.get(pack)?;
        let start = self.offset.min(size);
        let end = start.saturating_add(piece_bytes.max(1)).min(size);
        let after = if end == size {
            PackCursor {
                pack: self.pack + 1,
                offset: 0,
            }
        } else {
            PackCursor {
                pack: self.pack,
                offset: end,
            }
        };
        Some((
            PackPiece {
                pack,
                size,
                range: start..end,
            },
            after,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(sizes: [u64; 3], piece_bytes: u64) -> Vec<(usize, Range<u64>)> {
        let mut at = PackCursor::default();
        let mut out = Vec::new();
        while let Some((piece, next)) = at.next(&sizes, piece_bytes) {
            assert_eq!(piece.size, sizes[piece.pack]);
            out.push((piece.pack, piece.range));
            at = next;
        }
        out
    }

    #[test]
    fn every_byte_of_every_pack_once_in_bounded_pieces() {
        assert_eq!(
            pieces([3, 10, 0], 4),
            vec![(0, 0..3), (1, 0..4), (1, 4..8), (1, 8..10), (2, 0..0)]
        );
        assert_eq!(
            pieces([8, 4, 1], 4),
            vec![(0, 0..4), (0, 4..8), (1, 0..4), (2, 0..1)]
        );
        assert_eq!(PackCursor { pack: 3, offset: 0 }.next(&[1, 1, 1], 4), None);
    }
}
