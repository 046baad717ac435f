//! The refresh by delta (`[refresh] site_url`): a hosted site's live export mirrored from its delta
//! listing (`docs_edge_core::export::delta`) instead of its whole bundle. A round asks for the
//! listing's index with the `ETag` of the last one it used (304: nothing new is live), then fetches
//! the parts it lacks and only the files it lacks, each checked by size and SHA-256 and kept under
//! its hash in `cache_dir/objects/`, so a round broken off resumes with what it had fetched. Of a
//! large file it fetches only the chunks it has not kept (the others come from the last round). The
//! files are then laid out as a new folder of hard links to the objects and served, atomically,
//! after the checks an unpacked bundle passes (`State::load_laid_out`); objects no file of the new
//! export uses are removed. A site without a listing (404: a service older than the listing, or a
//! domain that is not hosted) leaves the round to the whole bundle (`crate::refresh`).

use std::collections::HashSet;
use std::fs;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use docs_edge_core::export::delta::{
    object_path, parse_index, parse_list, parse_part, FileEntry, CHUNKED_FROM, CHUNK_MAX,
    CHUNK_MIN, GROUP_MAX_BYTES, INDEX_PATH, MAX_INDEX_BYTES, MAX_LIST_BYTES,
};
use docs_edge_core::security::signing::{sha256_hex, to_hex};
use futures_util::StreamExt;
use sha2::{Digest, Sha256};

use crate::state::{Fetched, State};

/// How a round ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Synced {
    /// The export being served is the live one.
    Unchanged,
    /// A new export is served.
    Loaded,
    /// The site has no listing: the whole bundle it is.
    NoListing,
}

/// What a mirror remembers between rounds.
#[derive(Default)]
pub struct Mirror {
    /// The `ETag` of the index the bundle `served` was made from.
    etag: Option<String>,
    /// The bundle the last round served (its index's SHA-256): a 304 says nothing was published
    /// only while that bundle is still the one served (a SIGHUP may have loaded another).
    served: Option<String>,
}

/// Why a round failed.
#[derive(Debug)]
pub struct SyncError {
    pub message: String,
    /// The site answered, but what it sent does not match its own listing (a proxy that rewrites
    /// pages, a listing written by a broken export): the whole bundle may still serve.
    pub content: bool,
}

impl From<String> for SyncError {
    fn from(message: String) -> Self {
        SyncError {
            message,
            content: false,
        }
    }
}

impl From<&str> for SyncError {
    fn from(message: &str) -> Self {
        message.to_string().into()
    }
}

fn content_error(message: String) -> SyncError {
    SyncError {
        message,
        content: true,
    }
}

