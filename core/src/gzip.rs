//! Gzip members (RFC 1952) around flate2's raw deflate: the bundle's encoder and the uploads'
//! multi-member decoders, push ([`GunzipWriter`]) and pull ([`GunzipReader`]).
//!
//! Why not flate2's `Gz*` types: they checksum with crc32fast, whose slice-by-16 tables are 16 KiB
//! of constant data, about 15 KiB of the worker's gzipped wasm (docs/engineering/decisions.mdx,
//! "The worker's size").
//! The same slice-by-16 CRC comes from the `crc` crate here, its tables computed on first use instead
//! of compiled in. Output and acceptance are flate2's: the same header bytes, the same deflate
//! stream, the same checks (magic, method, header CRC, data CRC and size) with its error messages.

use std::io::{self, Read, Write};
use std::sync::OnceLock;

use crc::{Crc, Digest, Table, CRC_32_ISO_HDLC};
use flate2::write::DeflateEncoder;
use flate2::{Compression, Decompress, FlushDecompress, Status};

type Crc32 = Digest<'static, u32, Table<16>>;

fn crc32() -> Crc32 {
    static CRC: OnceLock<Crc<u32, Table<16>>> = OnceLock::new();
    CRC.get_or_init(|| Crc::<u32, Table<16>>::new(&CRC_32_ISO_HDLC))
        .digest()
}

const FHCRC: u8 = 1 << 1;
const FEXTRA: u8 = 1 << 2;
const FNAME: u8 = 1 << 3;
const FCOMMENT: u8 = 1 << 4;
const RESERVED: u8 = 0xe0;
/// flate2's bound on a file name or comment.
const MAX_HEADER_FIELD: usize = 65535;

fn bad_header() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "invalid gzip header")
}

fn corrupt() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "corrupt gzip stream does not have a matching checksum",
    )
}

fn corrupt_deflate() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "corrupt deflate stream")
}

/// One gzip member written as the data comes: the header flate2's `GzBuilder::new()` writes (mtime 0,
/// no name, OS 255), raw deflate, then CRC-32 and size.
pub struct GzipWriter {
    deflate: DeflateEncoder<Vec<u8>>,
    header: Option<[u8; 10]>,
    crc: Crc32,
    size: u32,
}

impl GzipWriter {
    pub fn new(level: Compression) -> Self {
        let xfl = if level.level() >= Compression::best().level() {
            2
        } else if level.level() <= Compression::fast().level() {
            4
        } else {
            0
        };
        GzipWriter {
            deflate: DeflateEncoder::new(Vec::new(), level),
            header: Some([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, xfl, 255]),
            crc: crc32(),
            size: 0,
        }
    }

    /// The compressed bytes so far (the header once anything was written, as flate2 writes it).
    pub fn get_ref(&self) -> &Vec<u8> {
        self.deflate.get_ref()
    }

    pub fn get_mut(&mut self) -> &mut Vec<u8> {
        self.deflate.get_mut()
    }

    /// The whole member: what `get_mut` left, the end of the deflate stream and the trailer.
    pub fn finish(mut self) -> io::Result<Vec<u8>> {
        self.write_header();
        let mut out = self.deflate.finish()?;
        out.extend_from_slice(&self.crc.finalize().to_le_bytes());
        out.extend_from_slice(&self.size.to_le_bytes());
        Ok(out)
    }

    fn write_header(&mut self) {
        if let Some(header) = self.header.take() {
            self.deflate.get_mut().extend_from_slice(&header);
        }
    }
}

impl Write for GzipWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_header();
        let n = self.deflate.write(buf)?;
        self.crc.update(&buf[..n]);
        self.size = self.size.wrapping_add(n as u32);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.write_header();
        self.deflate.flush()
    }
}

/// Where a member's header parse is.
enum HeaderStep {
    /// The 10 fixed bytes, `n` of them read.
    Fixed(usize),
    ExtraLen(usize),
    Extra(usize),
    /// A NUL-terminated field, `n` bytes of it read.
    Name(usize),
    Comment(usize),
    HeaderCrc(usize),
}

enum Part {
    Header {
        step: HeaderStep,
        flags: u8,
        fixed: [u8; 10],
        extra_len: [u8; 2],
        stored_crc: [u8; 2],
        crc: Crc32,
    },
    Body,
    Trailer {
        bytes: [u8; 8],
        read: usize,
    },
    /// A member ended; more bytes start the next.
    Between,
}

fn new_header() -> Part {
    Part::Header {
        step: HeaderStep::Fixed(0),
        flags: 0,
        fixed: [0; 10],
        extra_len: [0; 2],
        stored_crc: [0; 2],
        crc: crc32(),
    }
}

