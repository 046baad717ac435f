//! Where every URL in a page points inside the bundle.
//!
//! Rules (one function each, tested below):
//! - `#x`, `http(s):`, `mailto:`, `tel:` and `//host` links are kept; other schemes (`javascript:`,
//!   `data:`) become `#`, since a docs page has no business running them.
//! - A site path (`/a/b`, `a/b`, `../x`, with or without `.mdx`/`.md`/`.html`) that names an exported
//!   page becomes a relative `.html` link from the current file, `#anchor` kept.
//! - A path naming a file of the uploaded tree that can run nothing when opened (an image, a PDF,
//!   see [`PASSIVE_EXTENSIONS`]) becomes a relative link to its copy in the bundle, which `assets`
//!   puts at the same path. Other tree files (`.html`, `.js`, ...) are never copied.
//! - An SVG of the tree is never copied as it is: opened as a document it runs its scripts. As an
//!   image (`<img>`, which runs none) one of at most [`MAX_INLINE_SVG_BYTES`] is inlined as a
//!   `data:` URL; a larger one is a file of the bundle at its own path, rewritten through the SVG
//!   allow-list (`svg_file`), when that keeps its picture. A link to a small one, or to one the
//!   allow-list cannot draw, is the live site's URL. Logos and the favicon, which every page shows,
//!   are files whatever their size when the allow-list keeps their picture (a page then carries
//!   a link, not the image), and inlined otherwise.
//! - Anything else (pages of another version, pages left out by `paths`, missing files) becomes the
//!   absolute extensionless URL on the site's domain, which the live site serves.

use std::collections::BTreeMap;

use crate::docs::archive::join_relative;
use crate::docs::endpoint::{remote_manifest, REMOTE_MANIFEST};
use crate::docs::SourceTree;

/// Folder of the files the export itself adds (CSS, JS, search index): tree files there are not copied.
pub(crate) const STATIC_DIR: &str = "_static";

/// Files the bundle may carry as media or downloads, by lowercase extension: none is a document a
/// browser runs script in (no `.html`, `.svg`, `.js`, `.xml`, ...).
pub(crate) const PASSIVE_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "webp", "avif", "ico", "bmp", "mp4", "webm", "mov", "m4v", "ogv",
    "mp3", "wav", "ogg", "oga", "m4a", "flac", "pdf", "zip", "gz", "tgz", "tar", "csv", "txt",
    "json", "yaml", "yml", "woff", "woff2", "ttf", "otf",
];

/// Largest SVG inlined into an `<img>` (a logo is inlined into every page).
pub(crate) const MAX_INLINE_SVG_BYTES: usize = 32 * 1024;

/// What an `src` becomes: a file in the bundle, or a page that may only be linked to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Media {
    /// Relative URL of the copied file.
    Local(String),
    /// A `data:` image URL that only an `<img>` may load; `link` is what anything else points at.
    ImageOnly { src: String, link: String },
    /// Not in the bundle: shown as a link (never loaded).
    Link(String),
}

/// Resolves the URLs of one page.
#[derive(Clone)]
pub(crate) struct Linker<'a> {
    /// Output file of the page (`a/b.html`); links are relative to it.
    pub(crate) from: String,
    /// Page path (`a/b`), against which relative URLs resolve as a browser would.
    page_path: &'a str,
    /// Source file of the page, the second base for relative image paths.
    source: &'a str,
    /// Exported page path -> its output file.
    pages: &'a BTreeMap<String, String>,
    tree: &'a SourceTree,
    domain: &'a str,
    /// Whether tree files may be linked as bundle copies (see [`Linker::without_assets`]).
    assets: bool,
    /// Links to bundle files are left as markers that [`resolve_deferred`] binds to each file the
    /// body is written to (a page several versions share is rendered once).
    deferred: bool,
}

