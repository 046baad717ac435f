//! The `PublishJob` object itself (the builder script only): its record, its steps and their R2 I/O.

mod job;
mod limits;
mod live_sources;
mod record;
mod remote_specs;
mod step_error;
mod steps;
mod store;
