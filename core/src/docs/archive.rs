//! Reading an uploaded `.tar.gz` of a docs folder into memory, refusing anything that could escape the
//! folder or exhaust the worker's memory.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Read};

use flate2::Compression;
use tar::{Archive, EntryType, Header, PaxExtensions};

use crate::gzip::{GunzipReader, GzipWriter};

/// Files of the docs folder by normalised path (`es/quickstart.mdx`, `docs.json`).
pub type SourceTree = BTreeMap<String, Vec<u8>>;

/// Largest GNU long-name/long-link or PAX record read: real ones hold one path and a few attributes.
/// The tar crate would read them whole, outside every per-file limit, so they are read here instead.
pub const MAX_EXTENSION_BYTES: u64 = 64 * 1024;
/// Longest entry path, in bytes.
pub const MAX_PATH_BYTES: usize = 1024;

/// Upper bounds for one upload. Source files ([`super::file_kind::is_source`]: pages, snippets,
/// configuration, OpenAPI documents) are what a publish parses and holds a batch of at a time; media
/// (images, video, PDFs) are streamed into storage and never held whole, so they have their own, far
/// larger bounds. docs/operate/limits.mdx derives the worker's defaults from the pipeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveLimits {
    pub max_files: usize,
    /// Sum of the source files' sizes.
    pub max_total_bytes: u64,
    /// Largest source file.
    pub max_file_bytes: u64,
    /// Largest media file.
    pub max_media_file_bytes: u64,
    /// Sum of every file's size, media included.
    pub max_site_bytes: u64,
}

impl Default for ArchiveLimits {
    fn default() -> Self {
        Self {
            max_files: 20_000,
            max_total_bytes: 9 * 1024 * 1024,
            max_file_bytes: 9 * 1024 * 1024,
            max_media_file_bytes: 25 * 1024 * 1024,
            max_site_bytes: 1 << 30,
        }
    }
}

impl ArchiveLimits {
    /// Inflated bytes a reader may go through: every file, plus headers and padding (up to ~1.5 KB
    /// per entry), so a gzip bomb stops at the budget.
    pub(crate) fn stream_budget(&self) -> u64 {
        self.max_site_bytes
            .saturating_add((self.max_files as u64).saturating_mul(1536))
            .saturating_add(64 * 1024)
    }
}

/// What an upload has counted so far against its [`ArchiveLimits`]; both readers admit each file
/// through [`FileCounts::admit`], so they refuse the same archives.
#[derive(Debug, Default)]
pub struct FileCounts {
    files: usize,
    source_bytes: u64,
    site_bytes: u64,
}

impl FileCounts {
    /// Counts a regular file of `size` bytes at `path`; `raw` names it in errors.
    pub fn admit(
        &mut self,
        limits: &ArchiveLimits,
        path: &str,
        size: u64,
        raw: &str,
    ) -> Result<(), ArchiveError> {
        self.files += 1;
        if self.files > limits.max_files {
            return Err(ArchiveError::TooManyFiles {
                limit: limits.max_files,
            });
        }
        let source = super::file_kind::is_source(path);
        let file_limit = if source {
            limits.max_file_bytes
        } else {
            limits.max_media_file_bytes
        };
        if size > file_limit {
            return Err(ArchiveError::FileTooLarge {
                entry: raw.to_owned(),
                limit: file_limit,
            });
        }
        if source {
            self.source_bytes = self.source_bytes.saturating_add(size);
            if self.source_bytes > limits.max_total_bytes {
                return Err(ArchiveError::TooLarge {
                    limit: limits.max_total_bytes,
                });
            }
        }
        self.site_bytes = self.site_bytes.saturating_add(size);
        if self.site_bytes > limits.max_site_bytes {
            return Err(ArchiveError::SiteTooLarge {
                limit: limits.max_site_bytes,
            });
        }
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ArchiveError {
    NotGzip,
    /// The gzip or tar stream is broken; `entry` is the last entry reached, if any.
    Corrupt {
        entry: Option<String>,
        reason: String,
    },
    PathTraversal {
        entry: String,
    },
    AbsolutePath {
        entry: String,
    },
    BadPath {
        entry: String,
        reason: &'static str,
    },
    /// Symlinks, hardlinks, devices, fifos and other non-file entries.
    UnsupportedEntry {
        entry: String,
        kind: &'static str,
    },
    TooManyFiles {
        limit: usize,
    },
    FileTooLarge {
        entry: String,
        limit: u64,
    },
    TooLarge {
        limit: u64,
    },
    /// A GNU long-name/long-link or PAX record over [`MAX_EXTENSION_BYTES`]; `after` is the last
    /// entry read before it.
    ExtensionTooLarge {
        after: Option<String>,
        limit: u64,
    },
    MissingDocsJson,
    /// Every file together, media included, is over [`ArchiveLimits::max_site_bytes`].
    SiteTooLarge {
        limit: u64,
    },
}

impl fmt::Display for ArchiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotGzip => f.write_str("archive is not gzip-compressed (expected a .tar.gz)"),
            Self::Corrupt {
                entry: Some(entry),
                reason,
            } => {
                write!(f, "corrupt archive after entry `{entry}`: {reason}")
            }
            Self::Corrupt {
                entry: None,
                reason,
            } => write!(f, "corrupt archive: {reason}"),
            Self::PathTraversal { entry } => write!(f, "entry `{entry}`: path contains `..`"),
            Self::AbsolutePath { entry } => write!(f, "entry `{entry}`: absolute path"),
            Self::BadPath { entry, reason } => write!(f, "entry `{entry}`: {reason}"),
            Self::UnsupportedEntry { entry, kind } => {
                write!(f, "entry `{entry}`: {kind} entries are not allowed")
            }
            Self::TooManyFiles { limit } => write!(f, "archive has more than {limit} files"),
            Self::FileTooLarge { entry, limit } => {
                write!(f, "entry `{entry}`: larger than {limit} bytes")
            }
            Self::TooLarge { limit } => {
                write!(f, "the site's source files (pages, snippets, configuration, OpenAPI documents) expand to more than {limit} bytes")
            }
            Self::ExtensionTooLarge { after, limit } => {
                write!(
                    f,
                    "a long-name or PAX header record is larger than {limit} bytes"
                )?;
                match after {
                    Some(entry) => write!(f, " (after entry `{entry}`)"),
                    None => Ok(()),
                }
            }
            Self::MissingDocsJson => {
                f.write_str("archive has no docs.json (or legacy mint.json) at its root")
            }
            Self::SiteTooLarge { limit } => write!(
                f,
                "the site's files, media included, add up to more than {limit} bytes"
            ),
        }
    }
}

