// A hash of source files for a build script (`include!`d by core's and the worker's build.rs):
// SipHash with fixed keys over each file's path and bytes, so the same files give the same value
// on every machine. Each input is a file or a folder (every file under it); cargo is told to run
// the build script again when any of them changes.

fn source_hash(inputs: &[&str]) -> u64 {
    let mut files = Vec::new();
    for input in inputs {
        println!("cargo:rerun-if-changed={input}");
        collect(std::path::Path::new(input), &mut files);
    }
    files.sort();
    let mut hasher = std::hash::DefaultHasher::new();
    for path in &files {
        std::hash::Hash::hash(&path.to_string_lossy().replace('\\', "/"), &mut hasher);
        std::hash::Hash::hash(&std::fs::read(path).unwrap_or_default(), &mut hasher);
    }
    std::hash::Hasher::finish(&hasher)
}

/// `path` if it is a file, else every file under it.
fn collect(path: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(path) else {
        if path.is_file() {
            out.push(path.to_path_buf());
        }
        return;
    };
    for entry in entries.flatten() {
        collect(&entry.path(), out);
    }
}
