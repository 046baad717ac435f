//! Hashes this crate's source into `DOCS_EDGE_CORE_SOURCE_HASH`: a publish reuses a page parsed by
//! an earlier one only when the same code parsed it (`publish::parsed`).

include!("source_hash.rs");

fn main() {
    println!(
        "cargo:rustc-env=DOCS_EDGE_CORE_SOURCE_HASH={:016x}",
        source_hash(&["src"])
    );
}