impl std::error::Error for ArchiveError {}

/// Counts inflated bytes and fails once the budget is spent, so a gzip bomb stops at the budget
/// instead of being inflated whole (the tar reader skips unread entry data by reading through it).
struct BudgetReader<'a, R> {
    inner: R,
    remaining: u64,
    tripped: &'a Cell<bool>,
}

impl<R: Read> Read for BudgetReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.remaining == 0 {
            self.tripped.set(true);
            return Err(io::Error::other("decompressed size budget exceeded"));
        }
        let cap = usize::try_from(self.remaining)
            .unwrap_or(usize::MAX)
            .min(buf.len());
        let n = self.inner.read(&mut buf[..cap])?;
        self.remaining -= n as u64;
        Ok(n)
    }
}

/// Reads a docs folder from a `.tar.gz`. Directories are skipped, `./` prefixes dropped, and a single
/// top folder holding docs.json (`mydocs/docs.json`) is stripped. Links inside the folder are
/// followed once ([`link_aliases`]); `warnings` gets those that are not.
pub fn read_docs_archive(gz: &[u8], limits: &ArchiveLimits) -> Result<SourceTree, ArchiveError> {
    read_docs_archive_warning(gz, limits, &mut Vec::new())
}

pub fn read_docs_archive_warning(
    gz: &[u8],
    limits: &ArchiveLimits,
    warnings: &mut Vec<String>,
) -> Result<SourceTree, ArchiveError> {
    if !gz.starts_with(&[0x1f, 0x8b]) {
        return Err(ArchiveError::NotGzip);
    }
    let mut tree = SourceTree::new();
    let mut links = Vec::new();
    walk_archive(gz, limits, Some(&mut links), |path, data, size| {
        // `size` is bounded by the file limits, so the capacity is trusted only that far.
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        data.read_to_end(&mut bytes)?;
        tree.insert(path.to_owned(), bytes);
        Ok::<(), ArchiveError>(())
    })?;
    let paths: Vec<&str> = tree.keys().map(String::as_str).collect();
    let aliases = link_aliases(&paths, &links, warnings);
    for (link, target) in aliases {
        if let Some(bytes) = tree.get(&target).cloned() {
            tree.insert(link, bytes);
        }
    }
    let tree = strip_single_top_folder(tree);
    if !has_config(tree.keys().map(String::as_str)) {
        return Err(ArchiveError::MissingDocsJson);
    }
    Ok(tree)
}

/// The site configurations a docs folder may hold at its root: docs.json, or Mintlify's legacy mint.json.
pub const CONFIG_FILES: [&str; 2] = ["docs.json", "mint.json"];

/// Whether `paths` hold a site configuration at the root.
pub fn has_config<'a>(mut paths: impl Iterator<Item = &'a str>) -> bool {
    paths.any(|p| CONFIG_FILES.contains(&p))
}

/// A link entry of an archive: its normalised path, and its target as a path inside the folder
/// (`None`: it points outside, and is never read).
pub type LinkEntry = (String, Option<String>);

/// The files a link stands for, as `(path under the link, file it copies)`: a link to a file is that
/// file, a link to a folder is every file under it. Followed once: a link to another link, to
/// nothing, or out of the folder is a warning (`path: symbolic link to … …`), never a failure.
/// `files` must be sorted.
pub fn link_aliases(
    files: &[&str],
    links: &[LinkEntry],
    warnings: &mut Vec<String>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let is_link = |p: &str| links.iter().any(|(l, _)| l == p);
    for (path, target) in links {
        let Some(target) = target else {
            warnings.push(format!(
                "{path}: symbolic link points outside the docs folder; not read"
            ));
            continue;
        };
        if is_link(target) {
            warnings.push(format!(
                "{path}: symbolic link to `{target}`, itself a link; links are followed once"
            ));
            continue;
        }
        if files.binary_search(&target.as_str()).is_ok() {
            out.push((path.clone(), target.clone()));
            continue;
        }
        let prefix = format!("{target}/");
        let start = files.partition_point(|f| *f < prefix.as_str());
        let under: Vec<&str> = files[start..]
            .iter()
            .take_while(|f| f.starts_with(&prefix))
            .copied()
            .collect();
        if under.is_empty() {
            warnings.push(format!(
                "{path}: symbolic link to `{target}`, which is not in the docs folder; not read"
            ));
            continue;
        }
        for file in under {
            out.push((format!("{path}/{}", &file[prefix.len()..]), file.to_owned()));
        }
    }
    out
}

