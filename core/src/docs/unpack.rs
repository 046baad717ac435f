//! The upload rules of [`super::archive`], applied to a `.tar.gz` that arrives in pieces: the publish
//! job reads the stored upload from R2 a range at a time and feeds each range here, so neither the
//! upload nor its inflated tree is ever held whole. Sans IO: [`Unpacker::push`] takes compressed
//! bytes and hands back each regular file once its data is complete; [`Unpacker::finish`] says
//! whether the stream ended cleanly.
//!
//! Entries are framed by hand (512-byte headers, data padded to 512) because the `tar` crate can
//! only pull from a blocking reader; header fields and PAX records are still read with its types,
//! and every rule (paths, entry kinds, extension records, file count, file and total size, the
//! inflation budget) is the one `for_each_archive_file` applies, so both readers accept and refuse
//! the same archives (the archive tests run every case through both).

use std::io::{self, Write};

use tar::{EntryType, Header};

use crate::gzip::GunzipWriter;

use super::archive::{
    display_path, entry_kind_name, is_apple_double, is_extension, link_target, normalise_path,
    ArchiveError, ArchiveLimits, FileCounts, PendingNames, MAX_EXTENSION_BYTES, MAX_PATH_BYTES,
};
use super::file_kind::is_source;

/// What the unpacker hands back, in archive order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A source file, whole (at most the source file limit).
    File(String, Vec<u8>),
    /// A media file begins; its data follows in [`Entry::MediaData`] pieces, then [`Entry::MediaEnd`].
    MediaStart {
        path: String,
        size: u64,
    },
    MediaData(Vec<u8>),
    MediaEnd,
    /// A symbolic or hard link, its target inside the folder (`None`: it points outside).
    Link {
        path: String,
        target: Option<String>,
    },
}

const BLOCK: usize = 512;

/// An incremental `.tar.gz` reader with the upload rules.
pub struct Unpacker {
    decoder: GunzipWriter<TarSink>,
    /// The first bytes, held until there are two to check against the gzip magic.
    head: Vec<u8>,
}

impl Unpacker {
    pub fn new(limits: &ArchiveLimits) -> Self {
        Unpacker {
            decoder: GunzipWriter::new(TarSink::new(limits.clone())),
            head: Vec::new(),
        }
    }

    /// An unpacker that hands a source file of `bytes` or more over in pieces, as a media file
    /// ([`Entry::MediaStart`]…), rather than whole: a reader that only copies files (a hosted
    /// export's, of its own bundle) never holds a large one.
    pub fn streaming_from(limits: &ArchiveLimits, bytes: u64) -> Self {
        let mut sink = TarSink::new(limits.clone());
        sink.stream_from = bytes;
        Unpacker {
            decoder: GunzipWriter::new(sink),
            head: Vec::new(),
        }
    }

    /// Feeds the next compressed bytes; `on_entry` gets every entry (or media piece) they complete.
    pub fn push(&mut self, gz: &[u8], on_entry: &mut dyn FnMut(Entry)) -> Result<(), ArchiveError> {
        let mut gz = gz;
        let held;
        if self.head.len() < 2 {
            let take = (2 - self.head.len()).min(gz.len());
            self.head.extend_from_slice(&gz[..take]);
            if self.head.len() < 2 {
                return Ok(());
            }
            if self.head != [0x1f, 0x8b] {
                return Err(ArchiveError::NotGzip);
            }
            held = [self.head.as_slice(), &gz[take..]].concat();
            gz = &held;
        }
        let written = self.decoder.write_all(gz);
        let result = self.outcome(written);
        for entry in self.decoder.get_mut().ready.drain(..) {
            on_entry(entry);
        }
        result
    }

    /// The end of the upload: `on_entry` gets what the decoder still held; a truncated gzip
    /// member or tar entry is an error here.
    pub fn finish(mut self, on_entry: &mut dyn FnMut(Entry)) -> Result<(), ArchiveError> {
        if self.head.len() < 2 {
            return Err(ArchiveError::NotGzip);
        }
        let flushed = self.decoder.try_finish();
        let result = self.outcome(flushed);
        for entry in self.decoder.get_mut().ready.drain(..) {
            on_entry(entry);
        }
        result?;
        self.decoder.get_ref().check_complete()
    }

