//! Posting lists as one byte blob: per posting a varint chunk-id delta, then a varint packing the
//! three field frequencies. Kept as bytes in memory too, so loading an index copies one buffer instead
//! of deserialising a million small structs; queries decode only the lists they touch.

/// Field order everywhere in the index: page title, section heading, section text.
pub(crate) const TITLE: usize = 0;
pub(crate) const HEADING: usize = 1;
pub(crate) const TEXT: usize = 2;

/// Title and heading are a few words: a term repeated more than three times there carries no extra
/// signal, and capping lets both fit in four bits next to the text frequency.
const SHORT_FIELD_CAP: u32 = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Posting {
    pub chunk: u32,
    /// Term frequency per field, indexed by [`TITLE`], [`HEADING`], [`TEXT`].
    pub tf: [u32; 3],
}

/// Appends `list` (chunk ids strictly increasing) to `out`.
pub(crate) fn encode(list: &[Posting], out: &mut Vec<u8>) {
    let mut prev = 0u32;
    for (i, p) in list.iter().enumerate() {
        let delta = if i == 0 {
            p.chunk
        } else {
            p.chunk.wrapping_sub(prev)
        };
        prev = p.chunk;
        write_varint(out, delta);
        let text = p.tf[TEXT].min(u32::MAX >> 4);
        let packed =
            text << 4 | p.tf[HEADING].min(SHORT_FIELD_CAP) << 2 | p.tf[TITLE].min(SHORT_FIELD_CAP);
        write_varint(out, packed);
    }
}

/// Reads postings back; stops quietly at malformed bytes, so a corrupt list yields fewer postings
/// rather than a panic.
pub(crate) struct Decoder<'a> {
    bytes: &'a [u8],
    pos: usize,
    prev: Option<u32>,
}

impl<'a> Decoder<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Decoder {
            bytes,
            pos: 0,
            prev: None,
        }
    }
}

impl Iterator for Decoder<'_> {
    type Item = Posting;

    fn next(&mut self) -> Option<Posting> {
        let delta = read_varint(self.bytes, &mut self.pos)?;
        let packed = read_varint(self.bytes, &mut self.pos)?;
        let chunk = match self.prev {
            None => delta,
            Some(prev) => prev.checked_add(delta)?,
        };
        self.prev = Some(chunk);
        Some(Posting {
            chunk,
            tf: [packed & 3, (packed >> 2) & 3, packed >> 4],
        })
    }
}

fn write_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn read_varint(bytes: &[u8], pos: &mut usize) -> Option<u32> {
    let mut value = 0u32;
    for shift in (0..35).step_by(7) {
        let byte = *bytes.get(*pos)?;
        *pos += 1;
        let bits = u32::from(byte & 0x7f);
        value |= bits.checked_shl(shift)?;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postings_roundtrip_with_caps() {
        let list = vec![
            Posting {
                chunk: 0,
                tf: [1, 0, 2],
            },
            Posting {
                chunk: 7,
                tf: [9, 2, 0],
            },
            Posting {
                chunk: 300_000,
                tf: [0, 0, 70_000],
            },
        ];
        let mut bytes = Vec::new();
        encode(&list, &mut bytes);
        let back: Vec<_> = Decoder::new(&bytes).collect();
        assert_eq!(back.len(), 3);
        assert_eq!(
            back[1],
            Posting {
                chunk: 7,
                tf: [3, 2, 0]
            }
        );
        assert_eq!(back[2], list[2]);
    }

    #[test]
    fn garbage_postings_do_not_panic() {
        let garbage = [0xffu8; 11];
        assert_eq!(Decoder::new(&garbage).count(), 0);
        assert_eq!(Decoder::new(&[0x80]).count(), 0);
    }
}