/// A link's target as a path inside the folder, from the link's own path; `None` if it is absolute
/// or climbs out. Hard links name their target from the archive's root, symbolic links from the
/// link's folder.
pub(crate) fn link_target(link: &str, target: &[u8], hard: bool) -> Option<String> {
    let target = std::str::from_utf8(target).ok()?.trim_end_matches('\0');
    if target.is_empty() || target.starts_with('/') || target.contains('\\') {
        return None;
    }
    join_relative(if hard { "" } else { link }, target).filter(|path| !path.is_empty())
}

/// Walks a (possibly multi-member) `.tar.gz` stream with the upload rules: no traversal, absolute or
/// non-UTF-8 paths, no links or special entries, at most `limits` files and bytes, inflation capped
/// so a gzip bomb stops at the budget. `on_file` gets each regular file's normalised path and data
/// (at most its declared size). Uploads read into memory with it; `docs-edge-serve` unpacks bundles
/// to disk with it, reading straight from the downloaded file.
pub fn for_each_archive_file<R, E>(
    gz: R,
    limits: &ArchiveLimits,
    on_file: impl FnMut(&str, &mut dyn Read, u64) -> Result<(), E>,
) -> Result<(), E>
where
    R: Read,
    E: From<ArchiveError> + From<io::Error>,
{
    walk_archive(gz, limits, None, on_file)
}

/// [`for_each_archive_file`], with links collected into `links` when given (else refused).
fn walk_archive<R, E>(
    gz: R,
    limits: &ArchiveLimits,
    mut links: Option<&mut Vec<LinkEntry>>,
    mut on_file: impl FnMut(&str, &mut dyn Read, u64) -> Result<(), E>,
) -> Result<(), E>
where
    R: Read,
    E: From<ArchiveError> + From<io::Error>,
{
    let tripped = Cell::new(false);
    let stream_budget = limits.stream_budget();
    let reader = BudgetReader {
        inner: GunzipReader::new(gz),
        remaining: stream_budget,
        tripped: &tripped,
    };
    let mut archive = Archive::new(reader);
    let mut counts = FileCounts::default();
    let mut last: Option<String> = None;

    let corrupt = |err: io::Error, last: &Option<String>| {
        if tripped.get() {
            ArchiveError::SiteTooLarge {
                limit: limits.max_site_bytes,
            }
        } else {
            ArchiveError::Corrupt {
                entry: last.clone(),
                reason: err.to_string(),
            }
        }
    };

    // Raw entries: long names and PAX records come through as entries, read here with a bound.
    let entries = archive.entries().map_err(|e| corrupt(e, &last))?.raw(true);
    let mut pending = PendingNames::default();
    for entry in entries {
        let mut entry = entry.map_err(|e| corrupt(e, &last))?;
        let kind = entry.header().entry_type();
        if is_extension(kind) {
            let size = entry.size();
            if size > MAX_EXTENSION_BYTES {
                return Err(ArchiveError::ExtensionTooLarge {
                    after: last.clone(),
                    limit: MAX_EXTENSION_BYTES,
                }
                .into());
            }
            let mut record = Vec::with_capacity(size as usize);
            (&mut entry)
                .take(size)
                .read_to_end(&mut record)
                .map_err(|e| corrupt(e, &last))?;
            pending
                .absorb(kind, record)
                .map_err(|reason| ArchiveError::Corrupt {
                    entry: last.clone(),
                    reason,
                })?;
            continue;
        }
        let names = std::mem::take(&mut pending);
        if names.size.is_some_and(|size| size != entry.size()) {
            return Err(ArchiveError::Corrupt {
                entry: last.clone(),
                reason: "a PAX size record disagrees with the entry's header".into(),
            }
            .into());
        }
        let path_bytes = names
            .path
            .unwrap_or_else(|| entry.path_bytes().into_owned());
        let raw_path = display_path(&path_bytes);
        last = Some(raw_path.clone());
        if path_bytes.len() > MAX_PATH_BYTES {
            return Err(ArchiveError::BadPath {
                entry: raw_path,
                reason: "path is longer than 1024 bytes",
            }
            .into());
        }
        match (kind, links.as_deref_mut()) {
            (EntryType::Regular | EntryType::Continuous, _) => {}
            (EntryType::Directory, _) => continue,
            (EntryType::Symlink | EntryType::Link, Some(links)) => {
                let path = normalise_path(&path_bytes, &raw_path)?;
                let target = names
                    .link
                    .or_else(|| entry.link_name_bytes().map(|t| t.into_owned()))
                    .unwrap_or_default();
                links.push((
                    path.clone(),
                    link_target(&path, &target, kind == EntryType::Link),
                ));
                continue;
            }
            (other, _) => {
                return Err(ArchiveError::UnsupportedEntry {
                    entry: raw_path,
                    kind: entry_kind_name(other),
                }
                .into())
            }
        }
        let path = normalise_path(&path_bytes, &raw_path)?;
        if is_apple_double(&path) {
            // macOS tar adds `._name` resource-fork companions; they are never docs.
            continue;
        }
        let size = entry.size();
        counts.admit(limits, &path, size, &raw_path)?;
        let mut data = ReadErrors {
            inner: (&mut entry).take(size),
            failed: None,
        };
        let result = on_file(&path, &mut data, size);
        // A read error inside `on_file` is the archive's fault: report it as such.
        if let Some(err) = data.failed {
            return Err(corrupt(err, &last).into());
        }
        result?;
    }
    Ok(())
}