/// One round: fetches what the site's live export has that this server lacks, and serves it.
pub async fn sync(state: &State, site: &str, mirror: &mut Mirror) -> Result<Synced, SyncError> {
    let config = state.config();
    let objects = config.cache_dir.join("objects");
    fs::create_dir_all(&objects).map_err(|e| format!("{}: {e}", objects.display()))?;
    let mut round = Round {
        state,
        site,
        objects,
        timeout: config.limits.download_timeout,
        fetched: Fetched {
            mode: "delta",
            bytes: 0,
            requests: 0,
            files: 0,
            file_bytes: 0,
        },
    };
    let mut request = state
        .client
        .get(round.url(INDEX_PATH)?)
        .timeout(round.timeout);
    let serving = state.active().map(|a| a.bundle.sha256.clone());
    if let Some(tag) = mirror.etag.as_ref().filter(|_| serving == mirror.served) {
        request = request.header("if-none-match", tag);
    }
    let response = request.send().await.map_err(|e| describe(&e))?;
    match response.status().as_u16() {
        304 => return Ok(Synced::Unchanged),
        404 => return Ok(Synced::NoListing),
        status if !(200..300).contains(&status) => {
            return Err(format!("the site's delta index answered {status}").into())
        }
        _ => {}
    }
    let etag = response
        .headers()
        .get("etag")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let mut body = Vec::new();
    round.receive(response, MAX_INDEX_BYTES, &mut body).await?;
    let index_sha = sha256_hex(&body);
    if serving.as_deref() == Some(index_sha.as_str()) {
        mirror.etag = etag;
        mirror.served = serving;
        return Ok(Synced::Unchanged);
    }
    let max_files = config.limits.max_files as u64;
    let max_bytes = config.limits.max_unpacked_bytes;
    let index = parse_index(&body, max_files, max_bytes).map_err(content_error)?;
    let mut keep = HashSet::new();
    let mut entries: Vec<FileEntry> = Vec::new();
    for part in &index.parts {
        let path = round
            .object(&part.sha256, Some(part.size), part.size)
            .await?;
        entries.extend(parse_part(&read(&path)?).map_err(content_error)?);
        keep.insert(part.sha256.clone());
        if entries.len() as u64 > max_files {
            return Err("the delta listing has more files than max_files".into());
        }
    }
    // A path written twice in the bundle (its tar) is the last one written, as an unpacked bundle
    // would have it; the listing keeps both, in the bundle's order.
    let mut seen = HashSet::new();
    entries.reverse();
    entries.retain(|e| seen.insert(e.path.clone()));
    entries.reverse();
    let total = listed_bytes(&entries, max_bytes).ok_or_else(|| {
        content_error("the delta listing is larger than max_unpacked_bytes".into())
    })?;
    for entry in &entries {
        round.file(entry, &mut keep).await?;
    }
    round.fetched.files = entries.len() as u64;
    round.fetched.file_bytes = total;
    let sites = config.cache_dir.join("sites");
    let objects = round.objects.clone();
    state
        .load_laid_out(index_sha.clone(), move || {
            lay_out(&sites, &objects, &entries)
        })
        .await?;
    mirror.etag = etag;
    mirror.served = Some(index_sha);
    state.set_fetched(round.fetched);
    sweep(&round.objects, &keep);
    eprintln!(
        "{}",
        serde_json::json!({"event": "delta_loaded", "exportId": index.export_id, "files": index.files})
    );
    Ok(Synced::Loaded)
}

struct Round<'a> {
    state: &'a State,
    site: &'a str,
    objects: PathBuf,
    timeout: std::time::Duration,
    fetched: Fetched,
}

impl Round<'_> {
    fn url(&self, path: &str) -> Result<reqwest::Url, String> {
        url_of(self.site, path)
    }

    /// A file of the export: kept under its hash, fetched when missing (a chunked one from its
    /// chunks). Records what it keeps in `keep`.
    async fn file(
        &mut self,
        entry: &FileEntry,
        keep: &mut HashSet<String>,
    ) -> Result<(), SyncError> {
        keep.insert(entry.sha256.clone());
        let target = self.objects.join(&entry.sha256);
        let have = fs::metadata(&target).is_ok_and(|m| m.len() == entry.size);
        let Some(list_sha) = &entry.chunks else {
            // A file this large is listed in chunks; whole, it would be held in memory whole.
            if entry.size >= CHUNKED_FROM {
                return Err(content_error(format!(
                    "{}: listed whole at {} bytes",
                    entry.path, entry.size
                )));
            }
            if !have {
                self.fetch(&entry.path, &entry.sha256, Some(entry.size), entry.size)
                    .await?;
            }
            return Ok(());
        };
        keep.insert(list_sha.clone());
        let list = self.object(list_sha, None, MAX_LIST_BYTES).await?;
        let mut chunks = Vec::new();
        for (group_sha, group_size) in
            parse_list(&read(&list)?, entry.size, GROUP_MAX_BYTES).map_err(content_error)?
        {
            keep.insert(group_sha.clone());
            let group = self.object(&group_sha, None, MAX_LIST_BYTES).await?;
            chunks.extend(
                parse_list(&read(&group)?, group_size, CHUNK_MAX as u64).map_err(content_error)?,
            );
        }
        // Every chunk but the last is at least CHUNK_MIN: more would be a listing cut to pieces.
        if chunks.len() as u64 > entry.size / CHUNK_MIN as u64 + 1 {
            return Err(content_error(format!(
                "{}: more chunks than its size allows",
                entry.path
            )));
        }
        keep.extend(chunks.iter().map(|(sha, _)| sha.clone()));
        if have {
            // The chunks the next round may reuse, cut from the file already here.
            return cut_chunks(&target, &self.objects, &chunks).map_err(content_error);
        }
        for (sha, size) in &chunks {
            self.object(sha, Some(*size), *size).await?;
        }
        join_chunks(&self.objects, &chunks, &target, &entry.sha256).map_err(content_error)
    }

    /// The listing's object `sha` (at most `cap` bytes), kept or fetched.
    async fn object(
        &mut self,
        sha: &str,
        size: Option<u64>,
        cap: u64,
    ) -> Result<PathBuf, SyncError> {
        let target = self.objects.join(sha);
        if fs::metadata(&target).is_ok_and(|m| size.is_none_or(|s| m.len() == s)) {
            return Ok(target);
        }
        self.fetch(&object_path(sha), sha, size, cap).await?;
        Ok(target)
    }

    /// Fetches the site's `path` into the object `sha`, checked by size and hash.
    async fn fetch(
        &mut self,
        path: &str,
        sha: &str,
        size: Option<u64>,
        cap: u64,
    ) -> Result<(), SyncError> {
        let response = self
            .state
            .client
            .get(self.url(path)?)
            .timeout(self.timeout)
            .send()
            .await
            .map_err(|e| describe(&e))?;
        if !response.status().is_success() {
            return Err(format!("{path}: the site answered {}", response.status()).into());
        }
        let mut bytes = Vec::new();
        self.receive(response, cap, &mut bytes)
            .await
            .map_err(|e| format!("{path}: {e}"))?;
        if size.is_some_and(|s| s != bytes.len() as u64) || sha256_hex(&bytes) != sha {
            return Err(content_error(format!(
                "{path}: its size or SHA-256 differs from the listing's"
            )));
        }
        Ok(write_object(&self.objects, sha, &bytes)?)
    }

    /// A response's body, at most `cap` bytes, counted.
    async fn receive(
        &mut self,
        response: reqwest::Response,
        cap: u64,
        out: &mut Vec<u8>,
    ) -> Result<(), String> {
        self.fetched.requests += 1;
        let mut body = response.bytes_stream();
        while let Some(chunk) = body.next().await {
            let chunk = chunk.map_err(|e| describe(&e))?;
            self.fetched.bytes += chunk.len() as u64;
            if (out.len() + chunk.len()) as u64 > cap {
                return Err(format!(
                    "the answer is larger than the listing allows ({cap} bytes)"
                ));
            }
            out.extend_from_slice(&chunk);
        }
        Ok(())
    }
}

