//! The bundle as a stream of gzip members: each batch of files is one member holding its tar
//! entries, and a final member holds tar's end-of-archive blocks. Concatenated gzip members are one
//! valid (multi-member) gzip stream and concatenated entries one tar, so the caller appends batches
//! as they are rendered without ever recompressing. Headers carry fixed owner, mode and the given
//! mtime, and gzip headers no time or name: the same files give the same bytes.

use std::io::Write;

use flate2::Compression;
use tar::{EntryType, Header};

use crate::gzip::GzipWriter;

use crate::export::render::links::is_safe_path;
use crate::export::ExportFile;

/// Tar's unit: headers and file data fill whole blocks.
const BLOCK: usize = 512;
/// Size of tar's end-of-archive marker: two zero blocks.
const TRAILER_LEN: usize = 2 * BLOCK;
/// On exported pages (compact sidebars), level 3 packs in 0.38× the time of level 6 for 5% more
/// bytes (level 1 is 70% larger): compression is the largest CPU cost of an export batch. Members
/// of 100 pages (the worker's batch) come within 0.5% of one stream (docs/architecture/export.mdx,
/// "Gzip members").
const GZIP_LEVEL: u32 = 3;

/// Tar entries of `files`, without the end-of-archive blocks, as one gzip member. Files whose path
/// is not a safe relative path are left out (the plan never produces one). The entries stream into
/// the compressor: no uncompressed copy of the batch is made.
pub fn tar_gz_member(files: &[ExportFile], mtime: u64) -> Vec<u8> {
    let mut gzip = encoder();
    for file in files {
        write_entry(&mut gzip, file, mtime);
    }
    gzip.finish().unwrap_or_default()
}

fn write_entry(gzip: &mut GzipWriter, file: &ExportFile, mtime: u64) {
    let size = file.bytes.len() as u64;
    let Some(header) = entry_header(&file.path, size, mtime) else {
        return;
    };
    // Writing into memory cannot fail.
    let _ = gzip.write_all(&header);
    let _ = gzip.write_all(&file.bytes);
    let _ = gzip.write_all(&[0; BLOCK][..padding(size)]);
}

/// Tar entries as two gzip members split at the entry `gap`, whose data is too large to hold and
/// comes between them as [`TarGzEntryMembers`] of `gap_size` bytes: the first member ends with `gap`'s
/// header, the second starts with the entry after it. Files are added in path order, each written
/// (and dropped) as it comes; one named `gap` is left out.
pub struct TarGzAround {
    before: GzipWriter,
    after: GzipWriter,
    gap: String,
    gap_size: u64,
    mtime: u64,
}

impl TarGzAround {
    pub fn new(gap: &str, gap_size: u64, mtime: u64) -> Self {
        TarGzAround {
            before: encoder(),
            after: encoder(),
            gap: gap.to_owned(),
            gap_size,
            mtime,
        }
    }

    pub fn add(&mut self, file: &ExportFile) {
        match file.path.cmp(&self.gap) {
            std::cmp::Ordering::Less => write_entry(&mut self.before, file, self.mtime),
            std::cmp::Ordering::Equal => {}
            std::cmp::Ordering::Greater => write_entry(&mut self.after, file, self.mtime),
        }
    }

    /// The member before the gap's data and the one after it.
    pub fn finish(mut self) -> (Vec<u8>, Vec<u8>) {
        if let Some(header) = entry_header(&self.gap, self.gap_size, self.mtime) {
            // Writing into memory cannot fail.
            let _ = self.before.write_all(&header);
        }
        (
            self.before.finish().unwrap_or_default(),
            self.after.finish().unwrap_or_default(),
        )
    }
}

/// The data of one tar entry as consecutive gzip members, each compressed where its data was made
/// ([`gzip`]: a batch of pages compresses its share of `llms-full.txt` as it renders them, and a
/// batch taken unchanged brings its member along), taken out as they come, so neither the data nor
/// its compressed form is ever held whole and nothing is compressed twice. Its header goes before
/// it ([`TarGzAround`]); [`TarGzEntryMembers::finish`] adds the block padding.
#[derive(Default)]
pub struct TarGzEntryMembers {
    ready: Vec<u8>,
    written: u64,
}