pub(crate) fn is_extension(kind: EntryType) -> bool {
    kind.is_gnu_longname()
        || kind.is_gnu_longlink()
        || kind.is_pax_local_extensions()
        || kind.is_pax_global_extensions()
}

/// What the extension records before an entry say about it: a GNU long name or a PAX `path` (PAX
/// wins, as in the tar crate), and a PAX `size`, which must agree with the header since raw entries
/// are framed by the header's size.
#[derive(Default)]
pub(crate) struct PendingNames {
    pub(crate) path: Option<Vec<u8>>,
    /// A GNU long link name or PAX `linkpath`: a link's target.
    pub(crate) link: Option<Vec<u8>>,
    pub(crate) size: Option<u64>,
}

impl PendingNames {
    pub(crate) fn absorb(&mut self, kind: EntryType, record: Vec<u8>) -> Result<(), String> {
        if kind.is_gnu_longname() {
            let mut name = record;
            while name.last() == Some(&0) {
                name.pop();
            }
            if self.path.is_none() {
                self.path = Some(name);
            }
        } else if kind.is_gnu_longlink() {
            let mut name = record;
            while name.last() == Some(&0) {
                name.pop();
            }
            if self.link.is_none() {
                self.link = Some(name);
            }
        } else if kind.is_pax_local_extensions() {
            for extension in PaxExtensions::new(&record) {
                let extension = extension.map_err(|e| format!("bad PAX record: {e}"))?;
                match extension.key() {
                    Ok("path") => self.path = Some(extension.value_bytes().to_vec()),
                    Ok("linkpath") => self.link = Some(extension.value_bytes().to_vec()),
                    Ok("size") => {
                        let size = extension.value().ok().and_then(|v| v.parse().ok());
                        self.size = Some(size.ok_or("bad PAX size record")?);
                    }
                    _ => {}
                }
            }
        }
        // Global records say nothing this reader uses.
        Ok(())
    }
}

/// An entry path for messages: lossy UTF-8, cut short so a long name cannot bloat an error.
pub(crate) fn display_path(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned();
    if bytes.len() > 200 {
        format!("{text}…")
    } else {
        text
    }
}

/// Remembers a read error of the entry data, so an `on_file` failure caused by the archive (a
/// truncated stream, the inflation budget) is told apart from one of its own (a full disk).
struct ReadErrors<R> {
    inner: R,
    failed: Option<io::Error>,
}

impl<R: Read> Read for ReadErrors<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).inspect_err(|err| {
            self.failed = Some(io::Error::new(err.kind(), err.to_string()));
        })
    }
}

impl From<io::Error> for ArchiveError {
    fn from(err: io::Error) -> Self {
        ArchiveError::Corrupt {
            entry: None,
            reason: err.to_string(),
        }
    }
}

pub(crate) fn entry_kind_name(kind: EntryType) -> &'static str {
    match kind {
        EntryType::Symlink => "symlink",
        EntryType::Link => "hardlink",
        EntryType::Char => "character device",
        EntryType::Block => "block device",
        EntryType::Fifo => "fifo",
        EntryType::GNUSparse => "sparse file",
        _ => "special",
    }
}

pub fn normalise_path(bytes: &[u8], raw: &str) -> Result<String, ArchiveError> {
    let bad = |reason| ArchiveError::BadPath {
        entry: raw.to_owned(),
        reason,
    };
    let path = std::str::from_utf8(bytes).map_err(|_| bad("path is not UTF-8"))?;
    if path.starts_with('/') || path.as_bytes().get(1) == Some(&b':') {
        return Err(ArchiveError::AbsolutePath {
            entry: raw.to_owned(),
        });
    }
    // A backslash would be a separator on Windows tooling and a name character here: refuse both readings.
    if path.contains('\\') {
        return Err(bad("path contains a backslash"));
    }
    let mut out = String::with_capacity(path.len());
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                return Err(ArchiveError::PathTraversal {
                    entry: raw.to_owned(),
                })
            }
            part => {
                if !out.is_empty() {
                    out.push('/');
                }
                out.push_str(part);
            }
        }
    }
    if out.is_empty() {
        return Err(bad("empty path"));
    }
    Ok(out)
}

pub(crate) fn is_apple_double(path: &str) -> bool {
    path.rsplit('/')
        .next()
        .is_some_and(|name| name.starts_with("._"))
}

