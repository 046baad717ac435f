//! Secrets, signatures and limits: what stands between the service and a caller it should not
//! trust or should not let run unchecked.
//!
//! - [`signing`]: API keys stored as SHA-256 hashes and compared in constant time; download links
//!   carrying an HMAC-SHA256 over what they grant.
//! - [`presign`]: S3 SigV4 query-string presigning, for R2 download links R2 serves itself.
//! - [`origins`]: the sites an assistant key may be used from.
//! - [`ratelimit`]: the fixed-window arithmetic of the assistant's per-organization and per-IP
//!   limits (the counts live in the worker).
//! - [`turnstile`]: Cloudflare Turnstile's settings, when a request needs a token, and siteverify's
//!   wire format.

pub mod origins;
pub mod presign;
pub mod ratelimit;
pub mod signing;
pub mod turnstile;
