//! The builder script (`wrangler.builder.toml`, the `builder` feature): the `PublishJob` and
//! `ExportJob` objects and what they build with (export sources, search packs, icons, syntax
//! highlighting), and the work the request-serving script hands over through its service binding
//! (`crate::builder::service`): a site's file store, uploads, the rebuilds of earlier releases'
//! versions, the admin routes' work and the storage sweep. Nothing here is compiled into the
//! request-serving script.

pub mod admin;
pub mod export_icons;
pub mod export_job;
pub mod export_search;
pub mod export_source;
pub mod highlight;
pub mod hosted_pointer;
pub mod multipart;
pub mod native_sha;
pub mod preview;
pub mod publish_job;
pub mod rebuild;
pub mod service;
pub mod site_files;
pub mod sweep;
pub mod upload;
