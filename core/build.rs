//! Hashes this crate's source into `DOCS_EDGE_CORE_SOURCE_HASH`: a publish reuses a page parsed by
//! an earlier one only when the same code parsed it (`publish::parsed`).

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=src");
    let mut files = Vec::new();
    collect(Path::new("src"), &mut files);
    files.sort();
    // SipHash with fixed keys: the same source gives the same value on every machine.
    let mut hasher = DefaultHasher::new();
    for path in &files {
        path.to_string_lossy().replace('\\', "/").hash(&mut hasher);
        std::fs::read(path).unwrap_or_default().hash(&mut hasher);
    }
    println!(
        "cargo:rustc-env=DOCS_EDGE_CORE_SOURCE_HASH={:016x}",
        hasher.finish()
    );
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}
