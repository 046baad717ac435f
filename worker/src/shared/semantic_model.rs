//! The search's semantic stage model (core's `search::semantic`), read from the assets once per
//! isolate and kept for its life (2.2 MB of rows, the vocabulary's order beside them): the builder
//! embeds a publish's chunks with it, the request-serving script each query. Without it (an asset
//! that does not load) search is BM25 alone, as for a version published before the stage.

use std::cell::OnceCell;

use docs_edge_core::search::semantic::{StaticModel, MODEL_FILE};
use worker::Env;

use crate::shared::assets;

/// Where scripts/build-worker.mjs copies `core/models/` among the assets.
const MODEL_DIR: &str = "semantic";

type Model = Option<&'static StaticModel<'static>>;

thread_local! {
    static MODEL: OnceCell<Model> = const { OnceCell::new() };
}

/// The model, read on the isolate's first call.
pub async fn load(env: &Env) -> Model {
    if let Some(model) = MODEL.with(|m| m.get().copied()) {
        return model;
    }
    let model = read(env).await;
    MODEL.with(|m| *m.get_or_init(|| model))
}

async fn read(env: &Env) -> Model {
    let path = format!("{MODEL_DIR}/{MODEL_FILE}");
    let bytes = match assets::fetch(env, &path).await {
        Ok(mut asset) => asset.bytes().await.ok()?,
        Err(e) => {
            worker::console_warn!("semantic model: {e}; search runs on BM25 alone");
            return None;
        }
    };
    // Kept for the isolate's life, so the model can borrow it without a lifetime to carry; leaked
    // as it is (a boxed slice could copy it to shed spare capacity: 2.2 MB more at the high-water).
    let bytes: &'static [u8] = bytes.leak();
    match StaticModel::parse(bytes, 0) {
        Ok(model) => Some(Box::leak(Box::new(model))),
        Err(e) => {
            worker::console_warn!("semantic model {path}: {e:?}; search runs on BM25 alone");
            None
        }
    }
}
