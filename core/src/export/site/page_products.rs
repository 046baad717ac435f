//! What the finishing files take from each page of a batch, made where the batch is rendered (from
//! the same files) and stored beside its part: the page's search sections and the assets it
//! references, and the batch's share of `llms-full.txt`, compressed. The finishing step folds these in a batch at a
//! time ([`crate::export::ExportPlan::add_products`]) instead of reading and parsing every page
//! again, and a hosted site's export that takes a batch unchanged from the live export takes its
//! products with it (and lists the part's files from them without reading the part).
//!
//! Stored as postcard, deflated: one object per batch, read whole and dropped once folded in.

use std::io::{Read, Write};

use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use flate2::Compression;
use serde::{Deserialize, Serialize};

use crate::docs::Section;

/// What one plan entry of a batch gives the finishing files, in plan order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(in crate::export) struct EntryProducts {
    /// The page's sections for the offline search (its operation's included); `None`: the same
    /// page as the entry before it (a copy in another version follows its page), or no page.
    pub(in crate::export) sections: Option<Vec<Section>>,
    /// A page's first entry: the files of the upload it references.
    pub(in crate::export) referenced: Vec<String>,
}

/// The products of one batch of pages ([`crate::export::ExportPlan::batch_products`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BatchProducts {
    /// The paths of the files the batch's part holds, in its order, as the host that wrote the
    /// part sets them: a hosted site's export that took the part unchanged lists them without
    /// reading the part. First, so they are read without inflating the rest
    /// ([`BatchProducts::files_from_bytes`]).
    pub files: Vec<String>,
    pub(in crate::export) entries: Vec<EntryProducts>,
    /// The batch's share of `llms-full.txt` (its pages' Markdown, the first without the separator
    /// that goes before it when a page precedes it) as one gzip member, compressed once here.
    pub(in crate::export) llms_full: Vec<u8>,
    /// Bytes of that share, uncompressed.
    pub(in crate::export) llms_full_len: u64,
}

impl BatchProducts {
    /// The stored form: postcard, deflated.
    pub fn to_bytes(&self) -> Vec<u8> {
        let raw = postcard::to_allocvec(self).unwrap_or_default();
        let mut deflate = DeflateEncoder::new(Vec::new(), Compression::fast());
        // Writing to a Vec cannot fail.
        let _ = deflate.write_all(&raw);
        deflate.finish().unwrap_or_default()
    }

    /// Reads [`BatchProducts::to_bytes`]; an error names what is wrong with them.
    pub fn from_bytes(bytes: &[u8]) -> Result<BatchProducts, String> {
        let mut raw = Vec::new();
        DeflateDecoder::new(bytes)
            .read_to_end(&mut raw)
            .map_err(|err| format!("batch products: {err}"))?;
        postcard::from_bytes(&raw).map_err(|err| format!("batch products: {err}"))
    }

    /// The [`BatchProducts::files`] of [`BatchProducts::to_bytes`], inflating only as far as they
    /// go (the sections and `llms-full.txt` share after them are most of the bytes).
    pub fn files_from_bytes(bytes: &[u8]) -> Result<Vec<String>, String> {
        let mut decoder = DeflateDecoder::new(bytes);
        let mut raw = Vec::new();
        loop {
            let read = (&mut decoder)
                .take(FILES_READ_BYTES)
                .read_to_end(&mut raw)
                .map_err(|err| format!("batch products: {err}"))?;
            match postcard::take_from_bytes::<Vec<String>>(&raw) {
                Ok((files, _)) => return Ok(files),
                Err(postcard::Error::DeserializeUnexpectedEnd) if read > 0 => {}
                Err(err) => return Err(format!("batch products: {err}")),
            }
        }
    }
}

/// Bytes inflated at a time while [`BatchProducts::files_from_bytes`] reads the file list.
const FILES_READ_BYTES: u64 = 16 << 10;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_read_back_as_written_and_bad_bytes_are_an_error() {
        let products = BatchProducts {
            entries: vec![
                EntryProducts {
                    sections: Some(vec![Section {
                        heading: "Intro".into(),
                        anchor: "intro".into(),
                        level: 2,
                        text: "Some text.".into(),
                    }]),
                    referenced: vec!["images/a.png".into()],
                },
                EntryProducts::default(),
            ],
            llms_full: crate::export::bundle::archive::gzip(b"# Page\n"),
            llms_full_len: 7,
            files: vec!["page.html".into(), "page.md".into()],
        };
        let bytes = products.to_bytes();
        assert_eq!(BatchProducts::from_bytes(&bytes).unwrap(), products);
        assert_eq!(
            BatchProducts::files_from_bytes(&bytes).unwrap(),
            products.files
        );
        assert!(BatchProducts::from_bytes(b"not deflate").is_err());
        assert!(BatchProducts::files_from_bytes(b"not deflate").is_err());
    }

    #[test]
    fn the_file_list_is_read_without_what_follows_it() {
        // A list longer than one read, then sections that do not compress, cut off: the list reads
        // back from the bytes before the cut; bytes that end inside the list are an error.
        let files: Vec<String> = (0..3_000)
            .map(|i| format!("guides/page-{i}.html"))
            .collect();
        let mut state = 0x2545_f491_u32;
        let text: String = (0..200_000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                char::from(b'a' + (state % 26) as u8)
            })
            .collect();
        let products = BatchProducts {
            files: files.clone(),
            entries: vec![EntryProducts {
                sections: Some(vec![Section {
                    text,
                    ..Section::default()
                }]),
                referenced: Vec::new(),
            }],
            ..BatchProducts::default()
        };
        let bytes = products.to_bytes();
        let cut = &bytes[..bytes.len() - 50_000];
        assert!(BatchProducts::from_bytes(cut).is_err());
        assert_eq!(BatchProducts::files_from_bytes(cut).unwrap(), files);
        assert!(BatchProducts::files_from_bytes(&bytes[..100]).is_err());
    }
}
