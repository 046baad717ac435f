//! The semantic stage beside BM25. A static embedding model (one vector per WordPiece token,
//! distilled from all-MiniLM-L6-v2 by `scripts/embeddings/distill.py`; no network and no model run
//! at query time) gives each chunk a vector at publish, stored in the search meta, and the query one
//! at search. `query::rank` fuses their cosine with the BM25 score, so a section that says what
//! was asked in other words can rank above one that merely repeats the question's words. Measured on every eval set in
//! `docs/assistant/quality.mdx`.

mod model;
mod vectors;
mod wordpiece;

pub use model::{ModelError, StaticModel};
pub use vectors::ChunkVectors;

/// The model's file, in `core/models/`: compiled in with `embedded-static` (docs-edge-serve, the
/// tests and examples); the worker reads it from its assets, where scripts/build-worker.mjs copies
/// it.
pub const MODEL_FILE: &str = "minilm-l6-static-64.bin";

/// The model compiled in, parsed once per process.
#[cfg(feature = "embedded-static")]
pub fn embedded_model() -> &'static StaticModel<'static> {
    static BYTES: &[u8] = include_bytes!("../../../models/minilm-l6-static-64.bin");
    static MODEL: std::sync::OnceLock<StaticModel<'static>> = std::sync::OnceLock::new();
    MODEL.get_or_init(|| StaticModel::parse(BYTES, 0).unwrap_or_else(|_| StaticModel::empty()))
}

/// The cosine's share of a fused score, after the cosines of the query's candidates are stretched
/// over the best BM25 score (`query::fuse_semantic`).
pub(crate) const SEMANTIC_WEIGHT: f32 = 0.3;
