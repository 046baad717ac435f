//! What both Worker scripts compile: configuration and bindings, the error type, HTTP helpers, the R2
//! layout (`storage`) and published sites' records (`sites`), the Durable Objects' clients and the
//! messages of the builder's objects (`durable`, `durable_client`), the orders the request-serving
//! script sends through the builder's service binding (`builder_orders`), and small utilities (clock,
//! randomness, logging, memory, joins). Nothing here imports from `crate::edge` or `crate::builder`
//! but under that script's feature.

pub mod analytics_store;
pub mod assets;
pub mod builder_orders;
pub mod clock;
pub mod config;
pub mod directory;
pub mod durable;
pub mod durable_client;
pub mod error;
pub mod exports;
pub mod http;
pub mod join;
pub mod log_line;
pub mod memory;
pub mod pieced;
pub mod random;
pub mod semantic_model;
pub mod sites;
pub mod storage;
