//! A published version's source files, stored once in **source packs** (about 1 MiB of file bytes
//! each, concatenated, no framing) with a **file table** naming where each file sits (path -> pack,
//! offset, length). The publish job writes them while it inflates the upload ([`PackWriter`]); later
//! steps, and the static export, read only the files they need by ranged reads
//! ([`FileTable::reads_for`]) and get an ordinary [`SourceTree`] of just those files
//! ([`FileTable::tree_from`]).
//!
//! Media files ([`super::file_kind`]) are never parsed, so they stay out of the source packs: small
//! ones go into **media packs** (written the same way, read only by the static export), large ones
//! are objects of their own, and a site published file by file refers to its content-addressed
//! store ([`Stored`]). Links inside the folder become entries that share their target's bytes.
//!
//! Pages import snippets (`import X from '/snippets/x.mdx'`), and parsing a page needs them, so the
//! table also records each Markdown file's imports (read by a line scan, a superset of what the MDX
//! parser resolves) and [`FileTable::needed_by`] follows them. A page whose frontmatter names an
//! OpenAPI operation reads the upload's JSON and YAML files too (its sections hold the operation's
//! text): its imports carry [`OPENAPI_DOCUMENTS`] for that.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::archive::{has_config, link_aliases, ArchiveError, LinkEntry, SourceTree, CONFIG_FILES};
use super::file_kind::is_markdown;
use super::snippets::snippet_path;
use crate::search::codec::{decode, encode, IndexError};

/// The import recorded for a page with `openapi:` frontmatter: it reads every file that may be
/// the OpenAPI document holding its operation ([`super::spec_lookup::may_be_spec`]).
pub const OPENAPI_DOCUMENTS: &str = "openapi:";

/// File bytes per source pack: small enough that reading one page's pack costs little, large
/// enough that a 10,000-page site is a few dozen objects.
pub const TARGET_PACK_BYTES: usize = 1 << 20;

/// Media bytes per media pack: media are read one file at a time, by the export only, so a pack is
/// about a multipart part.
pub const TARGET_MEDIA_PACK_BYTES: usize = 4 << 20;
/// Media files up to this size go into media packs; larger ones are objects of their own, streamed.
pub const MAX_PACKED_MEDIA_BYTES: u64 = 1 << 20;

/// Format 1 tables (before media were stored apart) still load: every file was in a source pack.
const FORMAT_1: u8 = 1;
/// Format 2 tables (before source packs lived in the site's store) still load: their packs sit
/// beside their version.
const FORMAT_2: u8 = 2;
const FORMAT: u8 = 3;
const KIND_FILE_TABLE: u8 = b'F';

/// Where a file's bytes are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stored {
    /// In source pack `pack` at `offset`.
    Source,
    /// In media pack `pack` at `offset`.
    MediaPack,
    /// An object of its own beside the version (`media/file-00003.bin`).
    Object(String),
    /// The site's content-addressed store, by hash (a site published file by file).
    SiteFile(String),
}

/// Where one file of the upload sits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    /// Normalised path in the docs folder (`es/quickstart.mdx`, `docs.json`).
    pub path: String,
    pub stored: Stored,
    pub pack: u32,
    pub offset: u32,
    pub len: u32,
    /// Import sources of a Markdown file as written (`/snippets/x.mdx`, `./y.mdx`), resolved
    /// against its path when read (a stripped top folder changes what an absolute one names).
    pub imports: Vec<String>,
}

/// Every file of a version, sorted by path.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileTable {
    files: Vec<FileEntry>,
    pack_count: u32,
    media_pack_count: u32,
    /// What reading the upload found that the author should hear about (links not followed).
    warnings: Vec<String>,
    /// Per source pack, its name in the site's store ([`pack_object_name`]): packs are named by
    /// their bytes, so versions share the packs they have in common. Empty in a table of format 2
    /// or older, whose packs sit beside its version.
    pack_objects: Vec<String>,
}

