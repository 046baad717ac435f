//! Docs sites: a `.tar.gz` of a docs folder (docs.json + MDX pages) into a [`Site`].
//!
//! `archive` reads the upload safely, `config` reads docs.json or the legacy mint.json (`mint`) with
//! their settings (`settings`, unknown keys warned about by `keys`; the navigation tree lives in
//! `nav`, OpenAPI operations it names become pages by `endpoint`),
//! `frontmatter` and `mdx` read pages (`jsx` scans the JSX inside them, `sections` turns them into
//! search text with `slug` anchors), `site` puts them together; `skill_file` reads the owner's root `skill.md`, which is not a page.

pub mod archive;
pub mod assistant_files;
#[cfg(test)]
mod authoring_tests;
pub mod config;
pub mod config_lines;
pub mod endpoint;
pub mod file_kind;
#[cfg(test)]
mod fixture_tests;
pub mod frontmatter;
pub mod ignore;
pub(crate) mod inline_text;
pub mod js_value;
pub mod jsx;
pub mod keys;
#[cfg(test)]
mod linear_tests;
pub mod mdx;
mod mint;
pub mod model;
pub mod nav;
pub mod openapi_nav;
pub mod operations;
pub mod outline;
pub mod own_keys;
pub mod packed;
pub mod page_path;
pub mod public_skills;
pub(crate) mod scope;
pub mod search_visibility;
pub mod sections;
pub mod settings;
#[cfg(test)]
mod shape_tests;
pub mod site;
pub mod site_config;
pub mod skill_file;
pub mod slug;
pub(crate) mod snippets;
pub mod source_text;
pub mod spec_lookup;
pub mod unpack;
pub(crate) mod walk;
pub mod yaml_budget;

pub use archive::{pack_tree, read_docs_archive, ArchiveError, ArchiveLimits, SourceTree};
pub use config::{ConfigError, SiteConfig};
pub use ignore::Ignore;
pub use model::{Page, Section, Site};
pub use nav::{Division, DivisionKind, Endpoint, NavItem, OpenApiSource};
pub use outline::{SiteOutline, SitePlan};
pub use packed::{FileTable, PackWriter};
pub use site::{build_site, SiteError};
pub use unpack::Unpacker;
