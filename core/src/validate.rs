//! Field-path validation errors.
