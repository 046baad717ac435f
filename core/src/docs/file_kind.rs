//! Which files of a docs folder the publish parses (source) and which it only stores (media).
//!
//! Real docs repositories are mostly images, GIFs, videos and PDFs that pages only link to: the
//! publish never reads them, so they are streamed into storage as they are and bounded by their own
//! limits, while source files are what parsing holds in memory. Unknown extensions count as media:
//! a file the parser does not understand is never worth holding whole.

/// Extensions (lower case, without the dot) of files the publish or the export reads as text:
/// pages, snippets, configuration, OpenAPI documents, inline SVG, and the stylesheets and scripts
/// a site may ship beside its pages.
const SOURCE_EXTENSIONS: &[&str] = &[
    "mdx", "md", "markdown", "json", "yaml", "yml", "svg", "txt", "css", "js", "jsx", "mjs", "ts",
    "tsx", "html", "htm", "xml", "csv", "toml",
];

/// Names without an extension that are still text the site may need.
const SOURCE_NAMES: &[&str] = &[".mintignore", "_redirects", "CNAME"];

/// Whether `path` names a page or a snippet (`.mdx`, `.md`).
pub fn is_markdown(path: &str) -> bool {
    path.ends_with(".mdx") || path.ends_with(".md")
}

/// Whether `path` (a normalised path inside the docs folder) is a source file: parsed, packed, and
/// counted against the source limits. Everything else is media.
pub fn is_source(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    if SOURCE_NAMES.contains(&name) {
        return true;
    }
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => SOURCE_EXTENSIONS
            .iter()
            .any(|s| s.eq_ignore_ascii_case(ext)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_config_and_specs_are_source_and_binaries_are_media() {
        for source in [
            "docs.json",
            "mint.json",
            "a/b.mdx",
            "README.md",
            "api/openapi.YAML",
            "logo.svg",
            "style.css",
            "snippets/x.jsx",
            ".mintignore",
        ] {
            assert!(is_source(source), "{source}");
        }
        for media in [
            "images/a.png",
            "demo.GIF",
            "intro.mp4",
            "guide.pdf",
            "fonts/x.woff2",
            "bundle.zip",
            "LICENSE",
            "file.",
            ".png",
            "noext",
        ] {
            assert!(!is_source(media), "{media}");
        }
    }
}