impl<'a> Linker<'a> {
    pub(crate) fn new(
        page_path: &'a str,
        source: &'a str,
        pages: &'a BTreeMap<String, String>,
        tree: &'a SourceTree,
        domain: &'a str,
    ) -> Self {
        Self {
            from: output_file(page_path),
            page_path,
            source,
            pages,
            tree,
            domain,
            assets: true,
            deferred: false,
        }
    }

    /// The same linker, links to bundle files left as markers for [`resolve_deferred`].
    pub(crate) fn deferred(self) -> Self {
        Self {
            deferred: true,
            ..self
        }
    }

    /// Relative link from this page to the bundle file `to`, or its marker when deferred.
    fn relative_to(&self, to: &str) -> String {
        match self.deferred {
            true => format!("{DEFER_OPEN}{to}{DEFER_CLOSE}"),
            false => relative(&self.from, to),
        }
    }

    /// The same linker, but tree files become absolute links: for text whose references the asset
    /// scan does not see (OpenAPI descriptions), so no relative link points at an uncopied file.
    pub(crate) fn without_assets(&self) -> Self {
        Self {
            assets: false,
            ..self.clone()
        }
    }

    fn asset(&self, url: &str) -> Option<String> {
        if !self.assets {
            return None;
        }
        asset_path(self.tree, self.page_path, self.source, url)
    }

    /// The files the page may read (snippets, images).
    pub(crate) fn tree(&self) -> &'a SourceTree {
        self.tree
    }

    /// The source file of the page (`guides/a.mdx`), which authoring warnings name.
    pub(crate) fn source(&self) -> &str {
        self.source
    }

    /// The rewritten `href` of a link written as `url`.
    pub(crate) fn href(&self, url: &str) -> String {
        let url = url.trim();
        if url.is_empty() || url.starts_with('#') {
            return url.to_owned();
        }
        if let Some(scheme) = scheme(url) {
            return match scheme.as_str() {
                "http" | "https" | "mailto" | "tel" => url.to_owned(),
                _ => "#".to_owned(),
            };
        }
        if url.starts_with("//") {
            return format!("https:{url}");
        }
        let (path, fragment) = split_url(url);
        let resolved = resolve(self.page_path, path);
        if let Some(file) = find_page(self.pages, &resolved) {
            if *file == self.from && !fragment.is_empty() {
                return fragment.to_owned();
            }
            return format!("{}{fragment}", self.relative_to(file));
        }
        if let Some(asset) = self.asset(url) {
            return format!("{}{fragment}", self.relative_to(&asset));
        }
        format!("{}{fragment}", absolute(self.domain, &resolved))
    }

    /// Relative link to an exported page, by page path.
    pub(crate) fn page(&self, path: &str) -> String {
        match self.pages.get(path) {
            Some(file) => self.relative_to(file),
            None => self.relative_to(&output_file(path)),
        }
    }

    /// Relative link to a file the export writes at `file` (`_static/site.css`).
    pub(crate) fn file(&self, file: &str) -> String {
        self.relative_to(file)
    }

    /// What an `src` (image, video) becomes.
    pub(crate) fn media(&self, url: &str) -> Media {
        let url = url.trim();
        if is_data_image(url) {
            return Media::ImageOnly {
                src: url.to_owned(),
                link: "#".to_owned(),
            };
        }
        if let Some(src) = self.assets.then(|| self.inline_svg(url)).flatten() {
            return Media::ImageOnly {
                src,
                link: self.href(url),
            };
        }
        // A remote image resolves only to the copy the publish brought (see `fetched_copy`).
        match self.asset(url) {
            Some(asset) => Media::Local(self.relative_to(&asset)),
            None => Media::Link(self.href(url)),
        }
    }

    fn inline_svg(&self, url: &str) -> Option<String> {
        let path = tree_file(self.tree, self.page_path, self.source, url, is_svg)?;
        svg_data_url(self.tree.get(&path)?)
    }
}

/// Marks of a bundle file a deferred linker named (Unicode private-use characters, which the
/// renderer never writes itself).
const DEFER_OPEN: char = '\u{E000}';
const DEFER_CLOSE: char = '\u{E001}';

