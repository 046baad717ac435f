//! A batch's share of the offline search index, made where the batch is rendered and stored with
//! its products (`crate::export::site::page_products`): its pages' documents and, per term, the
//! documents counted and the best-weighted ones kept, numbered within the batch. The finishing
//! step merges the shares in export order instead of reading every page's words again; the index
//! is the same (a term's best documents over the site are among the best of each batch, and the
//! kept ones are chosen by weight and document alone, not by the order they come in).

use serde::{Deserialize, Serialize};

use super::{SearchIndex, TermPostings};

/// One batch's share of the index ([`SearchIndex::into_partial`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct SearchPartial {
    keys: Vec<KeyPartial>,
}

/// A batch's share of one index (a language, or a language and version).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct KeyPartial {
    key: String,
    /// Per page, its documents as `[title, heading, url, snippet]`.
    pages: Vec<Vec<[String; 4]>>,
    /// Per term, sorted.
    terms: Vec<TermPartial>,
}

/// A term, the documents counted, and the kept ones as (document, weight) in document order,
/// numbered from the batch's first document of its index.
type TermPartial = (String, u32, Vec<(u32, u32)>);

impl SearchIndex {
    /// An index of one batch's pages, for [`SearchIndex::into_partial`].
    pub(crate) fn for_batch() -> Self {
        SearchIndex {
            batch: true,
            ..SearchIndex::default()
        }
    }

    /// The share of a [`SearchIndex::for_batch`] index its pages were added to.
    pub(crate) fn into_partial(self) -> SearchPartial {
        let keys = self
            .by_language
            .into_iter()
            .map(|(key, index)| {
                let mut terms: Vec<TermPartial> = index
                    .postings
                    .into_iter()
                    .map(|(term, mut postings)| {
                        postings.close();
                        let mut kept: Vec<(u32, u32)> = postings
                            .kept
                            .into_iter()
                            .map(|std::cmp::Reverse((weight, std::cmp::Reverse(doc)))| {
                                (doc, weight)
                            })
                            .collect();
                        crate::sort::sort(&mut kept);
                        (term, postings.df as u32, kept)
                    })
                    .collect();
                crate::sort::sort_by(&mut terms, |a, b| a.0.cmp(&b.0));
                KeyPartial {
                    key,
                    pages: index.open_pages,
                    terms,
                }
            })
            .collect();
        SearchPartial { keys }
    }

    /// Adds a batch's pages from their [`SearchPartial`], after the pages added before.
    pub(crate) fn merge(&mut self, partial: SearchPartial) {
        for part in partial.keys {
            let index = self.language(part.key);
            let added: usize = part.pages.iter().map(Vec::len).sum();
            if u32::try_from(added)
                .ok()
                .and_then(|n| index.docs.checked_add(n))
                .is_none()
            {
                continue;
            }
            let first = index.docs;
            for page in part.pages {
                index.start_page();
                for doc in page {
                    index.push_doc(doc);
                }
            }
            for (term, df, kept) in part.terms {
                let kept = kept.into_iter().map(|(doc, weight)| (first + doc, weight));
                // A term seen before (most are) is found without moving its key in.
                match index.postings.get_mut(&term) {
                    Some(postings) => postings.merge(df, kept),
                    None => index.postings.entry(term).or_default().merge(df, kept),
                }
            }
        }
    }
}

impl TermPostings {
    /// Adds documents after every one added so far, each with its final weight.
    fn merge(&mut self, df: u32, kept: impl Iterator<Item = (u32, u32)>) {
        self.close();
        self.df += df as usize;
        for posting in kept {
            self.open = Some(posting);
            self.close();
        }
    }
}
