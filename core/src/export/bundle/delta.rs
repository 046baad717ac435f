//! Mirrors by delta: a hosted export's list of its files by SHA-256, so a mirror (docs-edge-serve's
//! refresh) fetches only the files it lacks instead of the whole bundle.
//!
//! The builder writes it while it copies the export's files to R2 (`worker::builder::export_job`),
//! under the export's own prefix, where the hosted site serves it like any other file:
//! - [`INDEX_PATH`]: a [`DeltaIndex`], the export and its [`part`](FileEntry) objects' hashes;
//! - `_docs-edge/delta/objects/{sha256}.bin` ([`object_path`]; a name with an extension, which a
//!   hosted site serves as a file): content-addressed objects: the parts (up to [`PART_FILES`]
//!   entries each, in the bundle's own order, which one changed page does not move), the
//!   chunk lists of large files (in two levels, see [`group_chunks`]) and the chunks themselves.
//!
//! A large file (at least [`CHUNKED_FROM`] bytes: `llms-full.txt`, the offline search packs) is also
//! cut into content-defined chunks (FastCDC: a cut depends only on the bytes before it inside a
//! small window, so an edit changes the chunks around it and the rest realign). A page's edit thus
//! costs a mirror its page, the parts and the few chunks it touched, not the big files whole. A file
//! the site's URLs cannot reach (`_redirects`, which a hosted site never serves) is listed as chunks
//! too, so every file of the bundle can be fetched. Everything is checked by hash and size by the
//! reader; the parsers here bound what hostile input may make it hold.

use fastcdc::v2020::{cut_gear, select_masks, Normalization};

use crate::docs::archive::normalise_path;
use crate::security::signing::sha256_hex;

/// The index of the export's delta listing, beside its files.
pub const INDEX_PATH: &str = "_docs-edge/delta/index.txt";
/// The index's first word.
const INDEX_MAGIC: &str = "docs-edge-delta";
/// Where the delta listing's own objects live; never a file of the bundle.
pub const DELTA_DIR: &str = "_docs-edge/delta/";
/// Bumped on any change to the listing's layout; a reader refuses another.
pub const DELTA_FORMAT: u32 = 1;
/// Files at least this large are listed in chunks as well as whole.
pub const CHUNKED_FROM: u64 = 128 << 10;
/// FastCDC's bounds: small chunks keep the bytes an edit costs small; the lists grow as they shrink
/// (about 90 bytes of list per chunk).
pub const CHUNK_MIN: usize = 4 << 10;
pub const CHUNK_AVG: usize = 16 << 10;
pub const CHUNK_MAX: usize = 64 << 10;
/// Bytes after which the listing's chunker always cuts, once its chunk holds [`CHUNK_MIN`] bytes: a
/// cut is decided by the gear hash of the last 48 bytes, and at the end of these it meets both of
/// FastCDC's masks (and at none of the 15 bytes before, whatever came before them). A file made of
/// objects that end with it (the term shards of the search pack) is cut between its objects, so an
/// edit of one object changes its own chunks and not its neighbours': bytes that repeat, as postings
/// of a site's repeated sections do, meet no cut for up to [`CHUNK_MAX`] bytes, and a cut forced
/// there moves with every byte inserted before it. The chunk after the cut starts with its last byte.
pub const CUT_MARK: &[u8; 64] = b"docs-edge: the delta listing's chunker cuts here, nonce 000028d2";

/// Entries per part: at 10× (about 20,000 files) some 160 parts of about 20 KB, so the parts one
/// changed page touches cost little.
pub const PART_FILES: usize = 128;
/// A group of a chunk list ends after a chunk whose hash starts below this byte (one in 64 on
/// average), or at [`GROUP_MAX`] chunks.
const GROUP_END_BELOW: u8 = 4;
const GROUP_MAX: usize = 256;
/// What a reader accepts of the index, a part and a chunk list.
pub const MAX_INDEX_BYTES: u64 = 1 << 20;
pub const MAX_PART_BYTES: u64 = 1 << 20;
pub const MAX_LIST_BYTES: u64 = 16 << 20;
const MAX_PARTS: usize = 4096;