    /// Whether what was pushed so far ends between two entries: a reader that stops here can start
    /// again with a new unpacker at the next gzip member (a hosted site's export is copied this way,
    /// a few of its parts per step).
    pub fn between_entries(&self) -> bool {
        self.head.len() == 2 && self.decoder.get_ref().check_complete().is_ok()
    }

    fn outcome(&mut self, result: io::Result<()>) -> Result<(), ArchiveError> {
        let sink = self.decoder.get_mut();
        match (sink.failed.take(), result) {
            (Some(err), _) => Err(err),
            (None, Ok(())) => Ok(()),
            (None, Err(err)) => Err(ArchiveError::Corrupt {
                entry: sink.last.clone(),
                reason: err.to_string(),
            }),
        }
    }
}

/// What the bytes being read belong to.
enum Part {
    Header,
    /// An extension record (long name, PAX) of `size` bytes.
    Extension {
        kind: EntryType,
        size: usize,
    },
    /// A source file's data, gathered whole.
    File {
        path: String,
        size: usize,
    },
    /// A media file's data, passed on as it arrives; `left` bytes to come.
    Media {
        left: u64,
        padding: u64,
    },
    /// Past the end-of-archive block: the rest is ignored, as the tar crate ignores it.
    Ended,
}

/// Receives inflated bytes and frames tar entries.
struct TarSink {
    limits: ArchiveLimits,
    /// Inflated bytes still allowed (headers and padding cost up to ~1.5 KB per entry on top of the
    /// file data), so a gzip bomb stops at the budget.
    budget: u64,
    part: Part,
    /// Bytes of the current part read so far (a header, a record, a file's data).
    buf: Vec<u8>,
    /// Bytes still to skip: unread data and padding.
    skip: u64,
    pending: PendingNames,
    counts: FileCounts,
    last: Option<String>,
    ready: Vec<Entry>,
    failed: Option<ArchiveError>,
    /// Source files at least this large are handed over in pieces, as media are.
    stream_from: u64,
}

impl TarSink {
    fn new(limits: ArchiveLimits) -> Self {
        let budget = limits.stream_budget();
        TarSink {
            limits,
            budget,
            part: Part::Header,
            buf: Vec::new(),
            skip: 0,
            pending: PendingNames::default(),
            counts: FileCounts::default(),
            last: None,
            ready: Vec::new(),
            failed: None,
            stream_from: u64::MAX,
        }
    }

    fn fail(&mut self, err: ArchiveError) -> io::Error {
        let message = err.to_string();
        self.failed = Some(err);
        io::Error::other(message)
    }

    fn corrupt(&self, reason: &str) -> ArchiveError {
        ArchiveError::Corrupt {
            entry: self.last.clone(),
            reason: reason.to_owned(),
        }
    }

    /// Whether the stream stopped between entries.
    fn check_complete(&self) -> Result<(), ArchiveError> {
        let between = matches!(self.part, Part::Header | Part::Ended)
            && self.buf.is_empty()
            && self.skip == 0;
        if between {
            Ok(())
        } else {
            Err(self.corrupt("unexpected end of archive"))
        }
    }

    fn consume(&mut self, mut data: &[u8]) -> Result<(), ArchiveError> {
        while !data.is_empty() {
            if matches!(self.part, Part::Ended) {
                return Ok(());
            }
            if self.skip > 0 {
                let n = usize::try_from(self.skip)
                    .unwrap_or(usize::MAX)
                    .min(data.len());
                self.skip -= n as u64;
                data = &data[n..];
                continue;
            }
            if let Part::Media { left, padding } = &mut self.part {
                let n = usize::try_from(*left).unwrap_or(usize::MAX).min(data.len());
                self.ready.push(Entry::MediaData(data[..n].to_vec()));
                *left -= n as u64;
                data = &data[n..];
                if *left == 0 {
                    self.skip = *padding;
                    self.part = Part::Header;
                    self.ready.push(Entry::MediaEnd);
                }
                continue;
            }
            let want = match &self.part {
                Part::Header => BLOCK,
                Part::Extension { size, .. } | Part::File { size, .. } => *size,
                Part::Media { .. } | Part::Ended => 0,
            };
            let n = want.saturating_sub(self.buf.len()).min(data.len());
            self.buf.extend_from_slice(&data[..n]);
            data = &data[n..];
            if self.buf.len() == want {
                self.complete_part()?;
            }
        }
        Ok(())
    }

