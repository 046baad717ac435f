//! Publishing file by file: a site's files are stored once each in its content-addressed store
//! (`files/{domain}/{hash}`), and a version is a **manifest** naming a hash per path. The client
//! hashes its folder, asks which hashes the store lacks, uploads those, then commits the manifest;
//! a re-publish sends only what changed. The publish job reads the manifest's source files from the
//! store and refers to its media there, never copying them.
//!
//! This module holds the wire rules (what a hash is, which paths a manifest may name) and the
//! manifest the job reads, sans IO.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::docs::archive::{
    has_config, normalise_path, ArchiveError, ArchiveLimits, FileCounts, MAX_PATH_BYTES,
};
use crate::http::validate::FieldError;

/// Hex digits of a file's hash: the first 128 bits of its SHA-256, lower case.
pub const HASH_HEX_LEN: usize = 32;

/// A file's hash as the store names it.
pub fn file_hash(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    hex_prefix(&Sha256::digest(bytes))
}

/// The store's name for a SHA-256 digest: its first [`HASH_HEX_LEN`] hex digits.
pub fn hex_prefix(digest: &[u8]) -> String {
    digest
        .iter()
        .take(HASH_HEX_LEN / 2)
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub fn is_hash(text: &str) -> bool {
    text.len() == HASH_HEX_LEN
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn field(path: impl Into<String>, rule: impl Into<String>) -> FieldError {
    FieldError {
        path: path.into(),
        rule: rule.into(),
    }
}

/// `{"hashes": [...]}` of a "which do you lack" question: at most `max` hashes, each [`is_hash`].
pub fn parse_hash_query(body: &[u8], max: usize) -> Result<Vec<String>, FieldError> {
    let value: Value =
        serde_json::from_slice(body).map_err(|e| field("body", format!("must be JSON ({e})")))?;
    let Some(Value::Array(items)) = value.get("hashes") else {
        return Err(field("hashes", "must be an array of file hashes"));
    };
    if items.len() > max {
        return Err(field("hashes", format!("must hold at most {max} hashes")));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item.as_str() {
            Some(hash) if is_hash(hash) => Ok(hash.to_owned()),
            _ => Err(field(format!("hashes[{i}]"), format!("must be {HASH_HEX_LEN} lower-case hex digits (the start of the file's SHA-256)"))),
        })
        .collect()
}

/// One file of a manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestFile {
    pub path: String,
    pub hash: String,
    /// From the store, once checked; 0 before.
    pub size: u64,
}

/// A version's files, sorted by path: what `POST /v1/sites/{domain}/publishes` commits and the
/// publish job reads (stored beside the version as [`MANIFEST_OBJECT`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub files: Vec<ManifestFile>,
    /// `"preview"`: the label of a preview publish, as the request wrote it (checked with
    /// [`crate::publish::preview::preview_host`], which needs the deployment's suffix). Not stored.
    #[serde(skip)]
    pub preview: Option<String>,
}

/// The name of a manifest beside its version, where a `.tar.gz` publish keeps its upload.
pub const MANIFEST_OBJECT: &str = "manifest.json";

impl Manifest {
    /// `{"files": {"path": "hash", ...}}`: at most `max_files` entries, every path a plain relative
    /// path (the upload rules), every hash [`is_hash`], a docs.json or mint.json at the root.
    pub fn parse(body: &[u8], max_files: usize) -> Result<Manifest, FieldError> {
        let value: Value = serde_json::from_slice(body)
            .map_err(|e| field("body", format!("must be JSON ({e})")))?;
        let Some(Value::Object(files)) = value.get("files") else {
            return Err(field(
                "files",
                "must be an object mapping each file's path to its hash",
            ));
        };
        if files.len() > max_files {
            return Err(field(
                "files",
                format!("must name at most {max_files} files"),
            ));
        }
        let mut out = Vec::with_capacity(files.len());
        for (path, hash) in files {
            let shown: String = path.chars().take(200).collect();
            if path.len() > MAX_PATH_BYTES {
                return Err(field(
                    format!("files[{shown:?}]"),
                    format!("path must be at most {MAX_PATH_BYTES} bytes"),
                ));
            }
            let normal = normalise_path(path.as_bytes(), path)
                .map_err(|e| field(format!("files[{shown:?}]"), path_rule(&e)))?;
            if normal != *path {
                return Err(field(
                    format!("files[{shown:?}]"),
                    "path must be normalised (no `./`, `//` or trailing `/`)",
                ));
            }
            match hash.as_str() {
                Some(hash) if is_hash(hash) => out.push(ManifestFile { path: normal, hash: hash.to_owned(), size: 0 }),
                _ => return Err(field(format!("files[{shown:?}]"), format!("must be {HASH_HEX_LEN} lower-case hex digits (the start of the file's SHA-256)"))),
            }
        }
        // Sorted here, not by the map: builds that render pages turn on serde_json's `preserve_order`,
        // which keeps the client's order. Keys are unique either way.
        crate::sort::sort_by(&mut out, |a, b| a.path.cmp(&b.path));
        if !has_config(out.iter().map(|f| f.path.as_str())) {
            return Err(field(
                "files",
                "must include docs.json (or the legacy mint.json) at the root",
            ));
        }
        let preview = match value.get("preview") {
            None | Some(Value::Null) => None,
            Some(Value::String(label)) => Some(label.clone()),
            Some(_) => return Err(field("preview", "must be a string: the preview's label")),
        };
        Ok(Manifest {
            files: out,
            preview,
        })
    }

    /// The distinct hashes, sorted.
    pub fn hashes(&self) -> Vec<&str> {
        let mut hashes: Vec<&str> = self.files.iter().map(|f| f.hash.as_str()).collect();
        crate::sort::sort(&mut hashes);
        hashes.dedup();
        hashes
    }