/// The listing's entry point, in lines: `docs-edge-delta {format} {exportId} {publishId} {files}
/// {bytes}`, then `{sha256} {size}` a part. Lines, like the parts: no serde code in the builder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeltaIndex {
    pub format: u32,
    pub export_id: String,
    pub publish_id: String,
    /// Files and bytes of the bundle, for a reader's limits before it fetches anything.
    pub files: u64,
    pub bytes: u64,
    pub parts: Vec<ObjectRef>,
}

/// A content-addressed object of the listing (`object_path(sha256)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectRef {
    pub sha256: String,
    pub size: u64,
}

/// One file of the bundle, a line of a part: `{sha256} {size} {chunks or -} {path}` (the path
/// last: it may hold spaces). `chunks` names its chunk list when it is listed in chunks: an object
/// of lines `{sha256} {size}`, its groups, each group an object of the same lines listing its
/// chunks. Lines, not JSON: smaller on the wire, and no serde code for them in the builder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    pub path: String,
    pub size: u64,
    pub sha256: String,
    pub chunks: Option<String>,
}

impl FileEntry {
    /// The entry's line, with its newline.
    pub fn line(&self) -> String {
        format!(
            "{} {} {} {}\n",
            self.sha256,
            self.size,
            self.chunks.as_deref().unwrap_or("-"),
            self.path
        )
    }
}

/// The entries of a part's (or a builder step's) lines, as written: not checked beyond their shape.
pub fn read_entries(bytes: &[u8]) -> Result<Vec<FileEntry>, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "a delta part is not UTF-8".to_string())?;
    text.lines()
        .map(|line| {
            let mut fields = line.splitn(4, ' ');
            let mut next = || {
                fields
                    .next()
                    .ok_or_else(|| format!("a delta line is short: {line:?}"))
            };
            let sha256 = next()?.to_string();
            let size = next()?
                .parse()
                .map_err(|_| format!("a delta line's size: {line:?}"))?;
            let chunks = Some(next()?).filter(|c| *c != "-").map(str::to_string);
            let path = next()?.to_string();
            Ok(FileEntry {
                path,
                size,
                sha256,
                chunks,
            })
        })
        .collect()
}

/// The site-relative path of a content-addressed object of the listing.
pub fn object_path(sha256: &str) -> String {
    format!("{DELTA_DIR}objects/{sha256}.bin")
}

/// Whether a file of `size` at `path` is listed in chunks: a large one, or one the site's URLs do
/// not reach by its own name.
pub fn chunked(path: &str, size: u64) -> bool {
    size >= CHUNKED_FROM || !reachable(path)
}

/// Whether the hosted site answers `/{path}` with this file (`http::site_paths`, kept simple here
/// so the builder does not link it): a name with an extension, nothing a URL would decode or cut
/// off, not `_redirects` (a site never serves it), and not a path the service answers before the
/// site: the API's (`/openapi.json`, `/health`, `/v1/…`, `/discovery/…`) and the widget's files,
/// which the assets layer serves (`/widget.js`, `/widget/…`, wrangler.toml's `run_worker_first`).
fn reachable(path: &str) -> bool {
    const TAKEN: [&str; 3] = ["openapi.json", "health", "widget.js"];
    const TAKEN_FOLDERS: [&str; 3] = ["v1/", "discovery/", "widget/"];
    let last = path.rsplit('/').next().unwrap_or(path);
    path != crate::export::redirects::REDIRECTS_FILE
        && !TAKEN.contains(&path)
        && !TAKEN_FOLDERS.iter().any(|folder| path.starts_with(folder))
        && last.contains('.')
        && !path.contains(['%', '?', '#', '\\', '\0'])
}

/// FastCDC 2020's gear tables, made from a fixed seed when a chunker starts rather than linked in
/// as the crate's 4 KiB of constants (the builder's size budget); the same seed makes the same
/// cuts everywhere, which is all a listing needs of them.
struct Gear {
    gear: Vec<u64>,
    gear_ls: Vec<u64>,
    mask_s: u64,
    mask_l: u64,
}