pub(crate) fn strip_single_top_folder(tree: SourceTree) -> SourceTree {
    if has_config(tree.keys().map(String::as_str)) {
        return tree;
    }
    let Some(first) = tree.keys().next() else {
        return tree;
    };
    let Some((top, _)) = first.split_once('/') else {
        return tree;
    };
    let prefix = format!("{top}/");
    let all_inside = tree.keys().all(|path| path.starts_with(&prefix));
    if !all_inside
        || !CONFIG_FILES
            .iter()
            .any(|c| tree.contains_key(&format!("{prefix}{c}")))
    {
        return tree;
    }
    tree.into_iter()
        .map(|(path, data)| (path[prefix.len()..].to_owned(), data))
        .collect()
}

/// Packs a tree as `.tar.gz` (tests and tooling). Entries whose path tar refuses (`..`, absolute)
/// are left out, since a tree read by [`read_docs_archive`] never has them.
pub fn pack_tree(tree: &SourceTree) -> Vec<u8> {
    let mut builder = tar::Builder::new(GzipWriter::new(Compression::fast()));
    for (path, data) in tree {
        let mut header = Header::new_gnu();
        header.set_entry_type(EntryType::Regular);
        header.set_mode(0o644);
        header.set_size(data.len() as u64);
        // Writing into a Vec cannot fail; a refused path only skips that entry.
        let _ = builder.append_data(&mut header, path, data.as_slice());
    }
    match builder.into_inner() {
        Ok(encoder) => encoder.finish().unwrap_or_default(),
        Err(_) => Vec::new(),
    }
}

/// A source tree from `(path, text)` pairs, for tests.
/// Tree path of `target` relative to the folder of `file` (`/x` is from the root); `None` if it climbs
/// out. docs.json `$ref`s, snippet imports and page links all resolve with it.
pub(crate) fn join_relative(file: &str, target: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    if !target.starts_with('/') {
        parts.extend(file.split('/'));
        parts.pop();
    }
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
pub(crate) fn tree(files: &[(&str, &str)]) -> SourceTree {
    files
        .iter()
        .map(|(p, d)| (p.to_string(), d.as_bytes().to_vec()))
        .collect()
}

/// A docs folder on disk as a source tree (the fixture tests, here and in docs-edge-serve).
pub fn read_dir_tree(root: &std::path::Path) -> std::io::Result<SourceTree> {
    let mut tree = SourceTree::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(rel) = path.strip_prefix(root) {
                tree.insert(
                    rel.to_string_lossy().replace('\\', "/"),
                    std::fs::read(&path)?,
                );
            }
        }
    }
    Ok(tree)
}