/// The listing's files' bytes in all, if within `max_bytes`. The sizes come from the site: summed
/// without wrapping (two sizes near 2^63 would add up to little).
fn listed_bytes(entries: &[FileEntry], max_bytes: u64) -> Option<u64> {
    entries.iter().try_fold(0u64, |sum, e| {
        sum.checked_add(e.size).filter(|&total| total <= max_bytes)
    })
}

/// The site's URL of the bundle path `path`, each segment percent-encoded.
fn url_of(site: &str, path: &str) -> Result<reqwest::Url, String> {
    let mut url = reqwest::Url::parse(site).map_err(|e| format!("site_url: {e}"))?;
    url.path_segments_mut()
        .map_err(|()| "site_url cannot have a path".to_string())?
        .pop_if_empty()
        .extend(path.split('/'));
    Ok(url)
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes a checked object: to a temporary name, then renamed, so an object present is whole.
fn write_object(objects: &Path, sha: &str, bytes: &[u8]) -> Result<(), String> {
    let partial = objects.join(format!("{sha}.partial"));
    fs::write(&partial, bytes)
        .and_then(|()| fs::rename(&partial, objects.join(sha)))
        .map_err(|e| format!("{}: {e}", partial.display()))
}

/// The file `target`'s chunks that are not kept yet, cut from it and checked.
fn cut_chunks(target: &Path, objects: &Path, chunks: &[(String, u64)]) -> Result<(), String> {
    let io = |e: std::io::Error| format!("{}: {e}", target.display());
    let mut file = None;
    let mut offset = 0u64;
    for (sha, size) in chunks {
        if !objects.join(sha).is_file() {
            let file = match file.as_mut() {
                Some(file) => file,
                None => file.insert(fs::File::open(target).map_err(io)?),
            };
            let mut bytes = vec![0; *size as usize];
            file.seek(SeekFrom::Start(offset)).map_err(io)?;
            file.read_exact(&mut bytes).map_err(io)?;
            if sha256_hex(&bytes) != *sha {
                return Err(format!(
                    "{}: a chunk differs from its list",
                    target.display()
                ));
            }
            write_object(objects, sha, &bytes)?;
        }
        offset += size;
    }
    Ok(())
}

/// The file `sha` made of its `chunks`, checked against its hash.
fn join_chunks(
    objects: &Path,
    chunks: &[(String, u64)],
    target: &Path,
    sha: &str,
) -> Result<(), String> {
    let partial = objects.join(format!("{sha}.partial"));
    let io = |e: std::io::Error| format!("{}: {e}", partial.display());
    let mut out = fs::File::create(&partial).map_err(io)?;
    let mut hasher = Sha256::new();
    for (chunk, _) in chunks {
        let bytes = read(&objects.join(chunk))?;
        if sha256_hex(&bytes) != *chunk {
            return Err(format!("the kept chunk {chunk} is damaged"));
        }
        hasher.update(&bytes);
        out.write_all(&bytes).map_err(io)?;
    }
    if to_hex(&hasher.finalize()) != sha {
        let _ = fs::remove_file(&partial);
        return Err(format!("the chunks of {sha} do not make it"));
    }
    fs::rename(&partial, target).map_err(io)
}

/// A new folder under `sites` with each file of `entries` at its path, hard-linked to its object
/// (copied where links fail). The paths were checked by the listing's parser.
fn lay_out(sites: &Path, objects: &Path, entries: &[FileEntry]) -> Result<PathBuf, String> {
    let stamp = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos();
    let dir = sites.join(format!("delta-{stamp}"));
    let result = entries.iter().try_for_each(|entry| {
        let target = dir.join(&entry.path);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent)?;
        }
        let source = objects.join(&entry.sha256);
        // Copied only where the filesystem cannot link: a path already laid out (two paths one
        // case-insensitive filesystem reads as one) is an error, never a copy over an object.
        fs::hard_link(&source, &target).or_else(|err| match err.kind() {
            std::io::ErrorKind::AlreadyExists => Err(err),
            _ => fs::copy(&source, &target).map(|_| ()),
        })
    });
    match result {
        Ok(()) => Ok(dir),
        Err(err) => {
            let _ = fs::remove_dir_all(&dir);
            Err(format!("laying out the export: {err}"))
        }
    }
}

