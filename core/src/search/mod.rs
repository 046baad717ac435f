//! Search over a published site: build once at publish time, query from the isolate cache.
//!
//! `chunk` cuts pages into sections, `tokenize` turns text into terms (`crate::text`'s index and
//! query analyzers), `index` builds the term dictionary and postings, `score` is BM25F with the
//! 0-1 normalisation, `language` reads the query's language from the index, `version` the site's versions, `page_kind` its changelogs and references, `query` runs a search,
//! `page` serves whole pages back, `codec` is the byte format of the whole index, `shard` the same index split so a reader (the worker, from R2;
//! docs-edge-serve, from the bundle's files) reads only what a query needs. `api` holds the
//! discovery endpoints' request bodies with their rules, `discovery` their answers.

pub mod api;
mod chunk;
pub(crate) mod codec;
mod dict;
mod discovery;
mod index;
mod language;
mod page;
pub(crate) mod page_kind;
mod postings;
mod query;
mod score;
pub mod semantic;
pub mod shard;
mod tokenize;
mod version;

pub use api::{parse_page_request, parse_search_request, PageFormat, PageRequest, SearchRequest};
pub use codec::{IndexError, FORMAT_VERSION};
pub use discovery::{discovery_query, discovery_results, page_content};
pub use index::SearchIndex;
pub(crate) use page::normalize_path;
pub use page::{PageDoc, PageEntry};
pub use query::{Hit, Query, Ranked};

#[cfg(test)]
mod bench;
#[cfg(test)]
mod fixture;
#[cfg(test)]
mod test_rng;
#[cfg(test)]
mod tests;