/// `html` rendered by a deferred linker, each marked file made a link relative to `from`, through
/// `retarget` (another version's file -> the copy the page's version holds).
pub(crate) fn resolve_deferred(
    html: &str,
    from: &str,
    retarget: &BTreeMap<String, String>,
) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find(DEFER_OPEN) {
        out.push_str(&rest[..start]);
        let after = &rest[start + DEFER_OPEN.len_utf8()..];
        let Some(end) = after.find(DEFER_CLOSE) else {
            rest = after;
            continue;
        };
        let file = &after[..end];
        out.push_str(&relative(
            from,
            retarget.get(file).map_or(file, String::as_str),
        ));
        rest = &after[end + DEFER_CLOSE.len_utf8()..];
    }
    out.push_str(rest);
    out
}

/// `data:` URL of an SVG small enough to inline, for `<img src>` only.
pub(crate) fn svg_data_url(bytes: &[u8]) -> Option<String> {
    (bytes.len() <= MAX_INLINE_SVG_BYTES).then(|| {
        format!(
            "data:image/svg+xml;base64,{}",
            crate::export::html::base64_std(bytes)
        )
    })
}

/// The SVG file of the tree a local URL names (for logos: from docs.json at the root).
pub(crate) fn svg_path(
    tree: &SourceTree,
    page_path: &str,
    source: &str,
    url: &str,
) -> Option<String> {
    tree_file(tree, page_path, source, url, is_svg)
}

fn is_svg(path: &str) -> bool {
    path.to_ascii_lowercase().ends_with(".svg") && is_safe_path(path)
}

/// A `data:` URL of a raster or SVG image: shown by `<img>`, which runs no script.
fn is_data_image(url: &str) -> bool {
    let lower = url.get(..24).unwrap_or(url).to_ascii_lowercase();
    [
        "data:image/png",
        "data:image/jpeg",
        "data:image/gif",
        "data:image/webp",
        "data:image/svg+xml",
    ]
    .iter()
    .any(|prefix| lower.starts_with(prefix))
}

/// Output file of a page: `a/b` -> `a/b.html`.
pub(crate) fn output_file(page_path: &str) -> String {
    format!("{page_path}.html")
}

/// The extensionless public URL of a site path: `index` is the root, `x/index` is `x`.
pub(crate) fn absolute(domain: &str, path: &str) -> String {
    let path = if path == "index" {
        ""
    } else {
        path.strip_suffix("/index").unwrap_or(path)
    };
    format!("https://{domain}/{}", encode_path(path))
}

/// The exported page a resolved path names (`x` may be served by `x/index`).
pub(crate) fn find_page<'p>(pages: &'p BTreeMap<String, String>, path: &str) -> Option<&'p String> {
    if path.is_empty() {
        return pages.get("index");
    }
    pages
        .get(path)
        .or_else(|| pages.get(&format!("{path}/index")))
}

/// The lowercase scheme of an absolute URL (`https`, `mailto`), if it has one.
fn scheme(url: &str) -> Option<String> {
    let colon = url.find(':')?;
    let name = &url[..colon];
    let valid = name.len() > 1
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then(|| name.to_ascii_lowercase())
}

/// Splits `a/b?x=1#frag` into the path and `#frag` (the query is dropped: static files ignore it).
fn split_url(url: &str) -> (&str, &str) {
    let (rest, fragment) = match url.find('#') {
        Some(i) => (&url[..i], &url[i..]),
        None => (url, ""),
    };
    let path = rest.split('?').next().unwrap_or("");
    (path, fragment)
}

/// A URL path resolved to a site path: from the root when it starts with `/`, else from the folder
/// of the page URL; `%xx` decoded, `.`/`..` applied (never above the root), the page extensions and
/// trailing slash dropped. `""` is the root.
pub(crate) fn resolve(page_path: &str, url_path: &str) -> String {
    let decoded = percent_decode(url_path);
    let mut parts: Vec<&str> = Vec::new();
    if !decoded.starts_with('/') {
        parts.extend(page_path.split('/'));
        parts.pop();
    }
    for part in decoded.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    let joined = parts.join("/");
    let trimmed = [".mdx", ".md", ".html"]
        .iter()
        .find_map(|ext| joined.strip_suffix(ext))
        .unwrap_or(&joined);
    trimmed.to_owned()
}

