//! The assistant: request rules, retrieval query, answer composition and LLM provider wire formats.

pub mod encode;
pub mod extractive;
mod fences;
pub mod guide;
pub mod offline;
pub mod passage;
pub mod prompt;
pub mod providers;
pub mod query;
pub mod refusal;
pub mod regenerate;
pub mod request;
pub mod resume;
pub mod session;
pub mod suggest;
