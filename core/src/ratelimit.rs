//! Fixed-window request counting.
