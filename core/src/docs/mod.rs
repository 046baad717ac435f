//! Docs sites: a `.tar.gz` of a docs folder (docs.json + MDX pages) into a [`Site`].
//!
//! `archive` reads the upload safely, `config` reads docs.json navigation, `frontmatter` and `mdx` read
//! pages, `site` puts them together.

pub mod model;

pub use model::{Page, Section, Site};
