//! Docs for agents (LLMs and their tools) rather than for people in a browser.
//!
//! - [`llms`]: `llms.txt`, `llms-full.txt` and each page's Markdown, for the live site and the
//!   static export alike.
//! - [`mcp`]: the MCP server of a docs site (JSON-RPC in, replies out, tool calls handed to the
//!   worker).
//! - `markdown`: a page rendered as Markdown, which the other two (and the export's `page.md`
//!   files) share; crate-private.
//! - `summary`: each page's one-line summary, which `llms.txt` and the site outline share;
//!   crate-private.

pub mod llms;
pub(crate) mod markdown;
pub mod mcp;
pub(crate) mod summary;
