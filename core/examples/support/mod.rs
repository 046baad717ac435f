//! What the examples share: reading a docs folder from disk into a source tree.
use std::collections::BTreeMap;
use std::path::Path;

pub fn read_folder(root: &Path, dir: &Path, tree: &mut BTreeMap<String, Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            read_folder(root, &path, tree);
        } else if let (Ok(rel), Ok(bytes)) = (path.strip_prefix(root), std::fs::read(&path)) {
            tree.insert(rel.to_string_lossy().replace('\\', "/"), bytes);
        }
    }
}
