//! Posting lists as one byte blob: per posting a varint chunk-id delta, then a varint packing the
//! three field frequencies. Kept as bytes in memory too, so loading an index copies one buffer instead
//! of deserialising a million small structs; queries decode only the lists they touch.
//!
//! Term shards store postings by page instead ([`encode_paged`]): a posting names its page (a delta
//! from the previous posting's) and the chunk's place in the page, so a page that gains or loses a
//! chunk renumbers no posting of another page, and one edited page rewrites only the lists of its own
//! terms (what a mirror of the packs downloads). [`Decoder::paged`] reads them back as chunk ids.

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
        write_varint(out, pack_tf(p.tf));
    }
}

fn pack_tf(tf: [u32; 3]) -> u32 {
    let text = tf[TEXT].min(u32::MAX >> 4);
    text << 4 | tf[HEADING].min(SHORT_FIELD_CAP) << 2 | tf[TITLE].min(SHORT_FIELD_CAP)
}

fn unpack_tf(packed: u32) -> [u32; 3] {
    [packed & 3, (packed >> 2) & 3, packed >> 4]
}

/// A posting as a term shard stores it: the page, and the chunk's place among the page's chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PagePosting {
    pub page: u32,
    pub local: u32,
    pub tf: [u32; 3],
}

/// Appends `list` (ordered by page, then place) to `out`. Per posting a varint `delta << 2 | code`,
/// where `delta` is the page's distance from the previous posting's page (the first posting's page
/// itself) and `code` the place in a new page, or the gap less one after the previous place in the
/// same page; a `code` of 3 or more is written as 3 and followed by a varint `code - 3`. Then the
/// frequencies as [`encode`] packs them. About as many bytes as chunk deltas: a page delta shifted
/// by two is about as large as the chunk delta it replaces.
pub(crate) fn encode_paged(list: &[PagePosting], out: &mut Vec<u8>) {
    let mut prev: Option<(u32, u32)> = None;
    for p in list {
        let (delta, code) = match prev {
            Some((page, local)) if page == p.page => (0, p.local.wrapping_sub(local + 1)),
            Some((page, _)) => (p.page.wrapping_sub(page), p.local),
            None => (p.page, p.local),
        };
        prev = Some((p.page, p.local));
        write_varint64(out, u64::from(delta) << 2 | u64::from(code.min(3)));
        if code >= 3 {
            write_varint(out, code - 3);
        }
        write_varint(out, pack_tf(p.tf));
    }
}

/// Reads [`encode_paged`]'s postings; stops quietly at malformed bytes, as [`Decoder`] does.
pub(crate) struct PagedDecoder<'a> {
    bytes: &'a [u8],
    pos: usize,
    prev: Option<(u32, u32)>,
}

impl<'a> PagedDecoder<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        PagedDecoder {
            bytes,
            pos: 0,
            prev: None,
        }
    }
}

impl Iterator for PagedDecoder<'_> {
    type Item = PagePosting;

    fn next(&mut self) -> Option<PagePosting> {
        let head = read_varint64(self.bytes, &mut self.pos)?;
        let delta = u32::try_from(head >> 2).ok()?;
        let mut code = (head & 3) as u32;
        if code == 3 {
            code = code.checked_add(read_varint(self.bytes, &mut self.pos)?)?;
        }
        let packed = read_varint(self.bytes, &mut self.pos)?;
        let (page, local) = match self.prev {
            Some((page, local)) if delta == 0 => (page, local.checked_add(1)?.checked_add(code)?),
            Some((page, _)) => (page.checked_add(delta)?, code),
            None => (delta, code),
        };
        self.prev = Some((page, local));
        Some(PagePosting {
            page,
            local,
            tf: unpack_tf(packed),
        })
    }
}

/// Reads postings back as chunk ids; stops quietly at malformed bytes, so a corrupt list yields fewer
/// postings rather than a panic.
pub(crate) struct Decoder<'a> {
    form: Form<'a>,
}