    /// The current part has all its bytes: act on it and start the next.
    fn complete_part(&mut self) -> Result<(), ArchiveError> {
        let bytes = std::mem::take(&mut self.buf);
        match std::mem::replace(&mut self.part, Part::Header) {
            Part::Header => self.header(&bytes)?,
            Part::Extension { kind, size } => {
                self.skip = padding(size as u64);
                let reason = self.pending.absorb(kind, bytes).err();
                if let Some(reason) = reason {
                    return Err(self.corrupt(&reason));
                }
            }
            Part::File { path, size } => {
                self.skip = padding(size as u64);
                self.ready.push(Entry::File(path, bytes));
            }
            Part::Media { .. } | Part::Ended => {}
        }
        Ok(())
    }

    fn header(&mut self, block: &[u8]) -> Result<(), ArchiveError> {
        if block.iter().all(|&b| b == 0) {
            self.part = Part::Ended;
            return Ok(());
        }
        let header = Header::from_byte_slice(block);
        if !checksum_matches(block) {
            return Err(self.corrupt("archive header checksum mismatch"));
        }
        let size = header
            .entry_size()
            .map_err(|e| self.corrupt(&e.to_string()))?;
        let kind = header.entry_type();
        if is_extension(kind) {
            if size > MAX_EXTENSION_BYTES {
                return Err(ArchiveError::ExtensionTooLarge {
                    after: self.last.clone(),
                    limit: MAX_EXTENSION_BYTES,
                });
            }
            self.part = Part::Extension {
                kind,
                size: size as usize,
            };
            return Ok(());
        }
        let names = std::mem::take(&mut self.pending);
        if names.size.is_some_and(|declared| declared != size) {
            return Err(self.corrupt("a PAX size record disagrees with the entry's header"));
        }
        let path_bytes = names
            .path
            .unwrap_or_else(|| header.path_bytes().into_owned());
        let raw_path = display_path(&path_bytes);
        self.last = Some(raw_path.clone());
        if path_bytes.len() > MAX_PATH_BYTES {
            return Err(ArchiveError::BadPath {
                entry: raw_path,
                reason: "path is longer than 1024 bytes",
            });
        }
        match kind {
            EntryType::Regular | EntryType::Continuous => {}
            EntryType::Directory => {
                self.skip_data(size);
                return Ok(());
            }
            EntryType::Symlink | EntryType::Link => {
                let path = normalise_path(&path_bytes, &raw_path)?;
                let target = names
                    .link
                    .or_else(|| header.link_name_bytes().map(|t| t.into_owned()))
                    .unwrap_or_default();
                let target = link_target(&path, &target, kind == EntryType::Link);
                self.ready.push(Entry::Link { path, target });
                self.skip_data(size);
                return Ok(());
            }
            other => {
                return Err(ArchiveError::UnsupportedEntry {
                    entry: raw_path,
                    kind: entry_kind_name(other),
                })
            }
        }
        let path = normalise_path(&path_bytes, &raw_path)?;
        if is_apple_double(&path) {
            self.skip_data(size);
            return Ok(());
        }
        self.counts.admit(&self.limits, &path, size, &raw_path)?;
        if !is_source(&path) || size >= self.stream_from {
            self.ready.push(Entry::MediaStart { path, size });
            self.part = Part::Media {
                left: size,
                padding: padding(size),
            };
            if size == 0 {
                self.part = Part::Header;
                self.ready.push(Entry::MediaEnd);
            }
            return Ok(());
        }
        // `size` is bounded by max_file_bytes, so it fits and the capacity is trusted that far.
        let size = usize::try_from(size).map_err(|_| ArchiveError::FileTooLarge {
            entry: raw_path,
            limit: self.limits.max_file_bytes,
        })?;
        self.buf.reserve_exact(size);
        self.part = Part::File { path, size };
        if size == 0 {
            self.complete_part()?;
        }
        Ok(())
    }

    fn skip_data(&mut self, size: u64) {
        self.part = Part::Header;
        self.skip = size.saturating_add(padding(size));
    }
}