/// The tree file a local URL names, when it is a file the bundle may carry (not a page source, not
/// in the export's own folder). Relative URLs are tried from the page URL's folder, then from the
/// source file's folder (`guides/index.mdx` is served at `/guides`, but writes `img.png` for its own
/// folder's image).
pub(crate) fn asset_path(
    tree: &SourceTree,
    page_path: &str,
    source: &str,
    url: &str,
) -> Option<String> {
    tree_file(tree, page_path, source, url, is_copyable)
        .or_else(|| svg_file(tree, page_path, source, url))
}

/// The tree SVG a local URL names when the bundle carries it as a file (see the module's rules).
fn svg_file(tree: &SourceTree, page_path: &str, source: &str, url: &str) -> Option<String> {
    carried_svg(tree, page_path, source, url, MAX_INLINE_SVG_BYTES + 1)
}

/// The tree SVG a local URL names, as a file of the bundle, when it has at least `min_bytes` and
/// the allow-list keeps its picture (`svg_file`).
pub(crate) fn carried_svg(
    tree: &SourceTree,
    page_path: &str,
    source: &str,
    url: &str,
    min_bytes: usize,
) -> Option<String> {
    let path = tree_file(tree, page_path, source, url, is_svg)?;
    let bytes = tree.get(&path)?;
    let carried = bytes.len() >= min_bytes
        && !path.starts_with(&format!("{STATIC_DIR}/"))
        && crate::export::render::svg_file::sanitise(bytes).is_some();
    carried.then_some(path)
}

/// The bytes the bundle holds for the copied tree file `path`: an SVG rewritten to the allow-list.
pub(crate) fn asset_bytes(path: &str, bytes: &[u8]) -> Option<Vec<u8>> {
    match is_svg(path) {
        true => crate::export::render::svg_file::sanitise(bytes).map(String::into_bytes),
        false => Some(bytes.to_vec()),
    }
}

/// The tree file a local URL names that `accept` takes, tried as [`asset_path`] describes.
fn tree_file(
    tree: &SourceTree,
    page_path: &str,
    source: &str,
    url: &str,
    accept: fn(&str) -> bool,
) -> Option<String> {
    let url = url.trim();
    if scheme(url).is_some_and(|s| s == "http" || s == "https") {
        return fetched_copy(tree, url).filter(|path| accept(path));
    }
    if url.is_empty() || url.starts_with('#') || url.starts_with("//") || scheme(url).is_some() {
        return None;
    }
    let (path, _) = split_url(url);
    let decoded = percent_decode(path);
    // A candidate ends with the URL's last segment when that is a name: most words the asset scan
    // tries (`e.g.`, `example.com`) are refused by it alone, before any path is built.
    let last = decoded.rsplit('/').next().unwrap_or_default();
    if !matches!(last, "" | "." | "..") && !accept(last) {
        return None;
    }
    let candidates = [
        join_relative(page_path, &decoded),
        join_relative(source, &decoded),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|candidate| accept(candidate) && tree.contains_key(candidate.as_str()))
}

/// Whether a tree file may be copied into the bundle as an asset: a passive file type (see
/// [`PASSIVE_EXTENSIONS`]) outside the export's own folder.
/// The tree copy of a remote file the publish fetched (`publish-docs` downloads the images pages
/// show from other hosts and maps each URL to its copy in [`REMOTE_MANIFEST`]), so the bundle shows
/// it without a request to that host; `None` when the publish did not bring it.
fn fetched_copy(tree: &SourceTree, url: &str) -> Option<String> {
    if !tree.contains_key(REMOTE_MANIFEST) {
        return None;
    }
    remote_manifest(tree)
        .remove(url)
        .filter(|path| tree.contains_key(path))
}