/// Removes the objects (and half-written ones) that no file of the served export uses.
fn sweep(objects: &Path, keep: &HashSet<String>) {
    let Ok(entries) = fs::read_dir(objects) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_str().is_some_and(|n| keep.contains(n)) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// A request's failure, without its URL.
fn describe(err: &reqwest::Error) -> String {
    if err.is_timeout() {
        "a request to the site timed out".into()
    } else if err.is_connect() {
        "could not connect to the site".into()
    } else {
        "a request to the site failed".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cut_from_a_kept_file_join_back_into_it() {
        let dir = std::env::temp_dir().join(format!("delta-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let data: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let sha = sha256_hex(&data);
        fs::write(dir.join(&sha), &data).unwrap();
        let chunks: Vec<(String, u64)> = [30_000usize, 70_000]
            .iter()
            .scan(0, |at, &len| {
                let part = &data[*at..*at + len];
                *at += len;
                Some((sha256_hex(part), len as u64))
            })
            .collect();
        cut_chunks(&dir.join(&sha), &dir, &chunks).unwrap();
        let rebuilt = dir.join("rebuilt");
        join_chunks(&dir, &chunks, &rebuilt, &sha).unwrap();
        assert_eq!(fs::read(&rebuilt).unwrap(), data);
        let wrong = [(chunks[1].0.clone(), 70_000), (chunks[0].0.clone(), 30_000)];
        assert!(join_chunks(&dir, &wrong, &dir.join("x"), &sha).is_err());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn listed_sizes_that_would_wrap_are_refused() {
        let entry = |size: u64| FileEntry {
            path: "a".into(),
            size,
            sha256: String::new(),
            chunks: None,
        };
        assert_eq!(listed_bytes(&[entry(3), entry(4)], 10), Some(7));
        assert_eq!(listed_bytes(&[entry(3), entry(8)], 10), None);
        assert_eq!(
            listed_bytes(&[entry(1 << 63), entry(1 << 63)], u64::MAX),
            None
        );
    }

    #[test]
    fn paths_become_encoded_segments_under_the_site() {
        assert_eq!(
            url_of("http://127.0.0.1:1/docs/", "guides/a b#?.html")
                .unwrap()
                .as_str(),
            "http://127.0.0.1:1/docs/guides/a%20b%23%3F.html"
        );
    }
}
