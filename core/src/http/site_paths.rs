//! Where a URL of a static site points in its exported bundle, for every server of a bundle
//! (docs-edge-serve from a folder, the worker from R2): extensionless page URLs (`/a/b` → `a/b.html`),
//! a folder's page with its slash (`/a/` → `a/index.html`, and `/a` redirected there when only the
//! folder's page exists, so the page's relative links resolve), the page's Markdown beside it
//! (`a/b.md`), and any other file by its own name.

use super::routes::percent_decode;

/// What a URL path names in the bundle; paths are relative to the bundle's root, percent-decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SitePath {
    /// A page: its HTML file and its Markdown beside it. `folder` is set for an extensionless URL
    /// whose page may instead be a folder's: that folder's page, and the URL with a slash, where the
    /// request is redirected when only the folder's page exists.
    Page {
        html: String,
        markdown: String,
        folder: Option<(String, String)>,
    },
    /// Any other file, by its name (`_static/site.css`, `guides/setup.md`, `llms.txt`).
    File(String),
}

/// The bundle path(s) `url_path` (as requested: percent-encoded, starting with `/`) names, or
/// `None` when it cannot name a file of the bundle (`..`, `.` or empty segments, a backslash, a
/// malformed escape).
pub fn site_path(url_path: &str) -> Option<SitePath> {
    let decoded = percent_decode(url_path)?;
    let relative = decoded.strip_prefix('/')?;
    let (folder, last) = match relative.rsplit_once('/') {
        Some((folder, last)) => (Some(folder), last),
        None => (None, relative),
    };
    if let Some(folder) = folder {
        if folder
            .split('/')
            .any(|seg| seg.is_empty() || seg == "." || seg == "..")
        {
            return None;
        }
    }
    if relative.contains(['\\', '\0']) || last == "." || last == ".." {
        return None;
    }
    if last.is_empty() {
        return Some(SitePath::Page {
            html: format!("{relative}index.html"),
            markdown: format!("{relative}index.md"),
            folder: None,
        });
    }
    if let Some(stem) = relative.strip_suffix(".html") {
        return Some(SitePath::Page {
            html: relative.to_string(),
            markdown: format!("{stem}.md"),
            folder: None,
        });
    }
    if last.contains('.') {
        return Some(SitePath::File(relative.to_string()));
    }
    Some(SitePath::Page {
        html: format!("{relative}.html"),
        markdown: format!("{relative}.md"),
        folder: Some((format!("{relative}/index.html"), format!("{url_path}/"))),
    })
}

/// `url_path` percent-decoded (what a site's redirect rules match); `None` for a malformed escape
/// or a result that is not UTF-8.
pub fn decoded(url_path: &str) -> Option<String> {
    percent_decode(url_path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: &str, markdown: &str) -> SitePath {
        SitePath::Page {
            html: html.into(),
            markdown: markdown.into(),
            folder: None,
        }
    }

    #[test]
    fn site_paths_extensionless_urls_name_the_page_then_the_folders_page() {
        assert_eq!(
            site_path("/guides/quick%20start"),
            Some(SitePath::Page {
                html: "guides/quick start.html".into(),
                markdown: "guides/quick start.md".into(),
                folder: Some((
                    "guides/quick start/index.html".into(),
                    "/guides/quick%20start/".into()
                )),
            })
        );
        assert_eq!(site_path("/"), Some(page("index.html", "index.md")));
        assert_eq!(
            site_path("/fr/"),
            Some(page("fr/index.html", "fr/index.md"))
        );
        assert_eq!(site_path("/a/b.html"), Some(page("a/b.html", "a/b.md")));
    }

    #[test]
    fn site_paths_other_files_are_named_as_they_are() {
        assert_eq!(
            site_path("/_static/site.css"),
            Some(SitePath::File("_static/site.css".into()))
        );
        assert_eq!(
            site_path("/guides/setup.md"),
            Some(SitePath::File("guides/setup.md".into()))
        );
        assert_eq!(
            site_path("/skill.md"),
            Some(SitePath::File("skill.md".into()))
        );
    }

    #[test]
    fn site_paths_never_leave_the_bundle() {
        for path in [
            "/guides/../outside",
            "/..",
            "/a//b",
            "/./a",
            "/a\\b",
            "/a%2F..%2Fb",
            "/%zz",
            "/%FF",
            "a",
            "/a/%2e%2e/b",
        ] {
            assert_eq!(site_path(path), None, "{path:?}");
        }
    }
}
