//! What the JavaScript clients ask of the core crate besides the stream parser. Request and
//! response shapes are not checked here: the server checks every request (and answers 400 with the
//! field and the rule), and carrying every wire type's serde code would double the package.

use docs_edge_core::wire::KeyKind;
use wasm_bindgen::prelude::*;

/// `"assistant"`, `"admin"`, or `undefined` for a key that is not one of ours.
#[wasm_bindgen(js_name = keyKind)]
pub fn key_kind(key: &str) -> Option<String> {
    KeyKind::of_key(key).map(|kind| {
        match kind {
            KeyKind::Assistant => "assistant",
            KeyKind::Admin => "admin",
        }
        .to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_kinds_follow_the_prefixes() {
        assert_eq!(key_kind("svc_dsc_abc").as_deref(), Some("assistant"));
        assert_eq!(key_kind("svc_abc").as_deref(), Some("admin"));
        assert_eq!(key_kind("mint_abc"), None);
    }
}