#[derive(Deserialize)]
struct FileTableV2 {
    files: Vec<FileEntry>,
    pack_count: u32,
    media_pack_count: u32,
    warnings: Vec<String>,
}

#[derive(Deserialize)]
struct FileEntryV1 {
    path: String,
    pack: u32,
    offset: u32,
    len: u32,
    imports: Vec<String>,
}

#[derive(Deserialize)]
struct FileTableV1 {
    files: Vec<FileEntryV1>,
    pack_count: u32,
}

/// Where to read one file that is not in a source pack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MediaRead {
    /// Bytes `start..start + len` of media pack `pack`.
    Pack { pack: u32, start: u32, len: u32 },
    /// A whole object beside the version.
    Object(String),
    /// A whole object of the site's store.
    SiteFile(String),
}

/// One byte range of one pack to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackRead {
    pub pack: u32,
    pub start: u32,
    /// Exclusive.
    pub end: u32,
}

/// One finished source or media pack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourcePack {
    pub index: u32,
    /// A source pack's name in the site's store ([`pack_object_name`]); empty for a media pack.
    pub name: String,
    pub bytes: Vec<u8>,
    /// A media pack ([`Stored::MediaPack`]), not a source pack.
    pub media: bool,
}

impl FileTable {
    pub fn to_bytes(&self) -> Vec<u8> {
        encode(&[FORMAT, KIND_FILE_TABLE], self)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<FileTable, IndexError> {
        let table: FileTable = if bytes.first() == Some(&FORMAT_1) {
            let old: FileTableV1 = decode(bytes, &[FORMAT_1, KIND_FILE_TABLE])?;
            let files = old
                .files
                .into_iter()
                .map(|f| FileEntry {
                    path: f.path,
                    stored: Stored::Source,
                    pack: f.pack,
                    offset: f.offset,
                    len: f.len,
                    imports: f.imports,
                })
                .collect();
            FileTable {
                files,
                pack_count: old.pack_count,
                media_pack_count: 0,
                warnings: Vec::new(),
                pack_objects: Vec::new(),
            }
        } else if bytes.first() == Some(&FORMAT_2) {
            let old: FileTableV2 = decode(bytes, &[FORMAT_2, KIND_FILE_TABLE])?;
            FileTable {
                files: old.files,
                pack_count: old.pack_count,
                media_pack_count: old.media_pack_count,
                warnings: old.warnings,
                pack_objects: Vec::new(),
            }
        } else {
            decode(bytes, &[FORMAT, KIND_FILE_TABLE])?
        };
        let sorted = table.files.windows(2).all(|w| w[0].path < w[1].path);
        let in_packs = table.files.iter().all(|f| {
            let count = match f.stored {
                Stored::Source => table.pack_count,
                Stored::MediaPack => table.media_pack_count,
                Stored::Object(_) | Stored::SiteFile(_) => u32::MAX,
            };
            f.pack < count && f.offset.checked_add(f.len).is_some()
        });
        let named =
            table.pack_objects.is_empty() || table.pack_objects.len() == table.pack_count as usize;
        if !sorted || !in_packs || !named {
            return Err(IndexError::Inconsistent("file table"));
        }
        Ok(table)
    }

    /// Source pack `pack`'s name in the site's store; `None` when the packs sit beside the version
    /// (a table of format 2 or older).
    pub fn pack_object(&self, pack: u32) -> Option<&str> {
        self.pack_objects.get(pack as usize).map(String::as_str)
    }

    /// Every source pack's name in the site's store (empty: the packs sit beside the version).
    pub fn pack_objects(&self) -> &[String] {
        &self.pack_objects
    }

    pub fn media_pack_count(&self) -> u32 {
        self.media_pack_count
    }

    /// What reading the upload warned about.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Where the bytes of a file outside the source packs are (`None`: a source file, or no such file).
    pub fn media_read(&self, path: &str) -> Option<MediaRead> {
        let entry = self.get(path)?;
        match &entry.stored {
            Stored::Source => None,
            Stored::MediaPack => Some(MediaRead::Pack {
                pack: entry.pack,
                start: entry.offset,
                len: entry.len,
            }),
            Stored::Object(name) => Some(MediaRead::Object(name.clone())),
            Stored::SiteFile(hash) => Some(MediaRead::SiteFile(hash.clone())),
        }
    }

    /// Adds `files` (replacing any of the same path) in one new source pack, which it returns, and
    /// `warnings`: what a publish adds after the upload is read (remote specs it fetched).
    pub fn add_files(
        &mut self,
        files: Vec<(String, Vec<u8>)>,
        warnings: Vec<String>,
    ) -> Option<SourcePack> {
        self.warnings.extend(warnings);
        if files.is_empty() {
            return None;
        }
        let index = self.pack_count;
        // A table naming its packs names this one too (one of format 2 keeps it beside the version).
        let named = self.pack_objects.len() == self.pack_count as usize;
        let mut bytes = Vec::new();
        for (path, data) in files {
            let entry = FileEntry {
                path,
                stored: Stored::Source,
                pack: index,
                offset: bytes.len() as u32,
                len: data.len() as u32,
                imports: Vec::new(),
            };
            bytes.extend_from_slice(&data);
            match self.files.binary_search_by(|f| f.path.cmp(&entry.path)) {
                Ok(at) => self.files[at] = entry,
                Err(at) => self.files.insert(at, entry),
            }
        }
        self.pack_count += 1;
        let name = pack_object_name(&bytes);
        if named {
            self.pack_objects.push(name.clone());
        }
        Some(SourcePack {
            index,
            name,
            bytes,
            media: false,
        })
    }

    /// The hashes of the site's store this version refers to.
    pub fn site_files(&self) -> impl Iterator<Item = &str> {
        self.files.iter().filter_map(|f| match &f.stored {
            Stored::SiteFile(hash) => Some(hash.as_str()),
            _ => None,
        })
    }

    pub fn pack_count(&self) -> u32 {
        self.pack_count
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn files(&self) -> &[FileEntry] {
        &self.files
    }

    pub fn get(&self, path: &str) -> Option<&FileEntry> {
        self.files
            .binary_search_by(|f| f.path.as_str().cmp(path))
            .ok()
            .and_then(|i| self.files.get(i))
    }

    pub fn contains(&self, path: &str) -> bool {
        self.get(path).is_some()
    }

    /// Total bytes of the files `keep` accepts.
    pub fn bytes_of(&self, keep: impl Fn(&str) -> bool) -> u64 {
        self.files
            .iter()
            .filter(|f| keep(&f.path))
            .map(|f| u64::from(f.len))
            .sum()
    }

    /// The files parsing or rendering `sources` reads: the sources, the snippets they import (and
    /// those import), and every SVG (rendered Markdown inlines SVG images as data URLs).
    pub fn needed_by<'a>(&self, sources: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
        self.needed_with(sources, &self.svg_files(), &self.spec_files())
    }

    /// Every file a page with `openapi:` frontmatter may read its operation from ([`OPENAPI_DOCUMENTS`]).
    pub fn spec_files(&self) -> Vec<&str> {
        self.files
            .iter()
            .map(|f| f.path.as_str())
            .filter(|p| super::spec_lookup::may_be_spec(p))
            .collect()
    }

    /// Every SVG file: what [`Self::needed_by`] adds to any sources. A caller asking about many
    /// pages one by one finds them once (the scan is of every file, ten thousand at 10× scale).
    pub fn svg_files(&self) -> Vec<&str> {
        self.files
            .iter()
            .filter(|f| f.path.to_ascii_lowercase().ends_with(".svg"))
            .map(|f| f.path.as_str())
            .collect()
    }

    /// [`Self::needed_by`] with the SVG and OpenAPI files already found ([`Self::svg_files`],
    /// [`Self::spec_files`]).
    pub fn needed_with<'a>(
        &self,
        sources: impl IntoIterator<Item = &'a str>,
        svgs: &[&str],
        specs: &[&str],
    ) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut todo: Vec<String> = sources.into_iter().map(str::to_owned).collect();
        todo.extend(svgs.iter().map(|p| (*p).to_owned()));
        while let Some(path) = todo.pop() {
            let Some(entry) = self.get(&path) else {
                continue;
            };
            let mut imports: Vec<String> = entry
                .imports
                .iter()
                .filter_map(|source| snippet_path(&entry.path, source))
                .collect();
            if entry.imports.iter().any(|i| i == OPENAPI_DOCUMENTS) {
                imports.extend(specs.iter().map(|p| (*p).to_owned()));
            }
            let imports: Vec<String> = imports.into_iter().filter(|i| !out.contains(i)).collect();
            if out.insert(path) {
                todo.extend(imports);
            }
        }
        out
    }

    /// The ranged reads that fetch `paths`: one per pack, covering its wanted files (files of a pack
    /// that sit between wanted ones are read too; a pack is at most about a MiB).
    pub fn reads_for<'a>(&self, paths: impl IntoIterator<Item = &'a String>) -> Vec<PackRead> {
        let mut by_pack: BTreeMap<u32, (u32, u32)> = BTreeMap::new();
        for entry in paths
            .into_iter()
            .filter_map(|p| self.get(p))
            .filter(|e| e.stored == Stored::Source)
        {
            let end = entry.offset + entry.len;
            by_pack
                .entry(entry.pack)
                .and_modify(|r| *r = (r.0.min(entry.offset), r.1.max(end)))
                .or_insert((entry.offset, end));
        }
        by_pack
            .into_iter()
            .map(|(pack, (start, end))| PackRead { pack, start, end })
            .collect()
    }

    /// The tree of `paths` from source packs held in memory (by index).
    pub fn tree_from_packs(
        &self,
        packs: &BTreeMap<u32, Vec<u8>>,
        paths: &BTreeSet<String>,
    ) -> SourceTree {
        let reads: Vec<(PackRead, Vec<u8>)> = self
            .reads_for(paths)
            .into_iter()
            .filter_map(|r| {
                Some((
                    r,
                    packs
                        .get(&r.pack)?
                        .get(r.start as usize..r.end as usize)?
                        .to_vec(),
                ))
            })
            .collect();
        self.tree_from(paths, &reads)
    }

    /// The tree of `paths` from the bytes of `reads` (as [`FileTable::reads_for`] made them, in any
    /// order); a file whose bytes are missing is left out.
    pub fn tree_from<'a>(
        &self,
        paths: impl IntoIterator<Item = &'a String>,
        reads: &[(PackRead, Vec<u8>)],
    ) -> SourceTree {
        let mut tree = SourceTree::new();
        for entry in paths
            .into_iter()
            .filter_map(|p| self.get(p))
            .filter(|e| e.stored == Stored::Source)
        {
            let bytes = reads.iter().find_map(|(read, bytes)| {
                let start = entry.offset.checked_sub(read.start)? as usize;
                (read.pack == entry.pack)
                    .then(|| bytes.get(start..start + entry.len as usize))
                    .flatten()
            });
            if let Some(bytes) = bytes {
                tree.insert(entry.path.clone(), bytes.to_vec());
            }
        }
        tree
    }
}

