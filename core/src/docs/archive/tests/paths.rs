//! Which entries become files of the docs folder: path rules, the top folder, links, and entries that
//! are never files.

use super::*;

#[test]
fn round_trips_a_packed_tree() {
    let src = tree(&[("docs.json", "{}"), ("a/b.mdx", "# B"), ("index.mdx", "hi")]);
    assert_eq!(read(&pack_tree(&src)).unwrap(), src);
}

#[test]
fn strips_dot_slash_and_skips_directories() {
    let gz = RawTar::new()
        .entry("./", EntryType::Directory, b"")
        .entry("./guides/", EntryType::Directory, b"")
        .file("./docs.json", "{}")
        .file("./guides/a.mdx", "A")
        .gz();
    let got = read(&gz).unwrap();
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        ["docs.json", "guides/a.mdx"]
    );
}

#[test]
fn strips_single_top_folder_holding_docs_json() {
    let src = tree(&[("mydocs/docs.json", "{}"), ("mydocs/es/a.mdx", "A")]);
    let got = read(&pack_tree(&src)).unwrap();
    assert_eq!(got.keys().collect::<Vec<_>>(), ["docs.json", "es/a.mdx"]);
}

#[test]
fn keeps_top_folder_when_docs_json_is_not_inside_it() {
    let src = tree(&[("mydocs/other.json", "{}"), ("mydocs/a.mdx", "A")]);
    assert_eq!(read(&pack_tree(&src)), Err(ArchiveError::MissingDocsJson));
}

#[test]
fn rejects_archive_without_docs_json() {
    let src = tree(&[("index.mdx", "hi")]);
    let err = read(&pack_tree(&src)).unwrap_err();
    assert_eq!(err, ArchiveError::MissingDocsJson);
    assert!(err.to_string().contains("docs.json"));
}

#[test]
fn rejects_path_traversal_entry() {
    let gz = RawTar::new()
        .file("docs.json", "{}")
        .file("a/../../etc/passwd", "x")
        .gz();
    let err = read(&gz).unwrap_err();
    assert_eq!(
        err,
        ArchiveError::PathTraversal {
            entry: "a/../../etc/passwd".into()
        }
    );
    assert!(err.to_string().contains("a/../../etc/passwd"));
}

#[test]
fn rejects_absolute_path_entry() {
    let gz = RawTar::new()
        .file("docs.json", "{}")
        .file("/etc/cron.d/x", "x")
        .gz();
    assert!(
        matches!(read(&gz), Err(ArchiveError::AbsolutePath { entry }) if entry == "/etc/cron.d/x")
    );
}

#[test]
fn a_link_inside_the_folder_is_followed_once() {
    let gz = RawTar::new()
        .file("docs.json", "{}")
        .file("AGENTS.md", "agents")
        .entry("CLAUDE.md", EntryType::Symlink, b"AGENTS.md")
        .entry(
            "guides/intro.mdx",
            EntryType::Symlink,
            b"../pages/intro.mdx",
        )
        .file("pages/intro.mdx", "intro")
        .entry("hard.md", EntryType::Link, b"AGENTS.md")
        .entry("again.md", EntryType::Symlink, b"CLAUDE.md")
        .gz();
    let (tree, warnings) = read_warning(&gz);
    assert_eq!(tree["CLAUDE.md"], b"agents");
    assert_eq!(tree["guides/intro.mdx"], b"intro");
    assert_eq!(tree["hard.md"], b"agents");
    assert!(!tree.contains_key("again.md"));
    assert_eq!(
        warnings,
        ["again.md: symbolic link to `CLAUDE.md`, itself a link; links are followed once"]
    );
}

#[test]
fn a_link_to_a_folder_shares_its_files_and_one_outside_is_never_read() {
    let gz = RawTar::new()
        .file("docs.json", "{}")
        .file("snippets/a.mdx", "A")
        .file("snippets/deep/b.mdx", "B")
        .entry(".mintlify/snippets", EntryType::Symlink, b"../snippets")
        .entry("secret.md", EntryType::Symlink, b"/etc/passwd")
        .entry("up.md", EntryType::Symlink, b"../../outside.md")
        .entry("gone.md", EntryType::Symlink, b"nothing.md")
        .gz();
    let (tree, warnings) = read_warning(&gz);
    assert_eq!(tree[".mintlify/snippets/a.mdx"], b"A");
    assert_eq!(tree[".mintlify/snippets/deep/b.mdx"], b"B");
    assert!(
        !tree.contains_key("secret.md")
            && !tree.contains_key("up.md")
            && !tree.contains_key("gone.md")
    );
    assert_eq!(
        warnings,
        [
            "secret.md: symbolic link points outside the docs folder; not read",
            "up.md: symbolic link points outside the docs folder; not read",
            "gone.md: symbolic link to `nothing.md`, which is not in the docs folder; not read",
        ]
    );
}

#[test]
fn a_legacy_mint_json_site_is_a_docs_folder() {
    let src = tree(&[("site/mint.json", "{}"), ("site/a.mdx", "A")]);
    let got = read(&pack_tree(&src)).unwrap();
    assert_eq!(got.keys().collect::<Vec<_>>(), ["a.mdx", "mint.json"]);
}

#[test]
fn rejects_device_and_fifo_entries() {
    for (kind, name) in [
        (EntryType::Char, "character device"),
        (EntryType::Block, "block device"),
        (EntryType::Fifo, "fifo"),
    ] {
        let gz = RawTar::new()
            .file("docs.json", "{}")
            .entry("dev", kind, b"")
            .gz();
        assert!(
            matches!(read(&gz), Err(ArchiveError::UnsupportedEntry { kind: k, .. }) if k == name),
            "{name}"
        );
    }
}

#[test]
fn skips_apple_double_files() {
    let src = tree(&[
        ("docs.json", "{}"),
        ("._index.mdx", "junk"),
        ("index.mdx", "hi"),
    ]);
    let got = read(&pack_tree(&src)).unwrap();
    assert!(!got.contains_key("._index.mdx"));
}
