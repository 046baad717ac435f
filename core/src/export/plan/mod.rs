//! Which pages an export renders, in what order, and everything derived from the site that more
//! than one page needs (link targets, navigation, language homes). Cheap to build, so every batch
//! (possibly in a fresh isolate) builds it again from the same inputs.

mod choice;
mod finish;
mod model;
mod render;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod version_tests;

pub use model::ExportPlan;
