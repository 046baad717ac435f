//! The export's syntax highlighter: highlight.js in the builder script's JavaScript
//! (`highlight.mjs` beside this file, bundled into the script by worker-build's esbuild step), so
//! grammars and their regexes live on the JavaScript heap, not in the wasm linear memory a big
//! export fills. Core reads its answer strictly (`docs_edge_core::export::Highlight`).

use docs_edge_core::export::Highlight;
use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(module = "/src/builder/highlight.mjs")]
extern "C" {
    #[wasm_bindgen(js_name = highlight)]
    fn highlight_js(lang: &str, code: &str) -> Option<String>;
}

/// highlight.js with the grammars `highlight.mjs` registers.
pub struct HighlightJs;

impl Highlight for HighlightJs {
    fn highlight(&self, lang: &str, code: &str) -> Option<String> {
        highlight_js(lang, code)
    }
}