/// A multi-member gzip stream inflated as input comes: [`Gunzip::inflate`] takes what input it can
/// and fills what output it can.
pub struct Gunzip {
    part: Part,
    inflate: Decompress,
    crc: Crc32,
    size: u32,
}

impl Default for Gunzip {
    fn default() -> Self {
        Gunzip {
            part: new_header(),
            inflate: Decompress::new(false),
            crc: crc32(),
            size: 0,
        }
    }
}

impl Gunzip {
    /// Consumes from `input` and writes into `output`: `(consumed, produced)`. Makes progress while
    /// `input` has bytes and `output` room; returns `(0, 0)` only when it needs more input (or room).
    pub fn inflate(&mut self, input: &[u8], output: &mut [u8]) -> io::Result<(usize, usize)> {
        let mut consumed = 0;
        loop {
            let rest = &input[consumed..];
            match &mut self.part {
                Part::Between if rest.is_empty() => return Ok((consumed, 0)),
                Part::Between => self.part = new_header(),
                Part::Header { .. } => {
                    let (used, done) = self.header(rest)?;
                    consumed += used;
                    if !done {
                        return Ok((consumed, 0));
                    }
                    self.part = Part::Body;
                }
                Part::Body => {
                    let (before_in, before_out) =
                        (self.inflate.total_in(), self.inflate.total_out());
                    let status = self
                        .inflate
                        .decompress(rest, output, FlushDecompress::None)
                        .map_err(|_| corrupt_deflate())?;
                    let used = (self.inflate.total_in() - before_in) as usize;
                    let produced = (self.inflate.total_out() - before_out) as usize;
                    consumed += used;
                    self.crc.update(&output[..produced]);
                    self.size = self.size.wrapping_add(produced as u32);
                    if status == Status::StreamEnd {
                        self.part = Part::Trailer {
                            bytes: [0; 8],
                            read: 0,
                        };
                    }
                    if produced > 0 || status != Status::StreamEnd {
                        return Ok((consumed, produced));
                    }
                }
                Part::Trailer { bytes, read } => {
                    let take = (8 - *read).min(rest.len());
                    bytes[*read..*read + take].copy_from_slice(&rest[..take]);
                    *read += take;
                    consumed += take;
                    if *read < 8 {
                        return Ok((consumed, 0));
                    }
                    let crc = std::mem::replace(&mut self.crc, crc32()).finalize();
                    if bytes[..4] != crc.to_le_bytes() || bytes[4..] != self.size.to_le_bytes() {
                        return Err(corrupt());
                    }
                    self.size = 0;
                    self.inflate.reset(false);
                    self.part = Part::Between;
                }
            }
        }
    }

    /// Whether the stream ended cleanly: at least one member read whole and nothing of another.
    pub fn check_end(&self) -> io::Result<()> {
        match self.part {
            Part::Between => Ok(()),
            _ => Err(corrupt()),
        }
    }

    /// Reads header bytes from `input`: `(consumed, header complete)`.
    fn header(&mut self, input: &[u8]) -> io::Result<(usize, bool)> {
        let Part::Header {
            step,
            flags,
            fixed,
            extra_len,
            stored_crc,
            crc,
        } = &mut self.part
        else {
            return Ok((0, true));
        };
        let mut at = 0;
        loop {
            // The header CRC covers every header byte before it.
            let next = match step {
                HeaderStep::Fixed(10) => {
                    if fixed[..3] != [0x1f, 0x8b, 8] || fixed[3] & RESERVED != 0 {
                        return Err(bad_header());
                    }
                    *flags = fixed[3];
                    Some(HeaderStep::ExtraLen(0))
                }
                HeaderStep::ExtraLen(_) if *flags & FEXTRA == 0 => Some(HeaderStep::Name(0)),
                HeaderStep::ExtraLen(2) => {
                    Some(HeaderStep::Extra(u16::from_le_bytes(*extra_len) as usize))
                }
                HeaderStep::Extra(0) => Some(HeaderStep::Name(0)),
                HeaderStep::Name(_) if *flags & FNAME == 0 => Some(HeaderStep::Comment(0)),
                HeaderStep::Comment(_) if *flags & FCOMMENT == 0 => Some(HeaderStep::HeaderCrc(0)),
                HeaderStep::HeaderCrc(_) if *flags & FHCRC == 0 => return Ok((at, true)),
                HeaderStep::HeaderCrc(2) => {
                    let sum = std::mem::replace(crc, crc32()).finalize() as u16;
                    if sum != u16::from_le_bytes(*stored_crc) {
                        return Err(corrupt());
                    }
                    return Ok((at, true));
                }
                _ => None,
            };
            if let Some(next) = next {
                *step = next;
                continue;
            }
            let Some(&byte) = input.get(at) else {
                return Ok((at, false));
            };
            at += 1;
            if !matches!(step, HeaderStep::HeaderCrc(_)) {
                crc.update(&[byte]);
            }
            match step {
                HeaderStep::Fixed(n) => {
                    fixed[*n] = byte;
                    *n += 1;
                }
                HeaderStep::ExtraLen(n) => {
                    extra_len[*n] = byte;
                    *n += 1;
                }
                HeaderStep::Extra(left) => *left -= 1,
                HeaderStep::Name(_) if byte == 0 => *step = HeaderStep::Comment(0),
                HeaderStep::Comment(_) if byte == 0 => *step = HeaderStep::HeaderCrc(0),
                HeaderStep::Name(n) | HeaderStep::Comment(n) if *n == MAX_HEADER_FIELD => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        "gzip header field too long",
                    ));
                }
                HeaderStep::Name(n) | HeaderStep::Comment(n) => *n += 1,
                HeaderStep::HeaderCrc(n) => {
                    stored_crc[*n] = byte;
                    *n += 1;
                }
            }
        }
    }
}