impl Write for TarSink {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if self.failed.is_some() {
            return Err(io::Error::other("archive already refused"));
        }
        if !matches!(self.part, Part::Ended) {
            if data.len() as u64 > self.budget {
                let err = ArchiveError::SiteTooLarge {
                    limit: self.limits.max_site_bytes,
                };
                return Err(self.fail(err));
            }
            self.budget -= data.len() as u64;
        }
        match self.consume(data) {
            Ok(()) => Ok(data.len()),
            Err(err) => Err(self.fail(err)),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Zero bytes after `size` bytes of data up to the next 512-byte block.
fn padding(size: u64) -> u64 {
    size.next_multiple_of(BLOCK as u64) - size
}

/// The header checksum: the unsigned sum of the block with the checksum field read as spaces.
fn checksum_matches(block: &[u8]) -> bool {
    let Some(field) = block.get(148..156) else {
        return false;
    };
    let text: String = field
        .iter()
        .take_while(|&&b| b != 0)
        .map(|&b| b as char)
        .collect();
    let Ok(stored) = u32::from_str_radix(text.trim(), 8) else {
        return false;
    };
    let sum: u32 = block
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if (148..156).contains(&i) {
                u32::from(b' ')
            } else {
                u32::from(b)
            }
        })
        .sum();
    sum == stored
}

/// The tree of a `.tar.gz` read `piece` bytes at a time through the unpacker and the packs (media
/// packs and media objects included), for tests holding it to [`super::archive::read_docs_archive`].
#[cfg(test)]
pub(crate) fn read_in_pieces(
    gz: &[u8],
    limits: &ArchiveLimits,
    piece: usize,
) -> Result<super::SourceTree, ArchiveError> {
    use super::packed::{MediaRead, PackRead};
    use crate::publish::{SourceWriter, Stored};
    use std::collections::BTreeMap;
    let mut writer = SourceWriter::new(limits);
    let mut stored = Vec::new();
    let unwrap = |r: Result<Vec<Stored>, crate::publish::PublishError>| match r {
        Ok(v) => Ok(v),
        Err(crate::publish::PublishError::Archive(e)) => Err(e),
        Err(e) => panic!("{e}"),
    };
    for chunk in gz.chunks(piece.max(1)) {
        stored.extend(unwrap(writer.push(chunk))?);
    }
    let (last, table, _) = match writer.finish() {
        Ok(done) => done,
        Err(crate::publish::PublishError::Archive(e)) => return Err(e),
        Err(e) => panic!("{e}"),
    };
    stored.extend(last);
    let (mut packs, mut media, mut objects) = (BTreeMap::new(), BTreeMap::new(), BTreeMap::new());
    let mut open: Option<String> = None;
    for s in stored {
        match s {
            Stored::Pack(p) if p.media => drop(media.insert(p.index, p.bytes)),
            Stored::Pack(p) => drop(packs.insert(p.index, p.bytes)),
            Stored::ObjectStart { name, .. } => {
                objects.insert(name.clone(), Vec::new());
                open = Some(name);
            }
            Stored::ObjectData(d) => objects
                .get_mut(open.as_ref().unwrap())
                .unwrap()
                .extend_from_slice(&d),
            Stored::ObjectEnd => open = None,
        }
    }
    let paths: Vec<String> = table.files().iter().map(|f| f.path.clone()).collect();
    let reads: Vec<(PackRead, Vec<u8>)> = table
        .reads_for(&paths)
        .into_iter()
        .map(|r| (r, packs[&r.pack][r.start as usize..r.end as usize].to_vec()))
        .collect();
    let mut tree = table.tree_from(&paths, &reads);
    for path in &paths {
        match table.media_read(path) {
            Some(MediaRead::Pack { pack, start, len }) => {
                tree.insert(
                    path.clone(),
                    media[&pack][start as usize..(start + len) as usize].to_vec(),
                );
            }
            Some(MediaRead::Object(name)) => {
                drop(tree.insert(path.clone(), objects[&name].clone()))
            }
            Some(MediaRead::SiteFile(_)) => unreachable!("an upload has no site files"),
            None => {}
        }
    }
    Ok(tree)
}
