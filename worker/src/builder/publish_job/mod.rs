//! The `PublishJob` object itself (the builder script only): its record, its steps and their R2 I/O.
//! Its messages and client, which both scripts compile, are `crate::shared::durable::publish_job`.

mod concat;
mod job;
mod limits;
mod live_sources;
mod record;
mod remote_specs;
mod reuse;
mod site_export;
mod step_error;
mod steps;
mod store;