    /// Holds the files, their sizes filled in, to `limits` as an upload is held.
    pub fn check_limits(&self, limits: &ArchiveLimits) -> Result<(), ArchiveError> {
        let mut counts = FileCounts::default();
        for file in &self.files {
            counts.admit(limits, &file.path, file.size, &file.path)?;
        }
        Ok(())
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Manifest, serde_json::Error> {
        serde_json::from_slice(bytes)
    }
}

fn path_rule(err: &ArchiveError) -> String {
    match err {
        ArchiveError::PathTraversal { .. } => "path must not contain `..`".into(),
        ArchiveError::AbsolutePath { .. } => "path must be relative".into(),
        ArchiveError::BadPath { reason, .. } => (*reason).into(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn hashes_are_the_start_of_sha256() {
        // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223 b00361a3…
        assert_eq!(file_hash(b"abc"), "ba7816bf8f01cfea414140de5dae2223");
        assert!(is_hash(H));
        assert!(
            !is_hash(&H.to_uppercase())
                && !is_hash(&H[1..])
                && !is_hash("g123456789abcdef0123456789abcdef")
        );
    }

    #[test]
    fn a_manifest_names_plain_paths_and_hashes_and_a_config() {
        let body =
            format!(r#"{{"files": {{"docs.json": "{H}", "b/a.mdx": "{H}", "img/x.png": "{H}"}}}}"#);
        let manifest = Manifest::parse(body.as_bytes(), 10).unwrap();
        let paths: Vec<&str> = manifest.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["b/a.mdx", "docs.json", "img/x.png"]);
        assert_eq!(manifest.hashes(), [H]);
        let legacy = format!(r#"{{"files": {{"mint.json": "{H}"}}}}"#);
        assert!(Manifest::parse(legacy.as_bytes(), 10).is_ok());

        for (body, path, rule) in [
            (
                format!(r#"{{"files": {{"a.mdx": "{H}"}}}}"#),
                "files",
                "must include docs.json",
            ),
            (
                format!(r#"{{"files": {{"docs.json": "{H}", "../x": "{H}"}}}}"#),
                r#"files["../x"]"#,
                "must not contain `..`",
            ),
            (
                format!(r#"{{"files": {{"docs.json": "{H}", "/etc/x": "{H}"}}}}"#),
                r#"files["/etc/x"]"#,
                "relative",
            ),
            (
                format!(r#"{{"files": {{"docs.json": "{H}", "a//b": "{H}"}}}}"#),
                r#"files["a//b"]"#,
                "normalised",
            ),
            (
                r#"{"files": {"docs.json": "xyz"}}"#.to_owned(),
                r#"files["docs.json"]"#,
                "hex digits",
            ),
            (r#"{"files": []}"#.to_owned(), "files", "must be an object"),
        ] {
            let err = Manifest::parse(body.as_bytes(), 10).unwrap_err();
            assert_eq!(err.path, path, "{body}");
            assert!(err.rule.contains(rule), "{body}: {err}");
        }
        let many = format!(r#"{{"files": {{"docs.json": "{H}", "a": "{H}", "b": "{H}"}}}}"#);
        assert!(Manifest::parse(many.as_bytes(), 2)
            .unwrap_err()
            .rule
            .contains("at most 2"));
    }

    #[test]
    fn a_manifest_is_held_to_the_upload_limits() {
        let mut manifest = Manifest {
            files: vec![
                ManifestFile {
                    path: "docs.json".into(),
                    hash: H.into(),
                    size: 10,
                },
                ManifestFile {
                    path: "v.mp4".into(),
                    hash: H.into(),
                    size: 20 << 20,
                },
            ],
            preview: None,
        };
        assert!(manifest.check_limits(&ArchiveLimits::default()).is_ok());
        manifest.files[1].size = 26 << 20;
        assert!(matches!(
            manifest.check_limits(&ArchiveLimits::default()),
            Err(ArchiveError::FileTooLarge { .. })
        ));
    }

    #[test]
    fn a_manifest_may_name_a_preview_label_as_a_string() {
        let body =
            |preview: &str| format!(r#"{{"files": {{"docs.json": "{H}"}}, "preview": {preview}}}"#);
        assert_eq!(
            Manifest::parse(body("\"feature-x\"").as_bytes(), 5)
                .unwrap()
                .preview
                .as_deref(),
            Some("feature-x")
        );
        assert_eq!(
            Manifest::parse(body("null").as_bytes(), 5).unwrap().preview,
            None
        );
        assert_eq!(
            Manifest::parse(body("7").as_bytes(), 5).unwrap_err().path,
            "preview"
        );
        // Never stored with the version: the manifest's bytes are its files.
        let manifest = Manifest::parse(body("\"x\"").as_bytes(), 5).unwrap();
        assert!(!String::from_utf8(manifest.to_bytes())
            .unwrap()
            .contains("preview"));
    }

    #[test]
    fn hash_queries_are_bounded_and_checked() {
        assert_eq!(
            parse_hash_query(format!(r#"{{"hashes": ["{H}"]}}"#).as_bytes(), 5).unwrap(),
            [H]
        );
        assert_eq!(
            parse_hash_query(br#"{"hashes": ["x"]}"#, 5)
                .unwrap_err()
                .path,
            "hashes[0]"
        );
        assert!(
            parse_hash_query(format!(r#"{{"hashes": ["{H}", "{H}"]}}"#).as_bytes(), 1)
                .unwrap_err()
                .rule
                .contains("at most 1")
        );
        assert_eq!(parse_hash_query(b"{}", 5).unwrap_err().path, "hashes");
    }
}