impl Default for Gear {
    fn default() -> Self {
        // splitmix64: 256 well-mixed words from one seed.
        let mut state: u64 = 0x646f_6373_2d65_6467;
        let gear: Vec<u64> = (0..256)
            .map(|_| {
                state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            })
            .collect();
        let gear_ls = gear.iter().map(|g| g << 1).collect();
        let (mask_s, mask_l) = select_masks(CHUNK_AVG, Normalization::Level1);
        Gear {
            gear,
            gear_ls,
            mask_s,
            mask_l,
        }
    }
}

impl Gear {
    /// The chunks of `data` as (offset, length), the last one ending at its end.
    fn cuts(&self, data: &[u8]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut at = 0;
        while let Some(rest) = data.get(at..).filter(|r| !r.is_empty()) {
            let (_, length) = cut_gear(
                rest,
                CHUNK_MIN,
                CHUNK_AVG,
                CHUNK_MAX,
                self.mask_s,
                self.mask_l,
                self.mask_s << 1,
                self.mask_l << 1,
                &self.gear,
                &self.gear_ls,
            );
            if length == 0 {
                break;
            }
            out.push((at, length));
            at += length;
        }
        out
    }
}

/// Cuts a file into content-defined chunks as its bytes arrive, with the cuts the whole file would
/// get: FastCDC's cut depends only on the bytes from a chunk's start, so every chunk but the last
/// one found in the buffer is final.
#[derive(Default)]
pub struct Chunker {
    gear: Gear,
    pending: Vec<u8>,
}

impl Chunker {
    /// Takes `data`; answers the chunks now complete, in order.
    pub fn push(&mut self, data: &[u8]) -> Vec<Vec<u8>> {
        self.pending.extend_from_slice(data);
        if self.pending.len() < 2 * CHUNK_MAX {
            return Vec::new();
        }
        let cuts = self.gear.cuts(&self.pending);
        let keep_from = cuts.last().map_or(0, |&(offset, _)| offset);
        let done: Vec<Vec<u8>> = cuts
            .iter()
            .filter(|&&(offset, _)| offset < keep_from)
            .filter_map(|&(offset, length)| self.pending.get(offset..offset + length))
            .map(<[u8]>::to_vec)
            .collect();
        self.pending.drain(..keep_from);
        done
    }

    /// The chunks of what is left.
    pub fn finish(self) -> Vec<Vec<u8>> {
        self.gear
            .cuts(&self.pending)
            .iter()
            .filter_map(|&(offset, length)| self.pending.get(offset..offset + length))
            .map(<[u8]>::to_vec)
            .collect()
    }
}

/// A chunk list's bytes: lines `{sha256} {size}`.
pub fn list_bytes(chunks: &[(String, u64)]) -> Vec<u8> {
    chunks
        .iter()
        .map(|(sha, size)| format!("{sha} {size}\n"))
        .collect::<String>()
        .into_bytes()
}

/// Whether a group of [`group_chunks`] ends after the chunk whose hash is `sha256`, the group's
/// `len`th: where the hash says so, or at [`GROUP_MAX`] chunks.
pub fn group_ends(sha256: &str, len: usize) -> bool {
    let below =
        u8::from_str_radix(sha256.get(..2).unwrap_or("ff"), 16).is_ok_and(|b| b < GROUP_END_BELOW);
    below || len >= GROUP_MAX
}

/// A file's chunks cut into groups where a chunk's own hash says so, so the groups realign after
/// an edit as the chunks do: of a 30 MB pack's 2,000 chunks, an edit changes the one group listing
/// its chunks (about 5 KB), not the whole list (about 180 KB).
pub fn group_chunks(chunks: &[(String, u64)]) -> Vec<Vec<(String, u64)>> {
    let mut groups = Vec::new();
    let mut group = Vec::new();
    for chunk in chunks {
        group.push(chunk.clone());
        if group_ends(&chunk.0, group.len()) {
            groups.push(std::mem::take(&mut group));
        }
    }
    if !group.is_empty() {
        groups.push(group);
    }
    groups
}