pub(crate) fn is_copyable(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let passive = lower
        .rsplit_once('.')
        .is_some_and(|(_, ext)| PASSIVE_EXTENSIONS.contains(&ext));
    passive
        && !path.starts_with(&format!("{STATIC_DIR}/"))
        && !crate::docs::assistant_files::is_assistant_file(path)
        && is_safe_path(path)
}

/// Relative path with `/` segments only, none empty, `.` or `..`: safe as a tar entry name.
pub(crate) fn is_safe_path(path: &str) -> bool {
    !path.is_empty()
        && !path.contains('\\')
        && path
            .split('/')
            .all(|p| !p.is_empty() && p != "." && p != "..")
}

/// Folder of the site's stored tree where the publish keeps its copies of remote files.
const REMOTE_TREE_DIR: &str = ".docs-edge/remote/";
/// Where the bundle holds them: static hosts often refuse dot-folders (GitHub Pages' Jekyll, some
/// nginx configurations), and nothing else of the export's own folder is under `remote/`.
const REMOTE_BUNDLE_DIR: &str = "_static/remote/";

/// The bundle path of the tree file `path`: its own, except the publish's remote copies (see
/// [`REMOTE_BUNDLE_DIR`]). Every file the export copies is written there and every link to one
/// goes there ([`relative`]).
pub fn bundle_path(path: &str) -> std::borrow::Cow<'_, str> {
    match path.strip_prefix(REMOTE_TREE_DIR) {
        Some(rest) => format!("{REMOTE_BUNDLE_DIR}{rest}").into(),
        None => path.into(),
    }
}

/// Relative URL from the file `from` to the file `to`, both bundle paths (a tree file's path is
/// taken through [`bundle_path`]): `a/b.html` -> `c/d.html` is `../c/d.html`. Segments are
/// percent-encoded.
pub(crate) fn relative(from: &str, to: &str) -> String {
    let to = &*bundle_path(to);
    // The folders both paths start with: segments ending in `/` alike, compared with it.
    let (mut common, mut rest_at) = (0, 0);
    for (a, b) in from.split_inclusive('/').zip(to.split_inclusive('/')) {
        if !(a == b && b.ends_with('/')) {
            break;
        }
        common += 1;
        rest_at += b.len();
    }
    let ups = from.bytes().filter(|&b| b == b'/').count() - common;
    let rest = &to[rest_at..];
    if ups == 0 {
        return unambiguous(encode_path(rest));
    }
    let mut out = String::with_capacity(3 * ups + rest.len());
    for _ in 0..ups {
        out.push_str("../");
    }
    encode_except_into(&mut out, rest, PATH_KEPT);
    out
}

/// A relative URL that no browser reads as a scheme or a host: RFC 3986 4.2 says a relative path
/// whose first segment holds `:` (`javascript:x.html`) must start with `./`, and one starting with
/// `//` would name a host. Page paths cannot hold either (see `docs::page_path`); this holds for
/// every relative URL the export writes all the same.
pub(crate) fn unambiguous(relative: String) -> String {
    let first = relative.split(['/', '?', '#']).next().unwrap_or("");
    if first.contains(':') || relative.starts_with("//") || relative.starts_with('\\') {
        format!("./{relative}")
    } else {
        relative
    }
}

/// Percent-encodes what may not stand in a URL path (spaces, `#`, `?`, non-ASCII).
pub(crate) fn encode_path(path: &str) -> String {
    encode_except(path, PATH_KEPT)
}

/// What a path keeps unencoded besides ASCII letters and digits.
const PATH_KEPT: &[u8] = b"-._~/!$&'()*+,;=:@";

/// Percent-encodes all but the unreserved characters: a query name or value, a path segment.
pub(crate) fn encode_component(text: &str) -> String {
    encode_except(text, b"-._~")
}

fn encode_except(path: &str, kept: &[u8]) -> String {
    let mut out = String::with_capacity(path.len());
    encode_except_into(&mut out, path, kept);
    out
}

