//! The bounds that keep an archive from exhausting memory: file counts and sizes, gzip bombs, and
//! streams that are not a whole `.tar.gz`.

use super::*;

#[test]
fn media_have_their_own_bounds_and_count_towards_the_site() {
    let png = "x".repeat(3000);
    let gz = RawTar::new()
        .file("docs.json", "{}")
        .file("a.mdx", "A")
        .file("img/big.png", &png)
        .gz();
    let limits = ArchiveLimits {
        max_total_bytes: 100,
        max_file_bytes: 100,
        ..ArchiveLimits::default()
    };
    let tree = read_with(&gz, &limits).unwrap();
    assert_eq!(tree["img/big.png"].len(), 3000);
    let limits = ArchiveLimits {
        max_media_file_bytes: 2999,
        ..ArchiveLimits::default()
    };
    assert!(matches!(
        read_with(&gz, &limits),
        Err(ArchiveError::FileTooLarge { limit: 2999, .. })
    ));
    let limits = ArchiveLimits {
        max_site_bytes: 3002,
        ..ArchiveLimits::default()
    };
    assert_eq!(
        read_with(&gz, &limits),
        Err(ArchiveError::SiteTooLarge { limit: 3002 })
    );
    // A page over the source bound is refused whatever the media bounds.
    let gz = RawTar::new()
        .file("docs.json", "{}")
        .file("a.mdx", &png)
        .gz();
    let limits = ArchiveLimits {
        max_file_bytes: 2999,
        ..ArchiveLimits::default()
    };
    assert!(matches!(
        read_with(&gz, &limits),
        Err(ArchiveError::FileTooLarge { limit: 2999, .. })
    ));
}

#[test]
fn rejects_more_than_max_files() {
    let src = tree(&[("docs.json", "{}"), ("a.mdx", "a"), ("b.mdx", "b")]);
    let limits = ArchiveLimits {
        max_files: 2,
        ..ArchiveLimits::default()
    };
    assert_eq!(
        read_with(&pack_tree(&src), &limits),
        Err(ArchiveError::TooManyFiles { limit: 2 })
    );
}

#[test]
fn rejects_file_over_max_file_bytes_by_name() {
    let src = tree(&[("docs.json", "{}"), ("big.mdx", &"x".repeat(2000))]);
    let limits = ArchiveLimits {
        max_file_bytes: 1000,
        ..ArchiveLimits::default()
    };
    let err = read_with(&pack_tree(&src), &limits).unwrap_err();
    assert!(err.to_string().contains("big.mdx"), "{err}");
}

#[test]
fn rejects_more_than_max_total_bytes() {
    let src = tree(&[
        ("docs.json", "{}"),
        ("a.mdx", &"a".repeat(600)),
        ("b.mdx", &"b".repeat(600)),
    ]);
    let limits = ArchiveLimits {
        max_total_bytes: 1000,
        ..ArchiveLimits::default()
    };
    assert_eq!(
        read_with(&pack_tree(&src), &limits),
        Err(ArchiveError::TooLarge { limit: 1000 })
    );
}

#[test]
fn rejects_oversized_entry_from_its_header_without_inflating_it() {
    // The header claims 1 TiB; the data is not even there, so only the header can have been read.
    let mut big = Header::new_gnu();
    big.set_path("docs.json").unwrap();
    big.set_size(1 << 40);
    big.set_cksum();
    let err = read(&gzip(big.as_bytes())).unwrap_err();
    assert!(matches!(err, ArchiveError::FileTooLarge { .. }), "{err:?}");
}

#[test]
fn stops_inflating_a_gzip_bomb_at_the_budget() {
    // Directory data is skipped unread, but skipping still inflates it: 64 MiB of zeros (~64 KB
    // compressed) must stop at the budget, not be inflated whole.
    let mut raw = Vec::new();
    let mut dir = Header::new_gnu();
    dir.set_path("d/").unwrap();
    dir.set_entry_type(EntryType::Directory);
    dir.set_size(64 << 20);
    dir.set_cksum();
    raw.extend_from_slice(dir.as_bytes());
    raw.resize(512 + (64 << 20), 0);
    let bomb = gzip(&raw);
    assert!(bomb.len() < 1 << 20);
    // The inflation budget covers every file, media included: the site's bound.
    let limits = ArchiveLimits {
        max_files: 10,
        max_total_bytes: 1 << 20,
        max_file_bytes: 1 << 20,
        max_media_file_bytes: 1 << 20,
        max_site_bytes: 1 << 20,
    };
    assert_eq!(
        read_with(&bomb, &limits),
        Err(ArchiveError::SiteTooLarge { limit: 1 << 20 })
    );
}

#[test]
fn rejects_data_that_is_not_gzip() {
    assert_eq!(read(b"PK\x03\x04zip"), Err(ArchiveError::NotGzip));
    assert_eq!(read(b""), Err(ArchiveError::NotGzip));
}

#[test]
fn rejects_corrupt_tar_inside_gzip() {
    let err = read(&gzip(&[7u8; 1500])).unwrap_err();
    assert!(matches!(err, ArchiveError::Corrupt { .. }), "{err:?}");
}

#[test]
fn rejects_truncated_gzip() {
    let src = tree(&[("docs.json", "{}"), ("a.mdx", &"abc ".repeat(5000))]);
    let gz = pack_tree(&src);
    let err = read(&gz[..gz.len() / 2]).unwrap_err();
    assert!(matches!(err, ArchiveError::Corrupt { .. }), "{err:?}");
}
