//! What the finishing files take from each page of a batch, made where the batch is rendered (from
//! the same files) and stored beside its part: the page's search sections and the assets it
//! references, and the batch's share of `llms-full.txt`, compressed. The finishing step folds these in a batch at a
//! time ([`crate::export::ExportPlan::add_products`]) instead of reading and parsing every page
//! again, and a hosted site's export that takes a batch unchanged from the live export takes its
//! products with it (and lists the part's files from them without reading the part).
//!
//! Stored as postcard, deflated, then the `llms-full.txt` share as it came: one object per batch,
//! read whole and dropped once folded in.

use std::io::{Read, Write};

use flate2::bufread::DeflateDecoder;
use flate2::write::DeflateEncoder;
use flate2::Compression;
use serde::{Deserialize, Serialize};

use crate::export::site::search_index::SearchPartial;

/// What one plan entry of a batch gives the finishing files, in plan order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(in crate::export) struct EntryProducts {
    /// A page's first entry: the first line of its text (what `llms.txt` says of a page without
    /// a description); `None` for a copy in another version, or no page.
    pub(in crate::export) first_line: Option<String>,
    /// A page's first entry: the files of the upload it references.
    pub(in crate::export) referenced: Vec<String>,
}

/// What [`BatchProducts::from_bytes`] reads: products stored in another layout (by the code
/// before) are an error, and their pages are read again.
pub(in crate::export) const PRODUCTS_FORMAT: u32 = 0x5EA2_0002;

/// The products of one batch of pages ([`crate::export::ExportPlan::batch_products`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BatchProducts {
    /// The paths of the files the batch's part holds, in its order, as the host that wrote the
    /// part sets them: a hosted site's export that took the part unchanged lists them without
    /// reading the part. First, so they are read without inflating the rest
    /// ([`BatchProducts::files_from_bytes`]).
    pub files: Vec<String>,
    /// [`PRODUCTS_FORMAT`].
    pub(in crate::export) format: u32,
    pub(in crate::export) entries: Vec<EntryProducts>,
    /// The batch's share of the offline search index, when the export has one.
    pub(in crate::export) search: Option<SearchPartial>,
    /// The batch's share of `llms-full.txt` (its pages' Markdown, the first without the separator
    /// that goes before it when a page precedes it) as one gzip member, compressed once here;
    /// stored after the rest, not deflated again ([`BatchProducts::to_bytes`]).
    #[serde(skip)]
    pub(in crate::export) llms_full: Vec<u8>,
    /// Bytes of that share, uncompressed.
    pub(in crate::export) llms_full_len: u64,
}

impl BatchProducts {
    /// The stored form: postcard, deflated, then the `llms-full.txt` share as it is (a gzip
    /// member already: deflating it again cost time both ways and saved nothing).
    pub fn to_bytes(&self) -> Vec<u8> {
        let raw = postcard::to_allocvec(self).unwrap_or_default();
        let mut deflate = DeflateEncoder::new(Vec::new(), Compression::fast());
        // Writing to a Vec cannot fail.
        let _ = deflate.write_all(&raw);
        let mut bytes = deflate.finish().unwrap_or_default();
        bytes.extend_from_slice(&self.llms_full);
        bytes
    }

    /// Reads [`BatchProducts::to_bytes`]; an error names what is wrong with them.
    pub fn from_bytes(bytes: &[u8]) -> Result<BatchProducts, String> {
        let mut raw = Vec::new();
        let mut decoder = DeflateDecoder::new(bytes);
        decoder
            .read_to_end(&mut raw)
            .map_err(|err| format!("batch products: {err}"))?;
        let llms_full = bytes
            .get(decoder.total_in() as usize..)
            .unwrap_or_default()
            .to_vec();
        let products: BatchProducts =
            postcard::from_bytes(&raw).map_err(|err| format!("batch products: {err}"))?;
        match products.format == PRODUCTS_FORMAT {
            true => Ok(BatchProducts {
                llms_full,
                ..products
            }),
            false => Err(format!(
                "batch products: format {:#x}, not {PRODUCTS_FORMAT:#x}",
                products.format
            )),
        }
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
                    first_line: Some("Some text.".into()),
                    referenced: vec!["images/a.png".into()],
                },
                EntryProducts::default(),
            ],
            llms_full: crate::export::bundle::archive::gzip(b"# Page\n"),
            llms_full_len: 7,
            files: vec!["page.html".into(), "page.md".into()],
            format: PRODUCTS_FORMAT,
            search: None,
        };
        let bytes = products.to_bytes();
        assert_eq!(BatchProducts::from_bytes(&bytes).unwrap(), products);
        // Products in another layout (the code before's) are not read as these.
        let other = BatchProducts {
            format: PRODUCTS_FORMAT - 1,
            ..products.clone()
        };
        assert!(BatchProducts::from_bytes(&other.to_bytes()).is_err());
        assert_eq!(
            BatchProducts::files_from_bytes(&bytes).unwrap(),
            products.files
        );
        assert!(BatchProducts::from_bytes(b"not deflate").is_err());
        assert!(BatchProducts::files_from_bytes(b"not deflate").is_err());
    }

    #[test]
    fn the_file_list_is_read_without_what_follows_it() {
        // A list longer than one read, then a first line that does not compress, cut off: the list reads
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
                first_line: Some(text),
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
