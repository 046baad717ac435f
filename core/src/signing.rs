//! Key hashes and signed links.
