//! Static export: a [`Site`] and its [`SourceTree`] -> the files of a self-contained HTML/CSS/JS
//! website, packed as one `.tar.gz` that any static host serves.
//!
//! Made for a caller that renders in batches across Durable Object alarms, each possibly in a fresh
//! isolate: everything is recomputed from the inputs, and the same inputs give the same bytes.
//!
//! ```text
//! let plan = ExportPlan::new(&site, &tree, &options)?;          // cheap; again in every batch
//! // highlighter: the host's `impl Highlight` (highlight.js in the builder script), or PlainCode
//! bundle += tar_gz_member(&plan.render_pages(&site, &tree, 0..100, &highlighter), options.mtime);
//! bundle += tar_gz_member(&plan.render_pages(&site, &tree, 100..200, &highlighter), options.mtime);  // ...
//! bundle += tar_gz_member(&plan.finishing_files(&site, &tree), options.mtime);
//! bundle += tar_gz_trailer();
//! ```
//!
//! The exported site (files at the archive root):
//! - `a/b.html` for page `a/b`, `index.html` for the home page; every page of the chosen version in
//!   all languages (or only `paths`). Without a page at `/`, `index.html` leads to the home page;
//!   the site's `redirects` become `_redirects` and a stub page per literal source (see `site::stubs`).
//!   Links between exported pages are relative `.html` links; links to pages not exported are
//!   absolute extensionless URLs on `domain`. Canonical URLs and `sitemap.xml` use extensionless
//!   absolute URLs; `robots.txt` names the sitemap; `404.html`.
//! - Each page's sidebar opens only its own section; other sections are label links to their first
//!   page, so page size depends on the section, not the site (see `site::nav`). Tabs of many sections
//!   also get `_static/contents/<n>-<tab>.html`, listing every page of the tab.
//! - `_static/site.css` (docs.json colours, light and dark themes), `_static/site.js` (theme toggle,
//!   tabs, copy buttons, search), `_static/search/<lang>/…` (sharded offline index, see
//!   [`search_index`]), and the tree files pages reference as media or downloads, at their tree
//!   paths: passive types only (`render::links::PASSIVE_EXTENSIONS`); `.html`, `.js` and other active files
//!   are never copied, SVG images are inlined into `<img>` as `data:` URLs (see `render::links`).
//! - `a/b.md` next to every page (the page as Markdown, links to the other `.md` files) unless
//!   [`MarkdownPages::LlmsFull`] (the default past [`MARKDOWN_PAGES_DEFAULT_MAX`] pages), and
//!   `llms.txt` and `llms-full.txt` at the root (see [`crate::agents::llms`]).
//! - No page requests anything outside the bundle: images and embeds from other hosts become links.
//!   Two optional [`PageExtras`] change that, each absent from the bundle when off: the analytics
//!   beacon (page views and searches to the service; only when the start request asks) and the API
//!   playground, which calls the API only when the reader presses Send.
//!
//! The stages, each a folder whose `mod.rs` says what it holds:
//! - `plan` ([`ExportPlan`]): which pages an export renders, in what order, and what more than one page
//!   needs; it drives the stages below.
//! - `render`: a page's MDX body -> HTML (Markdown, components, code, math, diagrams, embeds, the
//!   inline-HTML sanitizer) and where its URLs point inside the bundle (`links`).
//! - `page`: the page around the body: layout, chrome, styles, icons and the site's look.
//! - `reference`: the API reference of endpoint pages, from the OpenAPI document.
//! - `site`: what spans the pages: navigation, versions, the offline search index, the files for
//!   agents, redirects and stubs, and the finishing files gathered a batch at a time.
//! - `bundle`: the `.tar.gz` and what travels with it: gzip members, batches, the manifest, the
//!   export's own static files, hosting, and the job's step attempts.
//!
//! `html` (escaping) is the leaf every stage writes with. [`api`] is the export API's own rules
//! apart from rendering (start request, job ids, progress, bundle name), kept with the export it
//! serves.

// Without the `utilities` feature (the request-serving script, which never exports) no page is
// rendered (`ExportPlan::render_pages` needs the utility-class generator), so the renderer's
// modules go unused there and the linker drops them.
#![cfg_attr(not(feature = "utilities"), allow(dead_code, unused_imports))]

use std::fmt;

#[cfg(feature = "embedded-static")]
use crate::docs::{Site, SourceTree};
use crate::platform::deployment::Features;

pub mod api;
mod bundle;
mod html;
mod page;
mod plan;
mod reference;
pub(crate) mod render;
mod site;

#[cfg(test)]
mod hostile_tests;
#[cfg(test)]
pub(crate) mod tests;

