//! A hosted export that writes only what changed: its files whose bytes differ from the export
//! served before it go under its own prefix, and every other file is read from its *base*, the
//! last export written whole. The live pointer ([`super::hosting::LiveSite`]) names the base and
//! the paths the export holds itself (`changed`: those it wrote, and the base's files it no
//! longer has), so serving a path is one lookup in a sorted list, then one read.
//!
//! Each export is layered on the base of the one before it, not on that export itself: the
//! export before may hold files of its own (its `changed`), which the new one writes again when it
//! still has them, so a file is always under one of two prefixes, never a chain. `changed` thus
//! grows with the changes since the base; past [`MAX_CHANGED_BYTES`] an export is written whole
//! and becomes the next base.
//!
//! The delta listing's content-addressed objects (`super::delta`) follow the same rule: an object
//! the base holds is not written again.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::delta::DELTA_DIR;

/// Most bytes of `changed` paths (with a separator each) an export layered on a base may name:
/// the pointer, read by every serving isolate every few seconds, stays small (its previous
/// export's list travels in it too), and the builder keeps the list in its job record.
pub const MAX_CHANGED_BYTES: usize = 48 << 10;

/// The export holding `path` of an export `export_id` layered on `base` with its `changed` paths
/// (sorted): the export itself for a changed path or when it has no base, else the base.
pub fn export_holding<'a>(
    export_id: &'a str,
    base: Option<&'a str>,
    changed: &[String],
    path: &str,
) -> &'a str {
    match base {
        Some(base) if changed.binary_search_by(|p| p.as_str().cmp(path)).is_err() => base,
        _ => export_id,
    }
}

/// Bytes a list of paths takes against [`MAX_CHANGED_BYTES`].
pub fn changed_bytes<'a>(paths: impl IntoIterator<Item = &'a String>) -> usize {
    paths.into_iter().map(|p| p.len() + 1).sum()
}

/// The live export a new export is layered on, as the builder reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LayeredOn {
    /// The export served when the new one started.
    pub previous_id: String,
    /// Its base (itself when it was written whole): the new export's base.
    pub base: String,
    /// The paths the previous export holds itself (sorted).
    pub previous_changed: Vec<String>,
}

impl LayeredOn {
    /// Layered on the export `previous_id` (with its `base` and `changed`); `None` when its own
    /// changes already fill [`MAX_CHANGED_BYTES`] (the new export is written whole).
    pub fn new(previous_id: &str, base: Option<&str>, changed: &[String]) -> Option<LayeredOn> {
        (changed_bytes(changed) <= MAX_CHANGED_BYTES / 2).then(|| LayeredOn {
            previous_id: previous_id.to_string(),
            base: base.unwrap_or(previous_id).to_string(),
            previous_changed: changed.to_vec(),
        })
    }

    /// Whether the base holds the previous export's `path` (the previous export did not write it).
    pub fn in_base(&self, path: &str) -> bool {
        self.previous_changed
            .binary_search_by(|p| p.as_str().cmp(path))
            .is_err()
    }

    /// The export holding the previous export's `path`.
    pub fn previous_holding(&self, path: &str) -> &str {
        if self.in_base(path) {
            &self.base
        } else {
            &self.previous_id
        }
    }

    /// Whether the new export writes `path`, whose bytes hash to `sha256`, when the previous
    /// export's file there hashed to `previous_sha256`: unless the base holds the same bytes.
    pub fn writes(&self, path: &str, sha256: &str, previous_sha256: Option<&str>) -> bool {
        previous_sha256 != Some(sha256) || !self.in_base(path)
    }

    /// The new export's `changed`: the paths it `written`, and the files of the previous export
    /// or of the base (`previous_files`, and the previous export's own changed) that it lacks,
    /// so they are not read from the base. Sorted, each once.
    pub fn changed(
        &self,
        written: &[String],
        previous_files: impl IntoIterator<Item = String>,
        has: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let mut changed: BTreeSet<String> = written.iter().cloned().collect();
        let gone = previous_files
            .into_iter()
            .chain(self.previous_changed.iter().cloned())
            // The listing's own objects are named by their hash: one the export does not list is
            // never asked for by its listing, and the base's copy of it is the same bytes.
            .filter(|path| !path.starts_with(DELTA_DIR) && !has(path));
        changed.extend(gone);
        changed.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(list: &[&str]) -> Vec<String> {
        list.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn layers_a_path_is_read_from_the_export_that_holds_it() {
        let changed = paths(&["a.html", "c.html"]);
        assert_eq!(
            export_holding("se_2", Some("se_1"), &changed, "a.html"),
            "se_2"
        );
        assert_eq!(
            export_holding("se_2", Some("se_1"), &changed, "b.html"),
            "se_1"
        );
        assert_eq!(export_holding("se_2", None, &changed, "b.html"), "se_2");
    }

    #[test]
    fn layers_an_export_writes_what_the_base_does_not_hold_the_same() {
        let written_whole = LayeredOn::new("se_1", None, &[]).unwrap();
        assert_eq!(written_whole.base, "se_1");
        assert!(!written_whole.writes("a.html", "x", Some("x")));
        assert!(written_whole.writes("a.html", "y", Some("x")));
        assert!(written_whole.writes("new.html", "y", None));

        // se_2 wrote a.html over se_1 and dropped gone.html: se_3 is layered on se_1 still, and
        // writes a.html again though its bytes are se_2's, since se_1 does not hold them.
        let layered =
            LayeredOn::new("se_2", Some("se_1"), &paths(&["a.html", "gone.html"])).unwrap();
        assert_eq!(layered.base, "se_1");
        assert_eq!(layered.previous_holding("a.html"), "se_2");
        assert_eq!(layered.previous_holding("b.html"), "se_1");
        assert!(layered.writes("a.html", "x", Some("x")));
        assert!(!layered.writes("b.html", "x", Some("x")));
        let has = |p: &str| ["a.html", "b.html", "new.html"].contains(&p);
        let changed = layered.changed(
            &paths(&["new.html", "a.html", "_docs-edge/delta/objects/n.bin"]),
            paths(&[
                "a.html",
                "b.html",
                "c.html",
                "_docs-edge/delta/objects/o.bin",
            ]),
            has,
        );
        assert_eq!(
            changed,
            paths(&[
                "_docs-edge/delta/objects/n.bin",
                "a.html",
                "c.html",
                "gone.html",
                "new.html"
            ]),
            "what it wrote, and every file it lacks, the base's or the previous export's"
        );
    }

    #[test]
    fn layers_an_export_is_written_whole_once_the_changes_since_the_base_are_many() {
        let many: Vec<String> = (0..2000).map(|i| format!("page-{i}.html")).collect();
        assert!(changed_bytes(&many) > MAX_CHANGED_BYTES / 2);
        assert_eq!(LayeredOn::new("se_2", Some("se_1"), &many), None);
    }
}
