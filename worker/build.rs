//! Hashes what the builder renders pages with beyond core (this crate's source: the icon fill and
//! highlight.js's glue; the dependency versions in Cargo.lock; highlight.js and the icon packages in
//! package-lock.json) into `DOCS_EDGE_WORKER_SOURCE_HASH`: a hosted site's export takes a batch of
//! pages from the live export only when the same code rendered it (`builder::export_job::batch_reuse`).

include!("../core/source_hash.rs");

fn main() {
    println!(
        "cargo:rustc-env=DOCS_EDGE_WORKER_SOURCE_HASH={:016x}",
        source_hash(&["src", "../Cargo.lock", "../package-lock.json"])
    );
}
