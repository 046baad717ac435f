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
mod tests;