fn encode_except_into(out: &mut String, path: &str, kept: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut start = 0;
    for (i, byte) in path.bytes().enumerate() {
        if byte.is_ascii_alphanumeric() || kept.contains(&byte) {
            continue;
        }
        // A run of kept bytes is ASCII, so a non-empty `start..i` never splits a character.
        if start < i {
            out.push_str(&path[start..i]);
        }
        out.push('%');
        out.push(HEX[usize::from(byte >> 4)] as char);
        out.push(HEX[usize::from(byte & 15)] as char);
        start = i + 1;
    }
    out.push_str(&path[start..]);
}

fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_owned();
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::archive::tree;

    fn pages(paths: &[&str]) -> BTreeMap<String, String> {
        paths
            .iter()
            .map(|p| (p.to_string(), output_file(p)))
            .collect()
    }

    fn with<R>(page: &str, f: impl FnOnce(&Linker) -> R) -> R {
        let pages = pages(&["index", "a/b", "c/d", "guides", "es/index"]);
        let tree = tree(&[
            ("images/x.png", "png"),
            ("a/local.png", "png"),
            ("guides/index.mdx", "g"),
            ("guides/pic.png", "png"),
            ("files/my doc.pdf", "pdf"),
        ]);
        let source = if page == "guides" {
            "guides/index.mdx".to_owned()
        } else {
            format!("{page}.mdx")
        };
        let linker = Linker::new(page, &source, &pages, &tree, "docs.example.com");
        f(&linker)
    }

    #[test]
    fn page_links_become_relative_html_links_keeping_anchors() {
        with("a/b", |l| {
            assert_eq!(l.href("/c/d"), "../c/d.html");
            assert_eq!(l.href("/c/d#setup"), "../c/d.html#setup");
            assert_eq!(l.href("../c/d.mdx"), "../c/d.html");
            assert_eq!(l.href("/"), "../index.html");
            assert_eq!(l.href("/index"), "../index.html");
            assert_eq!(l.href("/es"), "../es/index.html");
            assert_eq!(l.href("/guides/"), "../guides.html");
            assert_eq!(l.href("b#here"), "#here");
            assert_eq!(l.href("/a/b?x=1"), "b.html");
        });
        with("index", |l| assert_eq!(l.href("/a/b"), "a/b.html"));
    }

    #[test]
    fn links_to_pages_not_exported_become_absolute_extensionless_urls() {
        with("a/b", |l| {
            assert_eq!(l.href("/v1/old#x"), "https://docs.example.com/v1/old#x");
            assert_eq!(l.href("/other.mdx"), "https://docs.example.com/other");
        });
    }

    #[test]
    fn external_anchor_and_unsafe_links() {
        with("a/b", |l| {
            assert_eq!(l.href("https://x.dev/y"), "https://x.dev/y");
            assert_eq!(l.href("mailto:a@b.c"), "mailto:a@b.c");
            assert_eq!(l.href("#top"), "#top");
            assert_eq!(l.href("javascript:alert(1)"), "#");
            assert_eq!(l.href("//cdn.x/y"), "https://cdn.x/y");
        });
    }

    #[test]
    fn local_files_become_relative_links_to_their_copies() {
        with("a/b", |l| {
            assert_eq!(
                l.media("/images/x.png"),
                Media::Local("../images/x.png".into())
            );
            assert_eq!(l.media("local.png"), Media::Local("local.png".into()));
            assert_eq!(l.href("/files/my%20doc.pdf"), "../files/my%20doc.pdf");
            assert_eq!(
                l.media("https://cdn.x/y.png"),
                Media::Link("https://cdn.x/y.png".into())
            );
            assert_eq!(
                l.media("/images/missing.png"),
                Media::Link("https://docs.example.com/images/missing.png".into())
            );
        });
        // Served at /guides, but its images sit next to guides/index.mdx.
        with("guides", |l| {
            assert_eq!(l.media("pic.png"), Media::Local("guides/pic.png".into()))
        });
    }

    #[test]
    fn relative_paths_between_files() {
        assert_eq!(relative("a/b.html", "c/d.html"), "../c/d.html");
        assert_eq!(relative("a/b.html", "a/c.html"), "c.html");
        assert_eq!(relative("index.html", "a/b.html"), "a/b.html");
        assert_eq!(relative("a/b/c.html", "a/x.html"), "../x.html");
        assert_eq!(
            relative("a/b.html", "_static/site.css"),
            "../_static/site.css"
        );
    }

    #[test]
    fn absolute_urls_are_extensionless_and_encoded() {
        assert_eq!(absolute("d.io", "index"), "https://d.io/");
        assert_eq!(absolute("d.io", "es/index"), "https://d.io/es");
        assert_eq!(absolute("d.io", "a/b c"), "https://d.io/a/b%20c");
    }

    #[test]
    fn relative_urls_are_never_read_as_a_scheme() {
        let pages = pages(&["index", "javascript:alert(1)", "a/data:x"]);
        let tree = tree(&[]);
        let linker = Linker::new("index", "index.mdx", &pages, &tree, "d.io");
        assert_eq!(
            linker.page("javascript:alert(1)"),
            "./javascript:alert(1).html"
        );
        assert_eq!(
            linker.href("./javascript:alert(1)"),
            "./javascript:alert(1).html"
        );
        assert_eq!(linker.href("javascript:alert(1)"), "#");
        assert_eq!(linker.href("a/data:x"), "a/data:x.html");
        let inner = Linker::new("a/b", "a/b.mdx", &pages, &tree, "d.io");
        assert_eq!(inner.href("data:x"), "#");
        assert_eq!(inner.href("./data:x"), "./data:x.html");
        assert_eq!(unambiguous("a:b/c".into()), "./a:b/c");
        assert_eq!(unambiguous("a/b:c".into()), "a/b:c");
    }

    #[test]
    fn resolve_never_climbs_above_the_root() {
        assert_eq!(resolve("a/b", "../../../x"), "x");
        assert_eq!(resolve("a/b", "./c.md"), "a/c");
        assert!(!is_safe_path("../x") && !is_safe_path("a//b") && is_safe_path("a/b.png"));
    }
}