enum Form<'a> {
    /// [`encode`]'s chunk deltas.
    Chunks {
        bytes: &'a [u8],
        pos: usize,
        prev: Option<u32>,
    },
    /// [`encode_paged`]'s pages, with each page's first chunk (`starts[page]`, one more entry than
    /// there are pages: the chunk count).
    Pages {
        postings: PagedDecoder<'a>,
        starts: &'a [u32],
    },
}

impl<'a> Decoder<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Decoder {
            form: Form::Chunks {
                bytes,
                pos: 0,
                prev: None,
            },
        }
    }

    /// [`encode_paged`]'s postings as chunk ids, page `p`'s chunks being `starts[p]..starts[p + 1]`.
    pub fn paged(bytes: &'a [u8], starts: &'a [u32]) -> Self {
        Decoder {
            form: Form::Pages {
                postings: PagedDecoder::new(bytes),
                starts,
            },
        }
    }
}

impl Iterator for Decoder<'_> {
    type Item = Posting;

    fn next(&mut self) -> Option<Posting> {
        match &mut self.form {
            Form::Chunks { bytes, pos, prev } => {
                let delta = read_varint(bytes, pos)?;
                let packed = read_varint(bytes, pos)?;
                let chunk = match *prev {
                    None => delta,
                    Some(prev) => prev.checked_add(delta)?,
                };
                *prev = Some(chunk);
                Some(Posting {
                    chunk,
                    tf: unpack_tf(packed),
                })
            }
            Form::Pages { postings, starts } => {
                let p = postings.next()?;
                let start = *starts.get(p.page as usize)?;
                let end = *starts.get(p.page as usize + 1)?;
                let chunk = start.checked_add(p.local).filter(|&c| c < end)?;
                Some(Posting { chunk, tf: p.tf })
            }
        }
    }
}

fn write_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn write_varint64(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn read_varint(bytes: &[u8], pos: &mut usize) -> Option<u32> {
    u32::try_from(read_varint64(bytes, pos)?).ok()
}

fn read_varint64(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..70).step_by(7) {
        let byte = *bytes.get(*pos)?;
        *pos += 1;
        let bits = u64::from(byte & 0x7f);
        if shift == 63 && bits > 1 {
            return None;
        }
        value |= bits << shift;
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
    fn paged_postings_roundtrip_and_map_to_chunks() {
        let list = [
            (0, 0, 1),
            (0, 1, 2),
            (0, 9, 3),
            (2, 0, 1),
            (2, 4, 70_000),
            (900, 3, 5),
        ]
        .map(|(page, local, text)| PagePosting {
            page,
            local,
            tf: [1, 0, text],
        });
        let mut bytes = Vec::new();
        encode_paged(&list, &mut bytes);
        assert_eq!(PagedDecoder::new(&bytes).collect::<Vec<_>>(), list);
        // Pages 0 (10 chunks), 1 (2), 2 (5), then 897 of one chunk and page 900 of 4.
        let mut starts = vec![0, 10, 12, 17];
        starts.extend((1..=897).map(|i| 17 + i));
        starts.push(starts.last().unwrap() + 4);
        let chunks: Vec<u32> = Decoder::paged(&bytes, &starts).map(|p| p.chunk).collect();
        assert_eq!(chunks, [0, 1, 9, 12, 16, 914 + 3]);
        // A place past its page's chunks ends the list rather than naming another page's chunk.
        assert_eq!(Decoder::paged(&bytes, &[0, 9, 12, 17]).count(), 2);
    }

    #[test]
    fn garbage_postings_do_not_panic() {
        let garbage = [0xffu8; 11];
        assert_eq!(Decoder::new(&garbage).count(), 0);
        assert_eq!(Decoder::new(&[0x80]).count(), 0);
        assert_eq!(PagedDecoder::new(&garbage).count(), 0);
        assert_eq!(Decoder::paged(&[0x0f, 0xff], &[0, 1]).count(), 0);
    }
}