/// Packs files as they come out of the upload.
#[derive(Debug, Default)]
pub struct PackWriter {
    current: Vec<u8>,
    packs: u32,
    /// The store name of every source pack sealed or shared so far, by index.
    names: Vec<String>,
    media: Vec<u8>,
    media_packs: u32,
    files: Vec<FileEntry>,
    links: Vec<LinkEntry>,
}

impl PackWriter {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a source file; returns the pack it completed, if it did. Files never straddle packs (a
    /// file larger than the target makes a pack of its own).
    pub fn add(&mut self, path: String, bytes: &[u8]) -> Option<SourcePack> {
        let done =
            if !self.current.is_empty() && self.current.len() + bytes.len() > TARGET_PACK_BYTES {
                self.seal()
            } else {
                None
            };
        let imports = if is_markdown(&path) {
            imports_of(bytes)
        } else {
            Vec::new()
        };
        self.files.push(FileEntry {
            path,
            stored: Stored::Source,
            pack: self.packs,
            offset: self.current.len() as u32,
            len: bytes.len() as u32,
            imports,
        });
        self.current.extend_from_slice(bytes);
        done
    }

    /// Makes `name`, a source pack already in the site's store, this table's next pack, and
    /// returns its index: files it holds are then added with [`PackWriter::add_in`] rather than
    /// written again. Only before the first [`PackWriter::add`] (the pack being filled has the
    /// next index); `None` after it.
    pub fn share(&mut self, name: String) -> Option<u32> {
        if !self.current.is_empty() || self.files.iter().any(|f| f.stored == Stored::Source) {
            return None;
        }
        let index = self.packs;
        self.packs += 1;
        self.names.push(name);
        Some(index)
    }

    /// Adds a source file whose bytes sit at `offset..offset + len` of shared pack `pack`
    /// ([`PackWriter::share`]); `imports` as its entry in the table it came from says.
    pub fn add_in(&mut self, path: String, pack: u32, offset: u32, len: u32, imports: Vec<String>) {
        self.files.push(FileEntry {
            path,
            stored: Stored::Source,
            pack,
            offset,
            len,
            imports,
        });
    }

    /// Adds a small media file (at most [`MAX_PACKED_MEDIA_BYTES`]); returns the media pack it
    /// completed, if it did.
    pub fn add_media(&mut self, path: String, bytes: &[u8]) -> Option<SourcePack> {
        let done =
            if !self.media.is_empty() && self.media.len() + bytes.len() > TARGET_MEDIA_PACK_BYTES {
                self.seal_media()
            } else {
                None
            };
        let (pack, offset, len) = (
            self.media_packs,
            self.media.len() as u32,
            bytes.len() as u32,
        );
        self.files.push(FileEntry {
            path,
            stored: Stored::MediaPack,
            pack,
            offset,
            len,
            imports: Vec::new(),
        });
        self.media.extend_from_slice(bytes);
        done
    }

    /// Adds a file whose bytes are stored elsewhere ([`Stored::Object`], [`Stored::SiteFile`]).
    pub fn add_stored(&mut self, path: String, len: u64, stored: Stored) {
        let len = u32::try_from(len).unwrap_or(u32::MAX);
        self.files.push(FileEntry {
            path,
            stored,
            pack: 0,
            offset: 0,
            len,
            imports: Vec::new(),
        });
    }

    /// Adds a link; [`PackWriter::finish`] resolves it against the files.
    pub fn add_link(&mut self, path: String, target: Option<String>) {
        self.links.push((path, target));
    }

    fn seal(&mut self) -> Option<SourcePack> {
        let bytes = std::mem::take(&mut self.current);
        let index = self.packs;
        self.packs += 1;
        let name = pack_object_name(&bytes);
        self.names.push(name.clone());
        Some(SourcePack {
            index,
            name,
            bytes,
            media: false,
        })
    }

    fn seal_media(&mut self) -> Option<SourcePack> {
        let bytes = std::mem::take(&mut self.media);
        let index = self.media_packs;
        self.media_packs += 1;
        Some(SourcePack {
            index,
            name: String::new(),
            bytes,
            media: true,
        })
    }

    /// The last packs (source, then media, those that hold anything) and the table. Links inside
    /// the folder become entries sharing their target's bytes ([`link_aliases`]). A single top folder
    /// holding docs.json or mint.json (`mydocs/docs.json`) is stripped, as
    /// [`super::archive::read_docs_archive`] strips it; an upload without either is refused.
    pub fn finish(mut self) -> Result<(Vec<SourcePack>, FileTable), ArchiveError> {
        let mut last = Vec::new();
        if !self.current.is_empty() {
            last.extend(self.seal());
        }
        if !self.media.is_empty() {
            last.extend(self.seal_media());
        }
        let mut files = self.files;
        // Later entries of one path win, as inserting into a tree does.
        files.reverse();
        crate::sort::sort_by(&mut files, |a, b| a.path.cmp(&b.path));
        files.dedup_by(|later, first| later.path == first.path);
        let mut warnings = Vec::new();
        if !self.links.is_empty() {
            let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
            let aliases = link_aliases(&paths, &self.links, &mut warnings);
            let mut added: Vec<FileEntry> = aliases
                .into_iter()
                .filter(|(link, _)| {
                    files
                        .binary_search_by(|f| f.path.as_str().cmp(link))
                        .is_err()
                })
                .filter_map(|(link, target)| {
                    let entry = &files[files
                        .binary_search_by(|f| f.path.as_str().cmp(&target))
                        .ok()?];
                    Some(FileEntry {
                        path: link,
                        ..entry.clone()
                    })
                })
                .collect();
            files.append(&mut added);
            crate::sort::sort_by(&mut files, |a, b| a.path.cmp(&b.path));
            files.dedup_by(|later, first| later.path == first.path);
        }
        strip_single_top_folder(&mut files);
        if !has_config(files.iter().map(|f| f.path.as_str())) {
            return Err(ArchiveError::MissingDocsJson);
        }
        Ok((
            last,
            FileTable {
                files,
                pack_count: self.packs,
                media_pack_count: self.media_packs,
                warnings,
                pack_objects: self.names,
            },
        ))
    }
}

/// A source pack's name in the site's store: `pack-` and 32 hex digits of its bytes' SHA-256, so a
/// re-publish whose pack holds the same bytes shares the object.
pub fn pack_object_name(bytes: &[u8]) -> String {
    format!(
        "{PACK_PREFIX}{}",
        crate::publish::manifest::file_hash(bytes)
    )
}

/// Whether `name` of the site's store is a source pack's ([`pack_object_name`]).
pub fn is_pack_object(name: &str) -> bool {
    name.strip_prefix(PACK_PREFIX)
        .is_some_and(crate::publish::manifest::is_hash)
}

/// Never a file hash (`p` is not a hex digit), nor a batch's or a sweep marker's prefix.
const PACK_PREFIX: &str = "pack-";

fn strip_single_top_folder(files: &mut [FileEntry]) {
    let Some((top, _)) = files.first().and_then(|f| f.path.split_once('/')) else {
        return;
    };
    let prefix = format!("{top}/");
    let inside = files.iter().all(|f| f.path.starts_with(&prefix));
    let config_inside = CONFIG_FILES
        .iter()
        .any(|c| files.iter().any(|f| f.path == format!("{prefix}{c}")));
    if has_config(files.iter().map(|f| f.path.as_str())) || !inside || !config_inside {
        return;
    }
    for file in files.iter_mut() {
        file.path = file.path[prefix.len()..].to_owned();
    }
}

/// The Markdown files a file may read: its imports, default or named, and legacy `<Snippet file>`
/// tags (a superset of what the MDX parser resolves is harmless: it only reads a file more).
fn imports_of(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let mut imports = super::snippets::snippet_sources(&text);
    if names_operation(&text) {
        imports.push(OPENAPI_DOCUMENTS.to_owned());
    }
    imports
}

/// Whether the frontmatter has a top-level `openapi:` key.
fn names_operation(text: &str) -> bool {
    let (yaml, _) = super::frontmatter::split(text);
    yaml.is_some_and(|yaml| {
        yaml.lines().any(|line| {
            line.strip_prefix("openapi")
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(files: &[(&str, &str)]) -> (Vec<SourcePack>, FileTable) {
        let mut writer = PackWriter::new();
        let mut packs = Vec::new();
        for (path, text) in files {
            packs.extend(writer.add((*path).to_owned(), text.as_bytes()));
        }
        let (last, table) = writer.finish().unwrap();
        packs.extend(last);
        (packs, table)
    }

    fn read(packs: &[SourcePack], table: &FileTable, paths: &BTreeSet<String>) -> SourceTree {
        let reads: Vec<(PackRead, Vec<u8>)> = table
            .reads_for(paths)
            .into_iter()
            .map(|r| {
                (
                    r,
                    packs[r.pack as usize].bytes[r.start as usize..r.end as usize].to_vec(),
                )
            })
            .collect();
        table.tree_from(paths, &reads)
    }

    #[test]
    fn a_page_naming_an_operation_reads_the_json_and_yaml_files() {
        let (_, table) = write(&[
            ("docs.json", "{}"),
            ("api/x.mdx", "---\ntitle: X\nopenapi: POST /x\n---\n"),
            ("api/spec.yaml", "openapi: 3.0.0"),
            ("openapi.json", "{}"),
            (
                "guide.mdx",
                "---\ntitle: Guide\n---\nopenapi: not frontmatter",
            ),
        ]);
        let names = |source: &str| table.needed_by([source]).into_iter().collect::<Vec<_>>();
        assert_eq!(
            names("api/x.mdx"),
            ["api/spec.yaml", "api/x.mdx", "openapi.json"]
        );
        assert_eq!(names("guide.mdx"), ["guide.mdx"]);
    }

    #[test]
    fn files_come_back_from_ranged_reads_with_their_imports() {
        let big = "x".repeat(TARGET_PACK_BYTES - 10);
        let (packs, table) = write(&[
            ("docs.json", "{}"),
            ("big.bin", &big),
            (
                "guides/a.mdx",
                "import Note from '/snippets/note.mdx'\nimport Rel from './rel.mdx'\n\n<Note />",
            ),
            ("snippets/note.mdx", "import Deep from './deep.mdx'\nNote"),
            ("snippets/deep.mdx", "Deep"),
            ("guides/rel.mdx", "Rel"),
            ("logo.svg", "<svg/>"),
            ("other.mdx", "Other"),
        ]);
        assert_eq!(packs.len(), 2);
        assert_eq!(table.pack_count(), 2);
        let table = FileTable::from_bytes(&table.to_bytes()).unwrap();
        let needed = table.needed_by(["guides/a.mdx"]);
        let names: Vec<&str> = needed.iter().map(String::as_str).collect();
        assert_eq!(
            names,
            [
                "guides/a.mdx",
                "guides/rel.mdx",
                "logo.svg",
                "snippets/deep.mdx",
                "snippets/note.mdx"
            ]
        );
        let tree = read(&packs, &table, &needed);
        assert_eq!(tree.len(), 5);
        assert_eq!(tree["snippets/deep.mdx"], b"Deep");
        assert_eq!(tree["logo.svg"], b"<svg/>");
    }

    #[test]
    fn a_single_top_folder_is_stripped_and_docs_json_is_required() {
        let (_, table) = write(&[
            ("site/docs.json", "{}"),
            ("site/a.mdx", "import S from './s.mdx'"),
            ("site/s.mdx", "S"),
        ]);
        assert!(table.contains("docs.json"));
        assert_eq!(
            table.needed_by(["a.mdx"]).into_iter().collect::<Vec<_>>(),
            ["a.mdx", "s.mdx"]
        );
        let mut writer = PackWriter::new();
        writer.add("a.mdx".into(), b"A");
        assert_eq!(writer.finish().unwrap_err(), ArchiveError::MissingDocsJson);
    }

    #[test]
    fn files_added_after_the_upload_go_into_a_pack_of_their_own_and_replace_their_path() {
        let (mut packs, mut table) =
            write(&[("docs.json", "{}"), (".docs-edge/remote.json", "{}")]);
        let pack = table
            .add_files(
                vec![
                    (".docs-edge/remote.json".into(), b"{\"u\": 1}".to_vec()),
                    ("z.json".into(), b"Z".to_vec()),
                ],
                vec!["w".into()],
            )
            .unwrap();
        assert_eq!((pack.index, table.pack_count()), (1, 2));
        packs.push(pack);
        let table = FileTable::from_bytes(&table.to_bytes()).unwrap();
        let all: BTreeSet<String> = table.files().iter().map(|f| f.path.clone()).collect();
        let tree = read(&packs, &table, &all);
        assert_eq!(tree[".docs-edge/remote.json"], b"{\"u\": 1}");
        assert_eq!(tree["z.json"], b"Z");
        assert_eq!(tree["docs.json"], b"{}");
        assert_eq!(table.warnings(), ["w"]);
    }

    #[test]
    fn a_table_shares_packs_of_another_by_name_and_packs_only_what_is_new() {
        let (old_packs, old) = write(&[
            ("docs.json", "{}"),
            ("a.mdx", "import S from '/snippets/s.mdx'"),
            ("snippets/s.mdx", "S"),
        ]);
        assert_eq!(old.pack_objects(), [pack_object_name(&old_packs[0].bytes)]);
        let mut writer = PackWriter::new();
        let shared = writer.share(old.pack_objects()[0].clone()).unwrap();
        for path in ["docs.json", "a.mdx", "snippets/s.mdx"] {
            let e = old.get(path).unwrap();
            // The same bytes at a new path too (a copied page).
            for at in [path.to_owned(), format!("copy/{path}")] {
                writer.add_in(at, shared, e.offset, e.len, e.imports.clone());
            }
        }
        let new = writer.add("b.mdx".into(), b"B");
        assert!(new.is_none());
        assert!(
            writer.share("pack-late".into()).is_none(),
            "sharing comes before packing"
        );
        let (last, table) = writer.finish().unwrap();
        assert_eq!((last.len(), last[0].index, table.pack_count()), (1, 1, 2));
        assert_eq!(
            table.pack_objects(),
            [old.pack_objects()[0].clone(), last[0].name.clone()]
        );
        let table = FileTable::from_bytes(&table.to_bytes()).unwrap();
        let packs = vec![old_packs[0].clone(), last[0].clone()];
        let all: BTreeSet<String> = table.files().iter().map(|f| f.path.clone()).collect();
        let tree = read(&packs, &table, &all);
        assert_eq!(tree["copy/snippets/s.mdx"], b"S");
        assert_eq!(tree["b.mdx"], b"B");
        assert_eq!(
            table
                .needed_by(["copy/a.mdx"])
                .into_iter()
                .collect::<Vec<_>>(),
            ["copy/a.mdx", "snippets/s.mdx"]
        );
        // A pack added later is named in the store as the others.
        let mut table = table;
        let extra = table
            .add_files(vec![("z.json".into(), b"Z".to_vec())], Vec::new())
            .unwrap();
        assert_eq!(table.pack_object(2), Some(extra.name.as_str()));
        assert!(
            is_pack_object(&extra.name)
                && !is_pack_object("pack-late")
                && !is_pack_object(&old_packs[0].bytes.len().to_string())
        );
    }

    #[test]
    fn a_table_of_format_2_keeps_its_packs_beside_its_version() {
        let (_, table) = write(&[("docs.json", "{}")]);
        let v2 = encode(
            &[FORMAT_2, KIND_FILE_TABLE],
            &(
                table.files().to_vec(),
                table.pack_count(),
                0u32,
                Vec::<String>::new(),
            ),
        );
        let mut old = FileTable::from_bytes(&v2).unwrap();
        assert_eq!(
            (old.pack_object(0), old.get("docs.json").map(|e| e.len)),
            (None, Some(2))
        );
        old.add_files(vec![("z.json".into(), b"Z".to_vec())], Vec::new())
            .unwrap();
        assert_eq!(old.pack_object(1), None);
    }

    #[test]
    fn a_corrupt_table_is_refused() {
        let (_, table) = write(&[("docs.json", "{}")]);
        let mut bytes = table.to_bytes();
        bytes.truncate(bytes.len() - 1);
        assert!(FileTable::from_bytes(&bytes).is_err());
        assert!(FileTable::from_bytes(b"").is_err());
    }
}
