//! Paths given by tar header extensions (pax records, GNU long names), and their bounds.

use super::*;

/// A PAX record line: its length counts itself.
fn pax_record(key: &str, value: &str) -> Vec<u8> {
    let body = format!(" {key}={value}\n");
    let mut len = body.len() + 1;
    while format!("{len}{body}").len() != len {
        len += 1;
    }
    format!("{len}{body}").into_bytes()
}

/// An extension entry whose data is `size` zero bytes (a long name of NULs), gzipped: a few KB
/// per MB, so a hostile upload is small.
fn huge_extension(kind: EntryType, size: usize) -> Vec<u8> {
    let mut raw = Vec::new();
    let mut header = Header::new_gnu();
    header.as_old_mut().name[..13].copy_from_slice(b"././@LongLink");
    header.set_entry_type(kind);
    header.set_size(size as u64);
    header.set_cksum();
    raw.extend_from_slice(header.as_bytes());
    raw.resize(512 + size.next_multiple_of(512), b'a');
    let mut rest = RawTar::new().file("docs.json", "{}").0;
    raw.append(&mut rest);
    raw.extend_from_slice(&[0u8; 1024]);
    gzip(&raw)
}

#[test]
fn refuses_a_huge_gnu_long_name_without_reading_it() {
    // 16 MiB of name in well under 100 KB of upload: the tar crate alone would read it whole.
    let gz = huge_extension(EntryType::GNULongName, 16 << 20);
    assert!(gz.len() < 100 * 1024, "{}", gz.len());
    let err = read(&gz).unwrap_err();
    assert_eq!(
        err,
        ArchiveError::ExtensionTooLarge {
            after: None,
            limit: MAX_EXTENSION_BYTES
        }
    );
    assert!(err.to_string().contains("65536"), "{err}");
}

#[test]
fn refuses_huge_pax_records_local_and_global() {
    for kind in [
        EntryType::XHeader,
        EntryType::XGlobalHeader,
        EntryType::GNULongLink,
    ] {
        let err = read(&huge_extension(kind, 1 << 20)).unwrap_err();
        assert!(
            matches!(err, ArchiveError::ExtensionTooLarge { .. }),
            "{kind:?}: {err:?}"
        );
    }
}

#[test]
fn refuses_paths_longer_than_the_limit() {
    let long = format!("{}.mdx", "a/".repeat(600));
    let gz = RawTar::new()
        .file("docs.json", "{}")
        .entry("././@LongLink", EntryType::GNULongName, long.as_bytes())
        .file("short.mdx", "x")
        .gz();
    let err = read(&gz).unwrap_err();
    assert!(
        matches!(&err, ArchiveError::BadPath { reason, entry } if reason.contains("1024") && entry.len() < 300),
        "{err:?}"
    );
}

#[test]
fn reads_paths_from_pax_records() {
    let long = format!("{}/page.mdx", "deep".repeat(40));
    let gz = RawTar::new()
        .entry(
            "PaxHeaders/x",
            EntryType::XHeader,
            &pax_record("path", &long),
        )
        .file("short.mdx", "x")
        .entry(
            "pax_global_header",
            EntryType::XGlobalHeader,
            &pax_record("comment", "hi"),
        )
        .file("docs.json", "{}")
        .gz();
    let got = read(&gz).unwrap();
    assert_eq!(got.keys().collect::<Vec<_>>(), [long.as_str(), "docs.json"]);
}

#[test]
fn refuses_a_pax_size_that_disagrees_with_the_header() {
    let gz = RawTar::new()
        .entry(
            "PaxHeaders/x",
            EntryType::XHeader,
            &pax_record("size", "5000"),
        )
        .file("docs.json", "{}")
        .gz();
    let err = read(&gz).unwrap_err();
    assert!(
        matches!(&err, ArchiveError::Corrupt { reason, .. } if reason.contains("PAX size")),
        "{err:?}"
    );
}

#[test]
fn reads_long_paths_from_gnu_long_name_entries() {
    let long = format!("{}/page.mdx", "deep".repeat(40));
    let src = tree(&[("docs.json", "{}"), (long.as_str(), "x")]);
    let got = read(&pack_tree(&src)).unwrap();
    assert!(got.contains_key(&long));
}