#[cfg(test)]
mod fetched_tests {
    use super::*;
    use crate::docs::archive::tree;

    /// The publish's copy of a remote image is shown from the bundle (and found by the asset scan,
    /// which resolves the same way); an image it did not bring, or an embed, stays a link.
    #[test]
    fn remote_images_the_publish_brought_are_shown_from_the_bundle() {
        let t = tree(&[
            (
                REMOTE_MANIFEST,
                r#"{"https://cdn.x/y.png": ".docs-edge/remote/ab12.png", "https://cdn.x/gone.png": ".docs-edge/remote/none.png", "https://cdn.x/s.js": ".docs-edge/remote/cd.js"}"#,
            ),
            (".docs-edge/remote/ab12.png", "png"),
            (".docs-edge/remote/cd.js", "js"),
        ]);
        let pages = BTreeMap::new();
        let l = Linker::new("a/b", "a/b.mdx", &pages, &t, "docs.example.com");
        assert_eq!(
            l.media("https://cdn.x/y.png"),
            Media::Local("../_static/remote/ab12.png".into())
        );
        assert_eq!(
            l.media("https://cdn.x/gone.png"),
            Media::Link("https://cdn.x/gone.png".into())
        );
        assert_eq!(
            l.media("https://cdn.x/s.js"),
            Media::Link("https://cdn.x/s.js".into())
        );
        assert_eq!(
            l.media("https://www.youtube.com/embed/x"),
            Media::Link("https://www.youtube.com/embed/x".into())
        );
        assert_eq!(
            l.href("https://cdn.x/y.png"),
            "https://cdn.x/y.png",
            "a link goes where it says"
        );
        assert_eq!(
            asset_path(&t, "a/b", "a/b.mdx", "https://cdn.x/y.png").as_deref(),
            Some(".docs-edge/remote/ab12.png")
        );
    }
}
