//! A term dictionary with its postings, as one view over borrowed arrays: the whole index has one,
//! every term shard has one. Lookup and load-time checks live here once, so the two forms cannot
//! disagree about what a term's postings are.

use serde::{Deserialize, Serialize};

use super::codec::IndexError;
use super::postings;

/// The arrays a [`Dict`] views, owned: the whole index holds one, every term shard holds one.
/// Nested in their data as it is encoded, which postcard writes as the fields in order, the same
/// bytes as when they stood in the data directly.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub(crate) struct TermTable {
    /// All terms concatenated in sorted order; term `i` ends at `term_ends[i]`. One string instead of
    /// one allocation per term keeps loading cheap.
    pub terms: String,
    pub term_ends: Vec<u32>,
    /// Document frequency (chunks containing the term), for IDF without decoding the list.
    pub dfs: Vec<u32>,
    /// Postings of term `i` end at `posting_ends[i]` in `postings`.
    pub posting_ends: Vec<u32>,
    pub postings: Vec<u8>,
}

impl TermTable {
    /// Appends a term, which sorts after every term before it, with its document frequency;
    /// `write_postings` appends its encoded postings.
    pub fn push(&mut self, term: &str, df: u32, write_postings: impl FnOnce(&mut Vec<u8>)) {
        self.terms.push_str(term);
        self.term_ends.push(self.terms.len() as u32);
        self.dfs.push(df);
        write_postings(&mut self.postings);
        self.posting_ends.push(self.postings.len() as u32);
    }

    pub fn dict(&self) -> Dict<'_> {
        Dict {
            terms: &self.terms,
            term_ends: &self.term_ends,
            dfs: &self.dfs,
            posting_ends: &self.posting_ends,
            postings: &self.postings,
        }
    }
}

/// Terms sorted and concatenated; term `i` ends at `term_ends[i]`, its postings at `posting_ends[i]`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dict<'a> {
    pub terms: &'a str,
    pub term_ends: &'a [u32],
    /// Document frequency (chunks containing the term) over the whole site.
    pub dfs: &'a [u32],
    pub posting_ends: &'a [u32],
    pub postings: &'a [u8],
}

impl<'a> Dict<'a> {
    /// The term's document frequency and postings.
    pub fn lookup(&self, term: &str) -> Option<(u32, postings::Decoder<'a>)> {
        let (df, bytes) = self.lookup_bytes(term)?;
        Some((df, postings::Decoder::new(bytes)))
    }

    /// The term's document frequency and encoded postings.
    pub fn lookup_bytes(&self, term: &str) -> Option<(u32, &'a [u8])> {
        let i = self.find(term)?;
        Some((
            self.dfs.get(i).copied().unwrap_or(0),
            self.postings_bytes(i),
        ))
    }

    /// Index of `term` in the dictionary.
    pub fn find(&self, term: &str) -> Option<usize> {
        let (mut lo, mut hi) = (0usize, self.term_ends.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.term_at(mid)?.cmp(term) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    pub fn term_at(&self, i: usize) -> Option<&'a str> {
        let start = if i == 0 {
            0
        } else {
            *self.term_ends.get(i - 1)? as usize
        };
        let end = *self.term_ends.get(i)? as usize;
        self.terms.get(start..end)
    }

    /// The encoded postings of term `i`.
    pub fn postings_bytes(&self, i: usize) -> &'a [u8] {
        let start = if i == 0 {
            Some(0)
        } else {
            self.posting_ends.get(i - 1).map(|&e| e as usize)
        };
        let end = self.posting_ends.get(i).map(|&e| e as usize);
        match (start, end) {
            (Some(s), Some(e)) => self.postings.get(s..e).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Everything lookup relies on: lengths agree, offsets in bounds and not decreasing, terms
    /// strictly sorted on character boundaries, no frequency above the site's chunk count.
    pub fn validate(&self, n_chunks: usize) -> Result<(), IndexError> {
        use IndexError::Inconsistent;
        let n_terms = self.term_ends.len();
        if self.dfs.len() != n_terms || self.posting_ends.len() != n_terms {
            return Err(Inconsistent("dictionary lengths differ"));
        }
        check_ends(self.term_ends, self.terms.len()).ok_or(Inconsistent("term offsets"))?;
        check_ends(self.posting_ends, self.postings.len())
            .ok_or(Inconsistent("posting offsets"))?;
        let mut prev: Option<&str> = None;
        let mut start = 0usize;
        for &end in self.term_ends {
            let term = self
                .terms
                .get(start..end as usize)
                .ok_or(Inconsistent("term boundary"))?;
            if prev.is_some_and(|p| p >= term) {
                return Err(Inconsistent("terms not sorted"));
            }
            prev = Some(term);
            start = end as usize;
        }
        if self.dfs.iter().any(|&df| df as usize > n_chunks) {
            return Err(Inconsistent("document frequency"));
        }
        Ok(())
    }
}

/// Offsets must not decrease and must stay within `len`.
pub(crate) fn check_ends<T: Copy + Into<u64>>(ends: &[T], len: usize) -> Option<()> {
    let mut prev = 0u64;
    for &e in ends {
        let e: u64 = e.into();
        if e < prev || e > len as u64 {
            return None;
        }
        prev = e;
    }
    Some(())
}
