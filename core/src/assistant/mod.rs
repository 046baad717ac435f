//! The assistant: request rules, retrieval query, answer composition and LLM provider wire formats.

pub mod request;
pub mod encode;
pub mod regenerate;
pub mod session;
pub mod suggest;
pub mod resume;
pub mod passage;
pub mod query;
pub mod extractive;
pub mod guide;
pub mod offline;
pub mod prompt;
pub mod providers;