pub use bundle::archive::{tar_gz_entry_piece, tar_gz_member, tar_gz_trailer};
pub use bundle::attempts::{
    after_step, AfterError, AfterStep, BeforeStep, StepAttempts, MAX_STEP_ATTEMPTS,
};
pub use bundle::batch::{batch_files, batch_tree, read_by_every_batch, shared_files};
pub use bundle::file::ExportFile;
pub use bundle::manifest::{
    BundleManifest, SearchIndexFormat, MANIFEST_FILE, MANIFEST_FORMAT, SEARCH_INDEX_FILE,
};
pub use bundle::static_files::StaticFiles;
pub use bundle::{attempts, delta, hosting, layers, segments};
pub use page::extras::PageExtras;
pub use page::layout::{content_security_policy, content_security_policy_remote};
pub use page::{icons, widget};
pub use plan::ExportPlan;
pub use render::code::{Highlight, PlainCode};
pub use render::embeds;
pub use render::links::bundle_path;
use site::agent::LLMS_FULL_FILE;
pub use site::agent::{markdown_file, MarkdownPages, MARKDOWN_PAGES_DEFAULT_MAX};
pub use site::finishing::{FinishedMembers, FinishingMembers};
pub use site::finishing_pages::FinishingPages;
pub use site::page_products::BatchProducts;
pub use site::search_index::search_bytes_for_query;
pub use site::search_packs::{PackCursor, PackPiece, PACK_PIECE_BYTES, SEARCH_PACK_FILES};
pub use site::versions::ExportVersions;
pub use site::{redirects, search_index};

/// What to export.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportOptions {
    /// Version label; `None` is the site's default version (or everything when unversioned).
    pub version: Option<String>,
    /// More versions than `version`: every one (`All`) or those named, each under its own paths,
    /// with a version switch on every page. `None`: `version` alone.
    pub versions: Option<ExportVersions>,
    /// Page paths (`guides/x`, `/guides/x`, `index`); only these are rendered and shown in the
    /// navigation. `None` exports every page of the version.
    pub paths: Option<Vec<String>>,
    /// Host (optionally with a path prefix) of the live site, for canonical, sitemap and links to
    /// pages not exported: `https://{domain}/a/b`.
    pub domain: String,
    /// Modification time of every tar entry (the job's creation time), so output is reproducible.
    pub mtime: u64,
    /// The deployment's switches: a feature that is off leaves no trace in the pages (no search box
    /// and no search index without search).
    pub features: Features,
    /// `.md` files beside the pages; `None`: [`MarkdownPages::resolve`]'s default for the page count.
    pub markdown: Option<MarkdownPages>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExportError {
    UnknownVersion {
        /// The start request's field that names it: `version` or `versions`.
        field: &'static str,
        version: String,
        available: Vec<String>,
    },
    UnknownPaths {
        paths: Vec<String>,
    },
    InvalidDomain {
        domain: String,
    },
    /// The chosen version has no pages.
    NoPages,
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownVersion {
                field,
                version,
                available,
            } if available.is_empty() => {
                write!(
                    f,
                    "{field}: unknown version `{version}`: the site is not versioned"
                )
            }
            Self::UnknownVersion {
                field,
                version,
                available,
            } => write!(
                f,
                "{field}: unknown version `{version}` (versions: {})",
                available.join(", ")
            ),
            Self::UnknownPaths { paths } => {
                write!(f, "unknown page paths: {}", paths.join(", "))
            }
            Self::InvalidDomain { domain } => write!(f, "invalid domain `{domain}`"),
            Self::NoPages => f.write_str("nothing to export: the version has no pages"),
        }
    }
}

impl std::error::Error for ExportError {}

/// Renders a whole export in one go (tests, the example, small sites): page files in plan order,
/// then the finishing files.
#[cfg(feature = "embedded-static")]
pub fn export_files(
    site: &Site,
    tree: &SourceTree,
    options: &ExportOptions,
) -> Result<Vec<ExportFile>, ExportError> {
    export_files_with_icons(site, tree, options, &icons::IconShards::default())
}

/// [`export_files`] with icons from `shards` (names they lack become the fallback dot); the
/// licences of the sets used are not added (the caller has their texts).
#[cfg(feature = "embedded-static")]
pub fn export_files_with_icons(
    site: &Site,
    tree: &SourceTree,
    options: &ExportOptions,
    shards: &icons::IconShards,
) -> Result<Vec<ExportFile>, ExportError> {
    let plan = ExportPlan::new(site, tree, options)?;
    let mut files = plan.render_pages(site, tree, 0..plan.page_count(), &PlainCode);
    let library = icons::Library::from_config(site.config.icon_library.as_deref());
    let mut chrome = plan.chrome_pages(site, tree);
    icons::fill(&mut files, library, shards, tree);
    icons::fill(&mut chrome, library, shards, tree);
    files.extend(plan.finishing_files_around(site, tree, &StaticFiles::EMBEDDED, chrome));
    Ok(files)
}
