//! The assistant: request rules, retrieval query, answer composition and LLM provider wire formats.

pub mod request;