/// The index and the parts of a listing whose entries' lines ([`FileEntry::line`]) are `lines`, in
/// the bundle's order (the builder's steps, concatenated): the index's bytes and each part's hash
/// and bytes. Only the sizes are read of the lines, so the builder carries no parser of them.
pub fn assemble(
    export_id: &str,
    publish_id: &str,
    lines: &str,
) -> (Vec<u8>, Vec<(String, Vec<u8>)>) {
    let all: Vec<&str> = lines.lines().collect();
    let bytes: u64 = all
        .iter()
        .filter_map(|line| line.split(' ').nth(1)?.parse::<u64>().ok())
        .sum();
    let parts: Vec<(String, Vec<u8>)> = all
        .chunks(PART_FILES)
        .map(|part| {
            let bytes = part
                .iter()
                .flat_map(|line| [*line, "\n"])
                .collect::<String>()
                .into_bytes();
            (sha256_hex(&bytes), bytes)
        })
        .collect();
    let mut index = format!(
        "{INDEX_MAGIC} {DELTA_FORMAT} {export_id} {publish_id} {} {bytes}\n",
        all.len()
    );
    for (sha, part) in &parts {
        index.push_str(&format!("{sha} {}\n", part.len()));
    }
    (index.into_bytes(), parts)
}

/// `{sha256} {size}` lines (a chunk list's, the index's parts); `None` when one is malformed.
fn pairs<'a>(lines: impl Iterator<Item = &'a str>) -> Option<Vec<(String, u64)>> {
    lines
        .map(|line| {
            let (sha, size) = line.split_once(' ')?;
            Some((sha.to_string(), size.parse::<u64>().ok()?))
        })
        .collect()
}

