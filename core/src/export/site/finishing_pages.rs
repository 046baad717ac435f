//! The pages' share of the finishing files, gathered a page at a time in export order: their
//! offline search index, `llms-full.txt` and the assets they reference. Below the plan, which fills
//! it ([`crate::export::FinishingMembers::add_products`]) and writes the finishing files from it;
//! `finishing` drives the two a batch at a time.

use std::collections::{BTreeMap, BTreeSet};

use crate::docs::{Page, SourceTree};

use crate::export::site::search_index::SearchIndex;
use crate::export::{site::agent, site::assets};

/// Where a page goes in the offline search: the index (`en`, `en.v1`) and its output file.
pub(in crate::export) struct SearchAs {
    pub(in crate::export) key: String,
    pub(in crate::export) file: String,
}

/// The pages' share of the finishing files so far.
pub struct FinishingPages {
    pub(in crate::export) search: Option<SearchIndex>,
    /// `llms-full.txt` as written (the whole-site path; a batch at a time, each batch's share comes
    /// compressed with its products instead).
    pub(in crate::export) llms_full: String,
    /// Bytes of `llms-full.txt` written so far, taken or not.
    llms_full_len: usize,
    /// Files the pages reference (images, downloads), to copy into the bundle.
    pub(in crate::export) referenced: BTreeSet<String>,
}

impl FinishingPages {
    pub(in crate::export) fn new(search: bool) -> Self {
        FinishingPages {
            search: search.then(SearchIndex::default),
            llms_full: String::new(),
            llms_full_len: 0,
            referenced: BTreeSet::new(),
        }
    }

    /// Adds `page`, whose sections are read and whose source (and what it imports) is in `tree`;
    /// `targets`: exported page path -> the file the Markdown links name.
    pub(in crate::export) fn add(
        &mut self,
        page: &Page,
        tree: &SourceTree,
        targets: &BTreeMap<String, String>,
        domain: &str,
        search_as: SearchAs,
    ) {
        self.add_copy(page, search_as);
        agent::push_full(
            &mut self.llms_full,
            &mut self.llms_full_len,
            page,
            tree,
            targets,
            domain,
        );
        assets::referenced(page, tree, &mut self.referenced);
    }

    /// Adds `page` as another version holds it: to that version's search index only (its text,
    /// `llms` lines and assets came with its first entry).
    pub(in crate::export) fn add_copy(&mut self, page: &Page, search_as: SearchAs) {
        if let Some(search) = &mut self.search {
            search.add_as(page, search_as.key, &search_as.file);
        }
    }
}
