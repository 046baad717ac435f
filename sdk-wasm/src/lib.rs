//! The wasm half of the browser and Node SDK (`sdk-wasm/js/` is the other half): the stream
//! parser, the core crate's stream layer built without its server feature, so the worker and the
//! SDK share one definition of both stream formats. It stays off serde, whose derived code for
//! every wire type was most of the package (docs/engineering/decisions.mdx, "The SDK parser checks
//! shapes without building values").
//!
//! - [`decoder`]: incremental v4 data stream / v5+ UI message stream parser, one batch per push.
//! - [`batch`]: the compact form a batch crosses into JavaScript in.
//! - [`requests`]: the key kinds.

pub mod batch;
pub mod decoder;
pub mod requests;

#[cfg(test)]
mod decoder_fuzz;
#[cfg(test)]
mod decoder_tests;

/// Called once by the JS loader. Panics cannot come from input (decoders report errors as
/// events), but with the `panic-hook` feature a bug would at least print its message.
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    #[cfg(feature = "panic-hook")]
    console_error_panic_hook::set_once();
}