/// Whether `s` is a SHA-256 in lower-case hex.
pub fn is_sha256(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Whether `path` may be written under a mirror's folder: relative, canonical (no `..`, `.` or
/// empty segment, no backslash), not inside the listing's own folder.
pub fn safe_path(path: &str) -> bool {
    !path.chars().any(char::is_control)
        && !path.starts_with(DELTA_DIR)
        && path.len() <= 1024
        && normalise_path(path.as_bytes(), path).is_ok_and(|p| p == path)
}

/// The index, checked: its format, its parts' hashes, the bundle's size within `max_files` and
/// `max_bytes`.
pub fn parse_index(bytes: &[u8], max_files: u64, max_bytes: u64) -> Result<DeltaIndex, String> {
    if bytes.len() as u64 > MAX_INDEX_BYTES {
        return Err("the delta index is too large".into());
    }
    let text =
        std::str::from_utf8(bytes).map_err(|_| "the delta index is not UTF-8".to_string())?;
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap_or("").split(' ').collect();
    let number = |i: usize| head.get(i).and_then(|v| v.parse::<u64>().ok());
    let (Some(format), Some(files), Some(total), [INDEX_MAGIC, _, export_id, publish_id, _, _]) =
        (number(1), number(4), number(5), head.as_slice())
    else {
        return Err("the delta index is malformed".into());
    };
    let index = DeltaIndex {
        format: u32::try_from(format).unwrap_or(u32::MAX),
        export_id: export_id.to_string(),
        publish_id: publish_id.to_string(),
        files,
        bytes: total,
        parts: pairs(lines)
            .ok_or("the delta index names a malformed part")?
            .into_iter()
            .map(|(sha256, size)| ObjectRef { sha256, size })
            .collect(),
    };
    if index.format != DELTA_FORMAT {
        return Err(format!("delta index format {} is unknown", index.format));
    }
    if index.files > max_files || index.bytes > max_bytes {
        return Err(format!(
            "the export has {} files of {} bytes, over this server's limits",
            index.files, index.bytes
        ));
    }
    if index.parts.len() > MAX_PARTS
        || index
            .parts
            .iter()
            .any(|p| !is_sha256(&p.sha256) || p.size > MAX_PART_BYTES)
    {
        return Err("the delta index names a malformed part".into());
    }
    Ok(index)
}

/// A part, checked: at most [`PART_FILES`] entries, each with a safe path and hashes.
pub fn parse_part(bytes: &[u8]) -> Result<Vec<FileEntry>, String> {
    let entries = read_entries(bytes)?;
    if entries.len() > PART_FILES {
        return Err("a delta part lists too many files".into());
    }
    for entry in &entries {
        if !safe_path(&entry.path) {
            return Err(format!(
                "a delta part names an unsafe path: {:?}",
                entry.path
            ));
        }
        if !is_sha256(&entry.sha256) || entry.chunks.as_deref().is_some_and(|c| !is_sha256(c)) {
            return Err(format!(
                "a delta part's hash of {} is malformed",
                entry.path
            ));
        }
    }
    Ok(entries)
}

/// The largest group of a chunk list, in bytes of the file.
pub const GROUP_MAX_BYTES: u64 = (GROUP_MAX * CHUNK_MAX) as u64;

/// A chunk list (of groups: items of at most [`GROUP_MAX_BYTES`]; of chunks: at most
/// [`CHUNK_MAX`]) of `size` bytes, checked: hashes, no empty item, none over `max_item`, the sizes
/// adding up to `size`.
pub fn parse_list(bytes: &[u8], size: u64, max_item: u64) -> Result<Vec<(String, u64)>, String> {
    if bytes.len() as u64 > MAX_LIST_BYTES {
        return Err("a chunk list is too large".into());
    }
    let text = std::str::from_utf8(bytes).map_err(|_| "a chunk list is not UTF-8".to_string())?;
    let chunks = pairs(text.lines()).ok_or_else(|| "a chunk list is malformed".to_string())?;
    let bad = chunks
        .iter()
        .any(|(h, s)| !is_sha256(h) || *s == 0 || *s > max_item);
    if bad || chunks.iter().map(|(_, s)| *s).sum::<u64>() != size {
        return Err("a chunk list is malformed".into());
    }
    Ok(chunks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cut_mark_cuts_after_any_bytes() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut byte = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng as u8
        };
        let gear = Gear::default();
        let mut checked = 0;
        for len in (0..40).map(|i| CHUNK_MIN + i * 1_531) {
            let mut data: Vec<u8> = (0..len).map(|_| byte()).collect();
            data.extend_from_slice(CUT_MARK);
            data.extend((0..CHUNK_MAX).map(|_| byte()));
            let at = len + CUT_MARK.len() - 1;
            let ends: Vec<usize> = gear.cuts(&data).iter().map(|&(o, l)| o + l).collect();
            let before = ends.iter().copied().filter(|&e| e < at).max().unwrap_or(0);
            if (CHUNK_MIN..=CHUNK_MAX).contains(&(at - before)) {
                assert!(ends.contains(&at), "no cut after the mark at {len}");
                checked += 1;
            }
        }
        assert!(checked > 20, "{checked}");
    }

    fn bytes(n: usize, seed: u64) -> Vec<u8> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect()
    }

    fn chunks_streamed(data: &[u8], step: usize) -> Vec<Vec<u8>> {
        let mut chunker = Chunker::default();
        let mut out = Vec::new();
        for piece in data.chunks(step) {
            out.extend(chunker.push(piece));
        }
        out.extend(chunker.finish());
        out
    }

    #[test]
    fn streamed_chunks_are_the_whole_files_and_an_edit_changes_few() {
        let data = bytes(1 << 20, 7);
        let whole = chunks_streamed(&data, data.len());
        assert_eq!(chunks_streamed(&data, 1000), whole);
        assert_eq!(chunks_streamed(&data, 70_000), whole);
        assert_eq!(whole.concat(), data);
        assert!(whole.iter().all(|c| c.len() <= CHUNK_MAX));
        let mut edited = data.clone();
        edited.splice(500_000..500_010, b"a longer replacement".iter().copied());
        let before: std::collections::HashSet<_> = whole.iter().collect();
        let after = chunks_streamed(&edited, 4096);
        let new: usize = after
            .iter()
            .filter(|c| !before.contains(c))
            .map(|c| c.len())
            .sum();
        assert!(new <= 3 * CHUNK_MAX, "{new} new bytes for a 20-byte edit");
    }

    #[test]
    fn assembled_listing_parses_back() {
        let lines: String = (0..PART_FILES + 1)
            .map(|i| {
                FileEntry {
                    path: format!("p/{i:04}.html"),
                    size: 3,
                    sha256: "a".repeat(64),
                    chunks: (i == 0).then(|| "b".repeat(64)),
                }
                .line()
            })
            .collect();
        let (index_bytes, parts) = assemble("se_1", "p1", &lines);
        let index = parse_index(&index_bytes, 10_000, 1 << 30).unwrap();
        assert_eq!(
            (index.export_id.as_str(), index.publish_id.as_str()),
            ("se_1", "p1")
        );
        assert_eq!(
            (index.files, index.bytes),
            (PART_FILES as u64 + 1, 3 * (PART_FILES as u64 + 1))
        );
        assert_eq!(parts.len(), 2);
        let first = parse_part(&parts[0].1).unwrap();
        assert_eq!(first[0].chunks, Some("b".repeat(64)));
        assert_eq!(first.len(), PART_FILES);
        assert_eq!(sha256_hex(&parts[1].1), index.parts[1].sha256);
        assert_eq!(index.parts[1].size, parts[1].1.len() as u64);
        assert!(parse_index(&index_bytes, 10, 1 << 30).is_err());
        assert!(parse_index(b"docs-edge-delta 2 se_1 p1 1 3\n", 10, 1 << 30).is_err());
        assert!(parse_index(b"docs-edge-delta 1 se_1 p1 1\n", 10, 1 << 30).is_err());
        assert!(parse_index(b"docs-edge-delta 1 se_1 p1 1 3\nxyz 3\n", 10, 1 << 30).is_err());
    }

    #[test]
    fn hostile_listings_are_refused() {
        let a = "a".repeat(64);
        for path in [
            "../x",
            "/etc/passwd",
            "a//b",
            "a/./b",
            "a\\b",
            "_docs-edge/delta/x",
            "",
            "a\rb",
        ] {
            assert!(!safe_path(path), "{path}");
            let part = format!("{a} 1 - {path}\n");
            assert!(parse_part(part.as_bytes()).is_err(), "{path}");
        }
        assert!(safe_path("guides/a b.html"));
        let spaced = parse_part(format!("{a} 1 - guides/a b.html\n").as_bytes()).unwrap();
        assert_eq!(spaced[0].path, "guides/a b.html");
        assert!(parse_part(b"XYZ 1 - a.html\n").is_err());
        assert!(parse_part(format!("{a} x - a.html\n").as_bytes()).is_err());
        assert!(parse_part(format!("{a} 1 -\n").as_bytes()).is_err());
        let h = "c".repeat(64);
        let max = CHUNK_MAX as u64;
        assert!(parse_list(format!("{h} 3\n").as_bytes(), 3, max).is_ok());
        assert!(parse_list(format!("{h} 3\n").as_bytes(), 4, max).is_err());
        assert!(parse_list(format!("{h} 0\n{h} 3\n").as_bytes(), 3, max).is_err());
        assert!(parse_list(format!("{h} -3\n").as_bytes(), 3, max).is_err());
        let big = format!("{h} {}\n", 1 << 20);
        assert!(parse_list(big.as_bytes(), 1 << 20, max).is_err());
        assert!(parse_list(big.as_bytes(), 1 << 20, GROUP_MAX_BYTES).is_ok());
    }

    #[test]
    fn groups_realign_after_an_inserted_chunk() {
        let chunks: Vec<(String, u64)> = (0..2000u32)
            .map(|i| (sha256_hex(&i.to_le_bytes()), 10))
            .collect();
        let groups = group_chunks(&chunks);
        assert_eq!(groups.concat(), chunks);
        assert!(groups.len() > 10 && groups.iter().all(|g| g.len() <= GROUP_MAX));
        let mut edited = chunks.clone();
        edited.insert(1000, (sha256_hex(b"new"), 10));
        let before: std::collections::HashSet<_> = groups.iter().collect();
        let changed = group_chunks(&edited)
            .iter()
            .filter(|g| !before.contains(g))
            .count();
        assert!(changed <= 2, "{changed} groups changed");
    }

    #[test]
    fn files_the_site_does_not_serve_by_name_are_chunked() {
        assert!(chunked("_redirects", 10));
        assert!(
            chunked("openapi.json", 10),
            "the API's reference answers /openapi.json"
        );
        assert!(chunked("v1/openapi.yaml", 10));
        assert!(chunked("widget.js", 10));
        assert!(!chunked("api/openapi.json", 10));
        assert!(!chunked("guides/setup.html", 10));
        assert!(!chunked("guides/setup.md", 10));
        assert!(!chunked("_static/site.css", 10));
        assert!(chunked("llms-full.txt", CHUNKED_FROM));
    }
}