/// Gzips raw bytes; tests use it to wrap hand-made tar streams.
#[cfg(test)]
pub(crate) fn gzip(raw: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = GzipWriter::new(Compression::fast());
    let _ = encoder.write_all(raw);
    encoder.finish().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tar stream written header by header, so tests can produce entries `tar::Builder` refuses.
    struct RawTar(Vec<u8>);

    impl RawTar {
        fn new() -> Self {
            Self(Vec::new())
        }

        fn entry(mut self, name: &str, kind: EntryType, data: &[u8]) -> Self {
            let mut header = Header::new_gnu();
            let field = &mut header.as_old_mut().name;
            field.fill(0);
            field[..name.len()].copy_from_slice(name.as_bytes());
            header.set_entry_type(kind);
            header.set_mode(0o644);
            header.set_size(data.len() as u64);
            if matches!(kind, EntryType::Symlink | EntryType::Link) {
                header
                    .set_link_name(std::str::from_utf8(data).unwrap())
                    .unwrap();
                header.set_size(0);
            }
            header.set_cksum();
            let size = header.size().unwrap() as usize;
            self.0.extend_from_slice(header.as_bytes());
            self.0.extend_from_slice(&data[..size]);
            self.0.resize(self.0.len().next_multiple_of(512), 0);
            self
        }

        fn file(self, name: &str, data: &str) -> Self {
            self.entry(name, EntryType::Regular, data.as_bytes())
        }

        fn gz(self) -> Vec<u8> {
            let mut raw = self.0;
            raw.extend_from_slice(&[0u8; 1024]);
            gzip(&raw)
        }
    }

    fn read(gz: &[u8]) -> Result<SourceTree, ArchiveError> {
        read_with(gz, &ArchiveLimits::default())
    }

    /// Reads with both readers, whole and in pieces of several sizes, and holds them to one answer.
    fn read_with(gz: &[u8], limits: &ArchiveLimits) -> Result<SourceTree, ArchiveError> {
        let whole = read_docs_archive(gz, limits);
        for piece in [1, 7, 512, 4096, usize::MAX] {
            let streamed = crate::docs::unpack::read_in_pieces(gz, limits, piece);
            match (&whole, &streamed) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "piece {piece}"),
                (Err(a), Err(b)) => assert_eq!(
                    std::mem::discriminant(a),
                    std::mem::discriminant(b),
                    "piece {piece}: {b:?} vs {a:?}"
                ),
                _ => panic!("piece {piece}: {streamed:?} vs {whole:?}"),
            }
        }
        whole
    }

    #[test]
    fn round_trips_a_packed_tree() {
        let src = tree(&[("docs.json", "{}"), ("a/b.mdx", "# B"), ("index.mdx", "hi")]);
        assert_eq!(read(&pack_tree(&src)).unwrap(), src);
    }

    #[test]
    fn strips_dot_slash_and_skips_directories() {
        let gz = RawTar::new()
            .entry("./", EntryType::Directory, b"")
            .entry("./guides/", EntryType::Directory, b"")
            .file("./docs.json", "{}")
            .file("./guides/a.mdx", "A")
            .gz();
        let got = read(&gz).unwrap();
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            ["docs.json", "guides/a.mdx"]
        );
    }

    #[test]
    fn strips_single_top_folder_holding_docs_json() {
        let src = tree(&[("mydocs/docs.json", "{}"), ("mydocs/es/a.mdx", "A")]);
        let got = read(&pack_tree(&src)).unwrap();
        assert_eq!(got.keys().collect::<Vec<_>>(), ["docs.json", "es/a.mdx"]);
    }

    #[test]
    fn keeps_top_folder_when_docs_json_is_not_inside_it() {
        let src = tree(&[("mydocs/other.json", "{}"), ("mydocs/a.mdx", "A")]);
        assert_eq!(read(&pack_tree(&src)), Err(ArchiveError::MissingDocsJson));
    }

    #[test]
    fn rejects_archive_without_docs_json() {
        let src = tree(&[("index.mdx", "hi")]);
        let err = read(&pack_tree(&src)).unwrap_err();
        assert_eq!(err, ArchiveError::MissingDocsJson);
        assert!(err.to_string().contains("docs.json"));
    }

    #[test]
    fn rejects_path_traversal_entry() {
        let gz = RawTar::new()
            .file("docs.json", "{}")
            .file("a/../../etc/passwd", "x")
            .gz();
        let err = read(&gz).unwrap_err();
        assert_eq!(
            err,
            ArchiveError::PathTraversal {
                entry: "a/../../etc/passwd".into()
            }
        );
        assert!(err.to_string().contains("a/../../etc/passwd"));
    }

    #[test]
    fn rejects_absolute_path_entry() {
        let gz = RawTar::new()
            .file("docs.json", "{}")
            .file("/etc/cron.d/x", "x")
            .gz();
        assert!(
            matches!(read(&gz), Err(ArchiveError::AbsolutePath { entry }) if entry == "/etc/cron.d/x")
        );
    }

    fn read_warning(gz: &[u8]) -> (SourceTree, Vec<String>) {
        let tree = read(gz).unwrap();
        let mut warnings = Vec::new();
        read_docs_archive_warning(gz, &ArchiveLimits::default(), &mut warnings).unwrap();
        (tree, warnings)
    }

    #[test]
    fn a_link_inside_the_folder_is_followed_once() {
        let gz = RawTar::new()
            .file("docs.json", "{}")
            .file("AGENTS.md", "agents")
            .entry("CLAUDE.md", EntryType::Symlink, b"AGENTS.md")
            .entry(
                "guides/intro.mdx",
                EntryType::Symlink,
                b"../pages/intro.mdx",
            )
            .file("pages/intro.mdx", "intro")
            .entry("hard.md", EntryType::Link, b"AGENTS.md")
            .entry("again.md", EntryType::Symlink, b"CLAUDE.md")
            .gz();
        let (tree, warnings) = read_warning(&gz);
        assert_eq!(tree["CLAUDE.md"], b"agents");
        assert_eq!(tree["guides/intro.mdx"], b"intro");
        assert_eq!(tree["hard.md"], b"agents");
        assert!(!tree.contains_key("again.md"));
        assert_eq!(
            warnings,
            ["again.md: symbolic link to `CLAUDE.md`, itself a link; links are followed once"]
        );
    }

    #[test]
    fn a_link_to_a_folder_shares_its_files_and_one_outside_is_never_read() {
        let gz = RawTar::new()
            .file("docs.json", "{}")
            .file("snippets/a.mdx", "A")
            .file("snippets/deep/b.mdx", "B")
            .entry(".mintlify/snippets", EntryType::Symlink, b"../snippets")
            .entry("secret.md", EntryType::Symlink, b"/etc/passwd")
            .entry("up.md", EntryType::Symlink, b"../../outside.md")
            .entry("gone.md", EntryType::Symlink, b"nothing.md")
            .gz();
        let (tree, warnings) = read_warning(&gz);
        assert_eq!(tree[".mintlify/snippets/a.mdx"], b"A");
        assert_eq!(tree[".mintlify/snippets/deep/b.mdx"], b"B");
        assert!(
            !tree.contains_key("secret.md")
                && !tree.contains_key("up.md")
                && !tree.contains_key("gone.md")
        );
        assert_eq!(
            warnings,
            [
                "secret.md: symbolic link points outside the docs folder; not read",
                "up.md: symbolic link points outside the docs folder; not read",
                "gone.md: symbolic link to `nothing.md`, which is not in the docs folder; not read",
            ]
        );
    }

    #[test]
    fn media_have_their_own_bounds_and_count_towards_the_site() {
        let png = "x".repeat(3000);
        let gz = RawTar::new()
            .file("docs.json", "{}")
            .file("a.mdx", "A")
            .file("img/big.png", &png)
            .gz();
        let limits = ArchiveLimits {
            max_total_bytes: 100,
            max_file_bytes: 100,
            ..ArchiveLimits::default()
        };
        let tree = read_with(&gz, &limits).unwrap();
        assert_eq!(tree["img/big.png"].len(), 3000);
        let limits = ArchiveLimits {
            max_media_file_bytes: 2999,
            ..ArchiveLimits::default()
        };
        assert!(matches!(
            read_with(&gz, &limits),
            Err(ArchiveError::FileTooLarge { limit: 2999, .. })
        ));
        let limits = ArchiveLimits {
            max_site_bytes: 3002,
            ..ArchiveLimits::default()
        };
        assert_eq!(
            read_with(&gz, &limits),
            Err(ArchiveError::SiteTooLarge { limit: 3002 })
        );
        // A page over the source bound is refused whatever the media bounds.
        let gz = RawTar::new()
            .file("docs.json", "{}")
            .file("a.mdx", &png)
            .gz();
        let limits = ArchiveLimits {
            max_file_bytes: 2999,
            ..ArchiveLimits::default()
        };
        assert!(matches!(
            read_with(&gz, &limits),
            Err(ArchiveError::FileTooLarge { limit: 2999, .. })
        ));
    }

    #[test]
    fn a_legacy_mint_json_site_is_a_docs_folder() {
        let src = tree(&[("site/mint.json", "{}"), ("site/a.mdx", "A")]);
        let got = read(&pack_tree(&src)).unwrap();
        assert_eq!(got.keys().collect::<Vec<_>>(), ["a.mdx", "mint.json"]);
    }

    #[test]
    fn rejects_device_and_fifo_entries() {
        for (kind, name) in [
            (EntryType::Char, "character device"),
            (EntryType::Block, "block device"),
            (EntryType::Fifo, "fifo"),
        ] {
            let gz = RawTar::new()
                .file("docs.json", "{}")
                .entry("dev", kind, b"")
                .gz();
            assert!(
                matches!(read(&gz), Err(ArchiveError::UnsupportedEntry { kind: k, .. }) if k == name),
                "{name}"
            );
        }
    }

    #[test]
    fn rejects_more_than_max_files() {
        let src = tree(&[("docs.json", "{}"), ("a.mdx", "a"), ("b.mdx", "b")]);
        let limits = ArchiveLimits {
            max_files: 2,
            ..ArchiveLimits::default()
        };
        assert_eq!(
            read_with(&pack_tree(&src), &limits),
            Err(ArchiveError::TooManyFiles { limit: 2 })
        );
    }

    #[test]
    fn rejects_file_over_max_file_bytes_by_name() {
        let src = tree(&[("docs.json", "{}"), ("big.mdx", &"x".repeat(2000))]);
        let limits = ArchiveLimits {
            max_file_bytes: 1000,
            ..ArchiveLimits::default()
        };
        let err = read_with(&pack_tree(&src), &limits).unwrap_err();
        assert!(err.to_string().contains("big.mdx"), "{err}");
    }

    #[test]
    fn rejects_more_than_max_total_bytes() {
        let src = tree(&[
            ("docs.json", "{}"),
            ("a.mdx", &"a".repeat(600)),
            ("b.mdx", &"b".repeat(600)),
        ]);
        let limits = ArchiveLimits {
            max_total_bytes: 1000,
            ..ArchiveLimits::default()
        };
        assert_eq!(
            read_with(&pack_tree(&src), &limits),
            Err(ArchiveError::TooLarge { limit: 1000 })
        );
    }

    #[test]
    fn rejects_oversized_entry_from_its_header_without_inflating_it() {
        // The header claims 1 TiB; the data is not even there, so only the header can have been read.
        let mut big = Header::new_gnu();
        big.set_path("docs.json").unwrap();
        big.set_size(1 << 40);
        big.set_cksum();
        let err = read(&gzip(big.as_bytes())).unwrap_err();
        assert!(matches!(err, ArchiveError::FileTooLarge { .. }), "{err:?}");
    }

    #[test]
    fn stops_inflating_a_gzip_bomb_at_the_budget() {
        // Directory data is skipped unread, but skipping still inflates it: 64 MiB of zeros (~64 KB
        // compressed) must stop at the budget, not be inflated whole.
        let mut raw = Vec::new();
        let mut dir = Header::new_gnu();
        dir.set_path("d/").unwrap();
        dir.set_entry_type(EntryType::Directory);
        dir.set_size(64 << 20);
        dir.set_cksum();
        raw.extend_from_slice(dir.as_bytes());
        raw.resize(512 + (64 << 20), 0);
        let bomb = gzip(&raw);
        assert!(bomb.len() < 1 << 20);
        // The inflation budget covers every file, media included: the site's bound.
        let limits = ArchiveLimits {
            max_files: 10,
            max_total_bytes: 1 << 20,
            max_file_bytes: 1 << 20,
            max_media_file_bytes: 1 << 20,
            max_site_bytes: 1 << 20,
        };
        assert_eq!(
            read_with(&bomb, &limits),
            Err(ArchiveError::SiteTooLarge { limit: 1 << 20 })
        );
    }

    #[test]
    fn rejects_data_that_is_not_gzip() {
        assert_eq!(read(b"PK\x03\x04zip"), Err(ArchiveError::NotGzip));
        assert_eq!(read(b""), Err(ArchiveError::NotGzip));
    }

    #[test]
    fn rejects_corrupt_tar_inside_gzip() {
        let err = read(&gzip(&[7u8; 1500])).unwrap_err();
        assert!(matches!(err, ArchiveError::Corrupt { .. }), "{err:?}");
    }

    #[test]
    fn rejects_truncated_gzip() {
        let src = tree(&[("docs.json", "{}"), ("a.mdx", &"abc ".repeat(5000))]);
        let gz = pack_tree(&src);
        let err = read(&gz[..gz.len() / 2]).unwrap_err();
        assert!(matches!(err, ArchiveError::Corrupt { .. }), "{err:?}");
    }

    #[test]
    fn skips_apple_double_files() {
        let src = tree(&[
            ("docs.json", "{}"),
            ("._index.mdx", "junk"),
            ("index.mdx", "hi"),
        ]);
        let got = read(&pack_tree(&src)).unwrap();
        assert!(!got.contains_key("._index.mdx"));
    }

    /// A PAX record line: its length counts itself.
    fn pax_record(key: &str, value: &str) -> Vec<u8> {
        let body = format!(" {key}={value}\n");
        let mut len = body.len() + 1;
        while format!("{len}{body}").len() != len {
            len += 1;
        }
        format!("{len}{body}").into_bytes()
    }

    /// An extension entry whose data is `size` zero bytes (a long name of NULs), gzipped: a few KB
    /// per MB, so a hostile upload is small.
    fn huge_extension(kind: EntryType, size: usize) -> Vec<u8> {
        let mut raw = Vec::new();
        let mut header = Header::new_gnu();
        header.as_old_mut().name[..13].copy_from_slice(b"././@LongLink");
        header.set_entry_type(kind);
        header.set_size(size as u64);
        header.set_cksum();
        raw.extend_from_slice(header.as_bytes());
        raw.resize(512 + size.next_multiple_of(512), b'a');
        let mut rest = RawTar::new().file("docs.json", "{}").0;
        raw.append(&mut rest);
        raw.extend_from_slice(&[0u8; 1024]);
        gzip(&raw)
    }

    #[test]
    fn refuses_a_huge_gnu_long_name_without_reading_it() {
        // 16 MiB of name in well under 100 KB of upload: the tar crate alone would read it whole.
        let gz = huge_extension(EntryType::GNULongName, 16 << 20);
        assert!(gz.len() < 100 * 1024, "{}", gz.len());
        let err = read(&gz).unwrap_err();
        assert_eq!(
            err,
            ArchiveError::ExtensionTooLarge {
                after: None,
                limit: MAX_EXTENSION_BYTES
            }
        );
        assert!(err.to_string().contains("65536"), "{err}");
    }

    #[test]
    fn refuses_huge_pax_records_local_and_global() {
        for kind in [
            EntryType::XHeader,
            EntryType::XGlobalHeader,
            EntryType::GNULongLink,
        ] {
            let err = read(&huge_extension(kind, 1 << 20)).unwrap_err();
            assert!(
                matches!(err, ArchiveError::ExtensionTooLarge { .. }),
                "{kind:?}: {err:?}"
            );
        }
    }

    #[test]
    fn refuses_paths_longer_than_the_limit() {
        let long = format!("{}.mdx", "a/".repeat(600));
        let gz = RawTar::new()
            .file("docs.json", "{}")
            .entry("././@LongLink", EntryType::GNULongName, long.as_bytes())
            .file("short.mdx", "x")
            .gz();
        let err = read(&gz).unwrap_err();
        assert!(
            matches!(&err, ArchiveError::BadPath { reason, entry } if reason.contains("1024") && entry.len() < 300),
            "{err:?}"
        );
    }

    #[test]
    fn reads_paths_from_pax_records() {
        let long = format!("{}/page.mdx", "deep".repeat(40));
        let gz = RawTar::new()
            .entry(
                "PaxHeaders/x",
                EntryType::XHeader,
                &pax_record("path", &long),
            )
            .file("short.mdx", "x")
            .entry(
                "pax_global_header",
                EntryType::XGlobalHeader,
                &pax_record("comment", "hi"),
            )
            .file("docs.json", "{}")
            .gz();
        let got = read(&gz).unwrap();
        assert_eq!(got.keys().collect::<Vec<_>>(), [long.as_str(), "docs.json"]);
    }

    #[test]
    fn refuses_a_pax_size_that_disagrees_with_the_header() {
        let gz = RawTar::new()
            .entry(
                "PaxHeaders/x",
                EntryType::XHeader,
                &pax_record("size", "5000"),
            )
            .file("docs.json", "{}")
            .gz();
        let err = read(&gz).unwrap_err();
        assert!(
            matches!(&err, ArchiveError::Corrupt { reason, .. } if reason.contains("PAX size")),
            "{err:?}"
        );
    }

    #[test]
    fn reads_long_paths_from_gnu_long_name_entries() {
        let long = format!("{}/page.mdx", "deep".repeat(40));
        let src = tree(&[("docs.json", "{}"), (long.as_str(), "x")]);
        let got = read(&pack_tree(&src)).unwrap();
        assert!(got.contains_key(&long));
    }
}
