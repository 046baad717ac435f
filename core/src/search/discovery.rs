//! The answers of `POST /discovery/v1/search/{domain}` and `POST /discovery/v1/page/{domain}`, shared
//! by the worker and `docs-edge-serve`: the index's hits in the wire shape of the hosted service's
//! discovery API. The request bodies and their rules are in `search::api`.

use crate::wire::{PageContent, SearchMetadata, SearchResult};

use super::{Hit, PageDoc, Query, SearchRequest};

/// The search a discovery request runs (whichever form of the index runs it). `groups` are access
/// groups (who may see a page), not navigation groups; sites here have no access control, so every
/// page is public and the field restricts nothing.
pub fn discovery_query(request: &SearchRequest) -> Query<'_> {
    Query {
        text: &request.asked,
        limit: request.page_size,
        score_threshold: request.score_threshold,
        language: request.filter.language.as_deref(),
        version: request.filter.version.as_deref(),
        tag: request.filter.tag.as_deref(),
        groups: &[],
        near_path: None,
        current_version: None,
        follow_top: 0,
        by_meaning: true,
        semantic: None,
    }
}

/// Hits in the wire shape of search's answer.
pub fn discovery_results(hits: Vec<Hit>) -> Vec<SearchResult> {
    hits.into_iter()
        .map(|hit| SearchResult {
            content: hit.text,
            path: hit.path,
            metadata: SearchMetadata {
                title: hit.title,
                heading: hit.heading,
                anchor: hit.anchor,
                language: hit.language,
                version: hit.version,
                groups: hit.groups,
                score: hit.score,
            },
        })
        .collect()
}

/// A page in the wire shape of page's answer.
pub fn page_content(doc: PageDoc) -> PageContent {
    PageContent {
        path: doc.path,
        content: doc.text,
    }
}
