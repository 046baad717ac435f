//! A staged version's text pack and `llms-full.txt` as pieces: each batch's text blocks and
//! Markdown are objects of the site's store named by the batch ([`BatchPart::Text`],
//! [`BatchPart::Llms`]), shared by every version that lists the batch, and the version keeps
//! [`PIECES_OBJECT`], the table of its batches' pieces in order. A reader maps a range of the
//! logical object (the concatenation, which the search meta's offsets and the Markdown manifest
//! count in) to ranges of pieces ([`Pieces::reads`]). So a re-publish refers to the pieces of the
//! batches it takes instead of copying them into new packs; the storage sweep keeps a piece as long
//! as a kept version's batch index lists its batch (`super::kept::listed_objects`).
//!
//! The table is text, a line per batch: `{stem} {text bytes} {llms bytes}`.

use std::ops::Range;

use super::kept::{batch_part, BatchPart};
use crate::search::IndexError;

/// The version's table of pieces.
pub const PIECES_OBJECT: &str = "pieces.txt";

/// Which logical object a piece belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pieced {
    /// The text pack (`search/text.bin`).
    Text,
    /// `llms-full.txt`.
    Llms,
}

/// One batch's pieces: its stem and the length of each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub stem: String,
    pub text: u64,
    pub llms: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pieces {
    batches: Vec<Piece>,
}

impl Pieces {
    pub fn new(batches: Vec<Piece>) -> Self {
        Pieces { batches }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        self.batches
            .iter()
            .map(|p| format!("{} {} {}\n", p.stem, p.text, p.llms))
            .collect::<String>()
            .into_bytes()
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Pieces, IndexError> {
        let bad = || IndexError::Inconsistent("piece table");
        let text = std::str::from_utf8(bytes).map_err(|_| bad())?;
        let batches = text
            .lines()
            .map(|line| {
                let mut fields = line.split(' ');
                let (Some(stem), Some(text), Some(llms), None) =
                    (fields.next(), fields.next(), fields.next(), fields.next())
                else {
                    return Err(bad());
                };
                Ok(Piece {
                    stem: stem.to_owned(),
                    text: text.parse().map_err(|_| bad())?,
                    llms: llms.parse().map_err(|_| bad())?,
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(Pieces { batches })
    }

    fn len_of(piece: &Piece, kind: Pieced) -> u64 {
        match kind {
            Pieced::Text => piece.text,
            Pieced::Llms => piece.llms,
        }
    }

    /// What the table holds in memory, roughly (for a byte-bounded cache).
    pub fn heap_bytes(&self) -> usize {
        self.batches
            .iter()
            .map(|p| std::mem::size_of::<Piece>() + p.stem.len())
            .sum()
    }

    /// The logical object's size.
    pub fn size(&self, kind: Pieced) -> u64 {
        self.batches.iter().map(|p| Self::len_of(p, kind)).sum()
    }

    /// Every non-empty piece of `kind`, in order: its name in the site's store.
    pub fn objects(&self, kind: Pieced) -> impl Iterator<Item = String> + '_ {
        self.batches
            .iter()
            .filter(move |p| Self::len_of(p, kind) > 0)
            .map(move |p| batch_part(&p.stem, part(kind)))
    }

    /// Bytes `range` of the logical object as ranges of its pieces (names in the site's store), in
    /// order; `None` when the range runs past its end.
    pub fn reads(&self, kind: Pieced, range: Range<u64>) -> Option<Vec<(String, Range<u64>)>> {
        if range.end > self.size(kind) || range.start > range.end {
            return None;
        }
        let mut reads = Vec::new();
        let mut at = 0u64;
        for piece in &self.batches {
            let len = Self::len_of(piece, kind);
            let (start, end) = (range.start.max(at), range.end.min(at + len));
            if start < end {
                reads.push((batch_part(&piece.stem, part(kind)), start - at..end - at));
            }
            at += len;
            if at >= range.end {
                break;
            }
        }
        Some(reads)
    }
}

fn part(kind: Pieced) -> BatchPart {
    match kind {
        Pieced::Text => BatchPart::Text,
        Pieced::Llms => BatchPart::Llms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Pieces {
        let stem = |c: char| format!("batch-{}", c.to_string().repeat(32));
        Pieces::new(vec![
            Piece {
                stem: stem('a'),
                text: 10,
                llms: 4,
            },
            Piece {
                stem: stem('b'),
                text: 0,
                llms: 6,
            },
            Piece {
                stem: stem('c'),
                text: 5,
                llms: 0,
            },
        ])
    }

    #[test]
    fn the_table_round_trips_and_rejects_junk() {
        let pieces = table();
        assert_eq!(Pieces::from_bytes(&pieces.to_bytes()).unwrap(), pieces);
        assert_eq!(Pieces::from_bytes(b"").unwrap(), Pieces::default());
        for junk in [
            &b"batch-x 1\n"[..],
            b"batch-x 1 2 3\n",
            b"batch-x a 2\n",
            b"\xff",
        ] {
            assert!(Pieces::from_bytes(junk).is_err());
        }
    }

    #[test]
    fn a_range_maps_to_the_pieces_it_covers_skipping_empty_ones() {
        let pieces = table();
        let a = format!("batch-{}", "a".repeat(32));
        let c = format!("batch-{}", "c".repeat(32));
        assert_eq!(pieces.size(Pieced::Text), 15);
        assert_eq!(pieces.size(Pieced::Llms), 10);
        assert_eq!(
            pieces.reads(Pieced::Text, 2..5),
            Some(vec![(format!("{a}.text"), 2..5)])
        );
        // Across the empty piece of batch b.
        assert_eq!(
            pieces.reads(Pieced::Text, 8..12),
            Some(vec![
                (format!("{a}.text"), 8..10),
                (format!("{c}.text"), 0..2)
            ])
        );
        assert_eq!(
            pieces.reads(Pieced::Text, 10..15),
            Some(vec![(format!("{c}.text"), 0..5)])
        );
        assert_eq!(pieces.reads(Pieced::Text, 3..3), Some(vec![]));
        assert_eq!(pieces.reads(Pieced::Text, 14..16), None);
        assert_eq!(pieces.reads(Pieced::Llms, 0..10).map(|r| r.len()), Some(2));
        assert_eq!(
            pieces.objects(Pieced::Llms).collect::<Vec<_>>(),
            vec![
                format!("{a}.llms"),
                format!("batch-{}.llms", "b".repeat(32))
            ]
        );
    }
}
