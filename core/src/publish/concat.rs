//! How a concatenated object (the text pack, `llms-full.txt`, the term pack) is cut into the equal
//! parts of a multipart upload, from its pieces' lengths alone: each part lists the byte ranges of
//! the pieces it is made of. A part inside one piece can be copied as one ranged read, streamed
//! into the upload without passing through the builder's memory; a part spanning pieces is
//! assembled.

use std::ops::Range;

/// One part of the object: `(piece, range within that piece)`, in order.
pub type Part = Vec<(usize, Range<u64>)>;

/// The parts of the concatenation of pieces of lengths `lens`, every part `part_bytes` long but the
/// last; empty pieces take no part. No part for an empty object.
pub fn parts(lens: &[u64], part_bytes: u64) -> Vec<Part> {
    let mut out: Vec<Part> = Vec::new();
    let mut filled = part_bytes;
    for (piece, &len) in lens.iter().enumerate() {
        let mut at = 0;
        while at < len {
            if filled == part_bytes {
                out.push(Vec::new());
                filled = 0;
            }
            let take = (len - at).min(part_bytes - filled);
            if let Some(part) = out.last_mut() {
                part.push((piece, at..at + take));
            }
            at += take;
            filled += take;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_equal_but_the_last_and_cover_every_piece_in_order() {
        let lens = [3, 0, 12, 1, 4];
        let cut = parts(&lens, 5);
        assert_eq!(
            cut,
            vec![
                vec![(0, 0..3), (2, 0..2)],
                vec![(2, 2..7)],
                vec![(2, 7..12)],
                vec![(3, 0..1), (4, 0..4)]
            ]
        );
        let sizes: Vec<u64> = cut
            .iter()
            .map(|p| p.iter().map(|(_, r)| r.end - r.start).sum())
            .collect();
        assert_eq!(sizes, [5, 5, 5, 5]);
        assert_eq!(parts(&[7], 5), vec![vec![(0, 0..5)], vec![(0, 5..7)]]);
        assert!(parts(&[0, 0], 5).is_empty());
        assert!(parts(&[], 5).is_empty());
    }
}