/// Inflated bytes written on to `sink` as compressed bytes are written in, a buffer at a time.
pub struct GunzipWriter<W: Write> {
    gunzip: Gunzip,
    sink: W,
    buffer: Vec<u8>,
}

const BUFFER_BYTES: usize = 32 * 1024;

impl<W: Write> GunzipWriter<W> {
    pub fn new(sink: W) -> Self {
        GunzipWriter {
            gunzip: Gunzip::default(),
            sink,
            buffer: vec![0; BUFFER_BYTES],
        }
    }

    pub fn get_ref(&self) -> &W {
        &self.sink
    }

    pub fn get_mut(&mut self) -> &mut W {
        &mut self.sink
    }

    /// The end of the compressed stream: an error if it stopped inside a member.
    pub fn try_finish(&mut self) -> io::Result<()> {
        self.gunzip.check_end()
    }
}

impl<W: Write> Write for GunzipWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut at = 0;
        loop {
            let (used, produced) = self.gunzip.inflate(&buf[at..], &mut self.buffer)?;
            at += used;
            if produced > 0 {
                self.sink.write_all(&self.buffer[..produced])?;
            } else if used == 0 {
                return Ok(at);
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.sink.flush()
    }
}

/// Inflated bytes read from a compressed reader.
pub struct GunzipReader<R: Read> {
    gunzip: Gunzip,
    source: R,
    input: Vec<u8>,
    start: usize,
    end: usize,
    source_done: bool,
}

impl<R: Read> GunzipReader<R> {
    pub fn new(source: R) -> Self {
        GunzipReader {
            gunzip: Gunzip::default(),
            source,
            input: vec![0; BUFFER_BYTES],
            start: 0,
            end: 0,
            source_done: false,
        }
    }
}