impl TarGzEntryMembers {
    /// Appends `member`, the gzip member of `len` bytes of data.
    pub fn add(&mut self, member: &[u8], len: u64) {
        self.ready.extend_from_slice(member);
        self.written += len;
    }

    /// Bytes of data added so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Compressed bytes ready to take.
    pub fn ready(&self) -> usize {
        self.ready.len()
    }

    /// The compressed bytes so far: the entry continues where they end.
    pub fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.ready)
    }

    /// The rest of the entry: what was not taken, then the padding as a member of its own.
    pub fn finish(mut self) -> Vec<u8> {
        let padding = padding(self.written);
        if padding > 0 {
            self.ready.extend(gzip(&[0; BLOCK][..padding]));
        }
        self.ready
    }
}

/// One piece of a tar entry of `size` bytes at `path` as its own gzip member: the entry's header
/// when the piece starts the file (`offset` 0), the piece's bytes, and the block padding when it
/// ends it. A file too large to hold goes into the bundle as consecutive pieces, each member made
/// from its piece alone; the members concatenate into the same tar as one [`tar_gz_member`] of the
/// whole file. `None` when the path is not a safe relative path or the piece lies outside the file.
pub fn tar_gz_entry_piece(
    path: &str,
    size: u64,
    mtime: u64,
    offset: u64,
    piece: &[u8],
) -> Option<Vec<u8>> {
    let end = offset
        .checked_add(piece.len() as u64)
        .filter(|&end| end <= size)?;
    let mut raw = Vec::with_capacity(piece.len() + 2 * BLOCK);
    if offset == 0 {
        raw.extend_from_slice(&entry_header(path, size, mtime)?);
    } else if !is_safe_path(path) {
        return None;
    }
    raw.extend_from_slice(piece);
    if end == size {
        raw.resize(raw.len() + padding(size), 0);
    }
    Some(gzip(&raw))
}

/// The header blocks of a regular file (a GNU long-name entry first for long paths), with fixed
/// owner and mode; `None` for a path that is not a safe relative path.
fn entry_header(path: &str, size: u64, mtime: u64) -> Option<Vec<u8>> {
    if !is_safe_path(path) {
        return None;
    }
    let mut header = Header::new_gnu();
    header.set_entry_type(EntryType::Regular);
    header.set_mode(0o644);
    header.set_uid(0);
    header.set_gid(0);
    header.set_mtime(mtime);
    header.set_size(size);
    let mut builder = tar::Builder::new(Vec::new());
    builder.mode(tar::HeaderMode::Deterministic);
    // No data follows: the builder writes the header (and any long-name entry) only; the caller
    // writes the data and its padding. Writing into a Vec cannot fail otherwise.
    builder
        .append_data(&mut header, path, std::io::empty())
        .ok()?;
    let mut raw = builder.into_inner().ok()?;
    // `into_inner` finishes the archive with the two zero blocks; only the trailer member has them.
    raw.truncate(raw.len().saturating_sub(TRAILER_LEN));
    Some(raw)
}

/// Zero bytes that round a file of `size` bytes up to whole tar blocks.
fn padding(size: u64) -> usize {
    ((BLOCK as u64 - size % BLOCK as u64) % BLOCK as u64) as usize
}

/// The end-of-archive blocks as the last gzip member.
pub fn tar_gz_trailer() -> Vec<u8> {
    gzip(&[0u8; TRAILER_LEN])
}

/// `raw` as one gzip member, compressed as the bundle's members are.
pub(crate) fn gzip(raw: &[u8]) -> Vec<u8> {
    let mut encoder = encoder();
    let _ = encoder.write_all(raw);
    encoder.finish().unwrap_or_default()
}

