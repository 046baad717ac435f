//! How the service runs where it is deployed, sans IO: which features a deployment has on, what
//! storage it sweeps, and how much an isolate keeps in memory.
//!
//! - [`deployment`]: deployment kinds (cloud, client-hosted, air-gapped) and their feature switches.
//! - [`retention`]: what the daily storage sweep deletes; [`store_sweep`]: which files of a site's
//!   content-addressed store it deletes.
//! - [`lru`]: the byte-bounded LRU cache an isolate keeps of the sites it serves.
//!
//! `lru` is built without the `server` feature too (it needs nothing beyond std), as it was before
//! it moved here; the others need `server`.

pub mod lru;

#[cfg(feature = "server")]
pub mod deployment;
#[cfg(feature = "server")]
pub mod retention;
#[cfg(feature = "server")]
pub mod store_sweep;