impl<R: Read> Read for GunzipReader<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            if self.start == self.end && !self.source_done {
                self.start = 0;
                self.end = self.source.read(&mut self.input)?;
                self.source_done = self.end == 0;
            }
            let (used, produced) = self
                .gunzip
                .inflate(&self.input[self.start..self.end], out)?;
            self.start += used;
            if produced > 0 {
                return Ok(produced);
            }
            if used == 0 && self.start == self.end && self.source_done {
                self.gunzip.check_end()?;
                return Ok(0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flate2_gzip(data: &[u8], level: Compression) -> Vec<u8> {
        let mut gz = flate2::GzBuilder::new().write(Vec::new(), level);
        gz.write_all(data).unwrap();
        gz.finish().unwrap()
    }

    fn ours(data: &[u8], level: Compression) -> Vec<u8> {
        let mut gz = GzipWriter::new(level);
        gz.write_all(data).unwrap();
        gz.finish().unwrap()
    }

    fn sample(len: usize) -> Vec<u8> {
        (0..len)
            .map(|i| ((i * 7919) % 251) as u8 ^ (i / 1000) as u8)
            .collect()
    }

    #[test]
    fn writes_the_bytes_flate2_writes() {
        for level in [
            Compression::fast(),
            Compression::new(3),
            Compression::default(),
            Compression::best(),
        ] {
            for len in [0, 1, 100, 70_000, 300_000] {
                assert_eq!(
                    ours(&sample(len), level),
                    flate2_gzip(&sample(len), level),
                    "level {level:?} len {len}"
                );
            }
        }
        // Nothing written yet: no header either, as flate2's encoder.
        assert!(GzipWriter::new(Compression::fast()).get_ref().is_empty());
    }

    fn read_all(gz: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        GunzipReader::new(gz).read_to_end(&mut out)?;
        Ok(out)
    }

    fn write_all_in(gz: &[u8], piece: usize) -> io::Result<Vec<u8>> {
        let mut writer = GunzipWriter::new(Vec::new());
        for chunk in gz.chunks(piece.max(1)) {
            writer.write_all(chunk)?;
        }
        writer.try_finish()?;
        Ok(writer.sink)
    }

    fn flate2_read(gz: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(gz).read_to_end(&mut out)?;
        Ok(out)
    }

    fn flate2_write(gz: &[u8]) -> io::Result<Vec<u8>> {
        let mut writer = flate2::write::MultiGzDecoder::new(Vec::new());
        writer.write_all(gz)?;
        writer.try_finish()?;
        Ok(writer.get_ref().clone())
    }

    #[test]
    fn reads_multi_member_streams_however_split() {
        let a = sample(50_000);
        let b = sample(123);
        let stream = [
            flate2_gzip(&a, Compression::new(3)),
            flate2_gzip(&b, Compression::fast()),
            flate2_gzip(&[], Compression::fast()),
        ]
        .concat();
        let whole = [a, b].concat();
        assert_eq!(read_all(&stream).unwrap(), whole);
        for piece in [1, 2, 7, 10, 11, 512, 40_000] {
            assert_eq!(
                write_all_in(&stream, piece).unwrap(),
                whole,
                "piece {piece}"
            );
        }
    }

    #[test]
    fn reads_optional_header_fields() {
        let data = sample(3000);
        let mut gz = flate2::GzBuilder::new()
            .filename("docs.tar")
            .comment("a comment")
            .extra(vec![1, 2, 3, 4])
            .mtime(12345)
            .write(Vec::new(), Compression::default());
        gz.write_all(&data).unwrap();
        let stream = gz.finish().unwrap();
        assert_eq!(read_all(&stream).unwrap(), data);
        assert_eq!(write_all_in(&stream, 3).unwrap(), data);
        // A header CRC (FHCRC), right and wrong.
        let mut with_crc = stream.clone();
        let header_len = 10 + 2 + 4 + "docs.tar\0".len() + "a comment\0".len();
        with_crc[3] |= FHCRC;
        let sum = (crc::Crc::<u32>::new(&CRC_32_ISO_HDLC).checksum(&with_crc[..header_len]) as u16)
            .to_le_bytes();
        with_crc.splice(header_len..header_len, sum);
        assert_eq!(read_all(&with_crc).unwrap(), data);
        assert_eq!(flate2_read(&with_crc).unwrap(), data);
        with_crc[header_len] ^= 1;
        assert!(read_all(&with_crc).is_err());
    }

    /// Every corruption and truncation is refused, as flate2's decoders refuse it.
    #[test]
    fn refuses_what_flate2_refuses() {
        let data = sample(20_000);
        let good = [
            flate2_gzip(&data, Compression::new(3)),
            flate2_gzip(&sample(10), Compression::fast()),
        ]
        .concat();
        let mut cases: Vec<Vec<u8>> = Vec::new();
        for cut in [
            1,
            5,
            10,
            11,
            30,
            good.len() / 2,
            good.len() - 30,
            good.len() - 8,
            good.len() - 1,
        ] {
            cases.push(good[..cut].to_vec());
        }
        for at in [
            0,
            1,
            2,
            3,
            20,
            200,
            good.len() / 3,
            good.len() - 40,
            good.len() - 8,
            good.len() - 5,
            good.len() - 2,
        ] {
            let mut bad = good.clone();
            bad[at] ^= 0x55;
            cases.push(bad);
        }
        cases.push([good.as_slice(), b"trailing"].concat());
        cases.push([good.as_slice(), &[0x1f]].concat());
        for (i, case) in cases.iter().enumerate() {
            let theirs = (flate2_read(case).is_ok(), flate2_write(case).is_ok());
            let mine = (read_all(case).is_ok(), write_all_in(case, 4096).is_ok());
            assert_eq!(mine.0, theirs.0, "case {i}: read");
            assert_eq!(mine.1, theirs.1, "case {i}: write");
            if let (Ok(a), Ok(b)) = (read_all(case), flate2_read(case)) {
                assert_eq!(a, b, "case {i}");
            }
        }
    }
}
