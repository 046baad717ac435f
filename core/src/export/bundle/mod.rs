//! Bundle: the `.tar.gz` and what travels with it. `file` is one file of it, `archive` its gzip
//! members, `batch` what one batch of pages reads, `manifest` the bundle's own description,
//! `static_files` the export's stylesheets and scripts, `hosting` the setting that serves a domain
//! from an export, `delta` its files listed by hash for mirrors, `layers` a hosted export written as its changes over a base, `segments` its large files stored as groups of their chunks, and `attempts` the export job's step attempts.

pub(super) mod archive;
pub mod attempts;
pub(super) mod batch;
pub mod delta;
pub(super) mod file;
pub mod hosting;
pub mod layers;
pub(super) mod manifest;
pub mod segments;
pub(super) mod static_files;
