//! Tests of reading an uploaded archive, by topic; the tar writer and readers they share are here.

use super::*;

mod bounds;
mod headers;
mod paths;

/// A tar stream written header by header, so tests can produce entries `tar::Builder` refuses.
struct RawTar(Vec<u8>);

impl RawTar {
    fn new() -> Self {
        Self(Vec::new())
    }

    fn entry(mut self, name: &str, kind: EntryType, data: &[u8]) -> Self {
        let mut header = Header::new_gnu();
        let field = &mut header.as_old_mut().name;
        field.fill(0);
        field[..name.len()].copy_from_slice(name.as_bytes());
        header.set_entry_type(kind);
        header.set_mode(0o644);
        header.set_size(data.len() as u64);
        if matches!(kind, EntryType::Symlink | EntryType::Link) {
            header
                .set_link_name(std::str::from_utf8(data).unwrap())
                .unwrap();
            header.set_size(0);
        }
        header.set_cksum();
        let size = header.size().unwrap() as usize;
        self.0.extend_from_slice(header.as_bytes());
        self.0.extend_from_slice(&data[..size]);
        self.0.resize(self.0.len().next_multiple_of(512), 0);
        self
    }

    fn file(self, name: &str, data: &str) -> Self {
        self.entry(name, EntryType::Regular, data.as_bytes())
    }

    fn gz(self) -> Vec<u8> {
        let mut raw = self.0;
        raw.extend_from_slice(&[0u8; 1024]);
        gzip(&raw)
    }
}

fn read(gz: &[u8]) -> Result<SourceTree, ArchiveError> {
    read_with(gz, &ArchiveLimits::default())
}

/// Reads with both readers, whole and in pieces of several sizes, and holds them to one answer.
fn read_with(gz: &[u8], limits: &ArchiveLimits) -> Result<SourceTree, ArchiveError> {
    let whole = read_docs_archive(gz, limits);
    for piece in [1, 7, 512, 4096, usize::MAX] {
        let streamed = crate::docs::unpack::read_in_pieces(gz, limits, piece);
        match (&whole, &streamed) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "piece {piece}"),
            (Err(a), Err(b)) => assert_eq!(
                std::mem::discriminant(a),
                std::mem::discriminant(b),
                "piece {piece}: {b:?} vs {a:?}"
            ),
            _ => panic!("piece {piece}: {streamed:?} vs {whole:?}"),
        }
    }
    whole
}

fn read_warning(gz: &[u8]) -> (SourceTree, Vec<String>) {
    let tree = read(gz).unwrap();
    let mut warnings = Vec::new();
    read_docs_archive_warning(gz, &ArchiveLimits::default(), &mut warnings).unwrap();
    (tree, warnings)
}