fn encoder() -> GzipWriter {
    // Its header has mtime 0 and no file name: nothing in it varies between runs.
    GzipWriter::new(Compression::new(GZIP_LEVEL))
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use flate2::read::MultiGzDecoder;

    use super::*;

    fn files(names: &[(&str, &str)]) -> Vec<ExportFile> {
        names
            .iter()
            .map(|(p, d)| ExportFile::new(p.to_string(), d.to_string()))
            .collect()
    }

    fn bundle() -> Vec<u8> {
        let long = format!("{}/page.html", "deep".repeat(40));
        let mut out = tar_gz_member(
            &files(&[("index.html", "<p>home</p>"), ("a/b.html", "b")]),
            1_700_000_000,
        );
        out.extend(tar_gz_member(
            &files(&[(long.as_str(), "long"), ("../evil", "x")]),
            1_700_000_000,
        ));
        out.extend(tar_gz_member(&[], 1_700_000_000));
        out.extend(tar_gz_trailer());
        out
    }

    #[test]
    fn members_concatenate_into_one_tar_gz_readable_by_the_tar_crate() {
        let gz = bundle();
        let mut archive = tar::Archive::new(MultiGzDecoder::new(gz.as_slice()));
        let mut seen = Vec::new();
        for entry in archive.entries().unwrap() {
            let mut entry = entry.unwrap();
            let path = entry.path().unwrap().to_string_lossy().into_owned();
            assert_eq!(entry.header().mtime().unwrap(), 1_700_000_000);
            let mut data = String::new();
            entry.read_to_string(&mut data).unwrap();
            seen.push((path, data));
        }
        assert_eq!(seen.len(), 3, "{seen:?}");
        assert_eq!(seen[0], ("index.html".into(), "<p>home</p>".into()));
        assert!(seen[2].0.ends_with("deep/page.html"));
        // The end: exactly the two zero blocks after the last entry.
        let mut raw = Vec::new();
        MultiGzDecoder::new(gz.as_slice())
            .read_to_end(&mut raw)
            .unwrap();
        assert!(raw.ends_with(&[0u8; 1024]));
        assert_eq!(raw.len() % 512, 0);
    }

    #[test]
    fn pieces_of_an_entry_concatenate_into_the_same_tar_as_the_whole_file() {
        let long = format!("{}/terms.bin", "deep".repeat(40));
        for (path, size) in [
            ("_docs-edge/search/terms.bin", 5000usize),
            (long.as_str(), 1024),
            ("a", 0),
            ("b", 513),
        ] {
            let data: Vec<u8> = (0..size).map(|i| (i * 7 % 251) as u8).collect();
            let whole = ExportFile {
                path: path.to_string(),
                bytes: data.clone(),
            };
            for piece_len in [1usize, 100, 512, 4096, size.max(1)] {
                let mut pieced = Vec::new();
                let mut offset = 0;
                loop {
                    let end = (offset + piece_len).min(size);
                    pieced.extend(
                        tar_gz_entry_piece(path, size as u64, 7, offset as u64, &data[offset..end])
                            .unwrap(),
                    );
                    offset = end;
                    if offset == size {
                        break;
                    }
                }
                let unzip = |gz: &[u8]| {
                    let mut raw = Vec::new();
                    MultiGzDecoder::new(gz).read_to_end(&mut raw).unwrap();
                    raw
                };
                assert_eq!(
                    unzip(&pieced),
                    unzip(&tar_gz_member(std::slice::from_ref(&whole), 7)),
                    "{path} in pieces of {piece_len}"
                );
            }
        }
        assert!(tar_gz_entry_piece("../evil", 3, 7, 0, b"abc").is_none());
        assert!(
            tar_gz_entry_piece("a", 3, 7, 2, b"bc").is_none(),
            "past the end"
        );
    }

    #[test]
    fn same_files_same_bytes() {
        assert_eq!(bundle(), bundle());
    }

    #[test]
    fn system_tar_lists_and_extracts_the_bundle() {
        let dir = std::env::temp_dir().join(format!("export-tar-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bundle.tar.gz");
        std::fs::write(&path, bundle()).unwrap();
        let list = std::process::Command::new("tar")
            .arg("-tzf")
            .arg(&path)
            .output();
        let Ok(list) = list else {
            eprintln!("no system tar; skipped");
            return;
        };
        assert!(
            list.status.success(),
            "{}",
            String::from_utf8_lossy(&list.stderr)
        );
        let names = String::from_utf8_lossy(&list.stdout);
        assert!(names.lines().any(|l| l == "a/b.html"), "{names}");
        let out = dir.join("out");
        std::fs::create_dir_all(&out).unwrap();
        let status = std::process::Command::new("tar")
            .arg("-xzf")
            .arg(&path)
            .arg("-C")
            .arg(&out)
            .status()
            .unwrap();
        assert!(status.success());
        assert_eq!(std::fs::read_to_string(out.join("a/b.html")).unwrap(), "b");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
