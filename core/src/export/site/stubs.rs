//! The pages that only lead elsewhere, so a bundle opens at its root and old URLs still arrive:
//! - a root `index.html` when no exported page is the site's home (the navigation starts in a
//!   version folder, a tab or a language prefix such as `en/`), leading to the home page of the
//!   default language and listing the other languages' homes;
//! - a stub page at every literal redirect source that is not a file of the bundle, leading to its
//!   destination (`noindex`), and the `_redirects` file of every rule (see [`crate::export::site::redirects`]).
//!
//! Each leads by `<meta http-equiv="refresh">` and a canonical link, both relative, and a visible
//! link for readers whose browser does not follow the refresh. A redirect stub whose destination
//! leads to no page of the bundle, even through further redirects, leads to the bundle's 404 page
//! (an http(s) URL the owner wrote stays as written). These are the only pages with a refresh, and they run no script (the test oracle
//! `active_content::find_active_in_stub` holds them to that).

use std::collections::{BTreeMap, BTreeSet};

use crate::docs::page_path::page_path_problem;
use crate::docs::{Page, Site, SourceTree};

use crate::export::html::{attr, element, text};
use crate::export::page::layout::{language_name, CSS_FILE, NOT_FOUND_FILE};
use crate::export::render::links::{self, output_file, Linker, STATIC_DIR};
use crate::export::site::redirects::{self, REDIRECTS_FILE};
use crate::export::ExportFile;

/// What the entry pages are made from: the plan's exported pages and homes.
pub(in crate::export) struct Entry<'a> {
    pub(in crate::export) site: &'a Site,
    pub(in crate::export) tree: &'a SourceTree,
    pub(in crate::export) domain: &'a str,
    /// Exported page path -> its file.
    pub(in crate::export) files: &'a BTreeMap<String, String>,
    /// Exported page path -> index into `Site::pages`.
    pub(in crate::export) index_of: &'a BTreeMap<String, usize>,
    /// The home page of each language, the default language first.
    pub(in crate::export) homes: Vec<&'a Page>,
}

/// `_redirects`, the redirect stubs and the root page, none at a path in `taken`.
pub(in crate::export) fn entry_files(
    entry: &Entry<'_>,
    taken: &BTreeSet<String>,
) -> Vec<ExportFile> {
    let mut out: Vec<ExportFile> = Vec::new();
    let rules = redirects::rules(&entry.site.config.redirects, entry.files);
    if !rules.is_empty() {
        out.push(ExportFile::new(
            REDIRECTS_FILE.to_owned(),
            redirects::file_text(&rules),
        ));
    }
    let language = entry
        .homes
        .first()
        .map_or("en", |home| home.language.as_str());
    let mut root_rule = None;
    for rule in rules.iter().filter(|rule| rule.is_literal()) {
        let path = links::resolve("", &rule.source);
        if path.is_empty() {
            // The site's own answer for `/`: the root page leads there.
            root_rule = root_rule.or(Some(rule));
            continue;
        }
        let file = output_file(&path);
        let fits = page_path_problem(&path).is_none()
            && links::is_safe_path(&file)
            && !path.starts_with(&format!("{STATIC_DIR}/"))
            && !taken.contains(&file)
            && !out.iter().any(|f| f.path == file);
        if !fits {
            continue;
        }
        let links = Linker::new(&path, "", entry.files, entry.tree, entry.domain).without_assets();
        let stub = match leads_somewhere(entry, &rule.destination) {
            true => {
                let title = title_of(entry, &rule.destination).unwrap_or(&rule.destination);
                Stub {
                    language,
                    title: "Page moved",
                    target: links.href(&rule.destination),
                    message: "This page has moved to".into(),
                    link_text: title,
                    others: Vec::new(),
                }
            }
            false => {
                let message = format!("This page has moved to {}, which this copy of the documentation does not hold:", rule.destination);
                Stub {
                    language,
                    title: "Page moved",
                    target: links.file(NOT_FOUND_FILE),
                    message,
                    link_text: "Page not found",
                    others: Vec::new(),
                }
            }
        };
        out.push(ExportFile::new(file, stub.html(entry.site, &links)));
    }
    let Some(home) = entry
        .homes
        .first()
        .filter(|_| !taken.contains("index.html"))
    else {
        return out;
    };
    let links = Linker::new("index", "", entry.files, entry.tree, entry.domain);
    let (target, link_text) =
        match root_rule.filter(|rule| leads_somewhere(entry, &rule.destination)) {
            Some(rule) => (
                links.without_assets().href(&rule.destination),
                title_of(entry, &rule.destination).unwrap_or(&rule.destination),
            ),
            None => (links.page(&home.path), home.title.as_str()),
        };
    let others = entry.homes[1..]
        .iter()
        .map(|page| (language_name(&page.language), links.page(&page.path)))
        .collect();
    let stub = Stub {
        language,
        title: &entry.site.name,
        target,
        message: "The documentation starts at".into(),
        link_text,
        others,
    };
    out.push(ExportFile::new(
        "index.html".to_owned(),
        stub.html(entry.site, &links),
    ));
    out
}

/// Whether a rule's destination (settled by [`redirects::rules`]) is a page of the bundle or an
/// http(s) URL, rather than a path the bundle lacks.
fn leads_somewhere(entry: &Entry<'_>, destination: &str) -> bool {
    let path = destination.split('#').next().unwrap_or_default();
    !destination.starts_with('/')
        || links::find_page(entry.files, &links::resolve("", path)).is_some()
}

/// The title of the exported page a bundle path (`/a/b#x`) names.
fn title_of<'s>(entry: &Entry<'s>, destination: &str) -> Option<&'s str> {
    let path = destination.strip_prefix('/')?.split('#').next()?;
    let path = if path.is_empty() { "index" } else { path };
    [path.to_owned(), format!("{path}/index")]
        .iter()
        .find_map(|p| entry.index_of.get(p))
        .and_then(|&i| entry.site.pages.get(i))
        .map(|page| page.title.as_str())
}

struct Stub<'a> {
    language: &'a str,
    title: &'a str,
    /// Relative URL (or an http(s) URL the owner wrote) of where the page leads.
    target: String,
    message: String,
    link_text: &'a str,
    /// Other places to go: label and URL.
    others: Vec<(&'a str, String)>,
}

impl Stub<'_> {
    fn html(&self, site: &Site, links: &Linker<'_>) -> String {
        let mut out = String::from("<!DOCTYPE html><html");
        attr(&mut out, "lang", self.language);
        out.push_str("><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"robots\" content=\"noindex\">");
        element(
            &mut out,
            "title",
            "",
            &format!("{} - {}", self.title, site.name),
        );
        out.push_str("<link rel=\"canonical\"");
        attr(&mut out, "href", &self.target);
        out.push_str("><meta http-equiv=\"refresh\"");
        attr(
            &mut out,
            "content",
            &format!("0; url={}", refresh_url(&self.target)),
        );
        out.push_str("><link rel=\"stylesheet\"");
        attr(&mut out, "href", &links.file(CSS_FILE));
        out.push_str("></head><body><main class=\"content not-found\" id=\"content\">");
        element(&mut out, "h1", "", &site.name);
        out.push_str("<p>");
        text(&mut out, &self.message);
        out.push_str(" <a");
        attr(&mut out, "href", &self.target);
        out.push('>');
        text(&mut out, self.link_text);
        out.push_str("</a>.</p>");
        if !self.others.is_empty() {
            out.push_str("<ul>");
            for (label, href) in &self.others {
                out.push_str("<li><a");
                attr(&mut out, "href", href);
                out.push('>');
                text(&mut out, label);
                out.push_str("</a></li>");
            }
            out.push_str("</ul>");
        }
        out.push_str("</main></body></html>\n");
        out
    }
}

/// A refresh's URL runs to the end of its `content`; one starting with a quote would be read as
/// quoted, so quotes are percent-encoded.
fn refresh_url(url: &str) -> String {
    url.replace('\'', "%27").replace('"', "%22")
}

#[cfg(test)]
mod tests {
    use crate::docs::archive::tree;
    use crate::docs::build_site;
    use crate::export::render::active_content::{find_active, find_active_in_stub};
    use crate::export::tests::{export, options};
    use crate::export::{ExportFile, ExportOptions};

    fn text<'f>(files: &'f [ExportFile], path: &str) -> std::borrow::Cow<'f, str> {
        let file = files
            .iter()
            .find(|f| f.path == path)
            .unwrap_or_else(|| panic!("{path} is not in the bundle"));
        String::from_utf8_lossy(&file.bytes)
    }

    #[test]
    fn a_bundle_whose_navigation_starts_in_a_language_folder_opens_at_its_root() {
        let t = tree(&[
            (
                "docs.json",
                r#"{"name": "Dify", "navigation": {"languages": [
                    {"language": "en", "tabs": [{"tab": "Docs", "pages": ["en/home", "en/guide"]}]},
                    {"language": "zh", "tabs": [{"tab": "文档", "pages": ["zh/home"]}]}]}}"#,
            ),
            ("en/home.mdx", "---\ntitle: Welcome\n---\nHi."),
            ("en/guide.mdx", "Guide."),
            ("zh/home.mdx", "---\ntitle: 欢迎\n---\n你好。"),
        ]);
        let site = build_site(&t).unwrap();
        let (files, _) = export(&site, &t, &options());
        let root = text(&files, "index.html");
        assert!(
            root.contains("<meta http-equiv=\"refresh\" content=\"0; url=en/home.html\">"),
            "{root}"
        );
        assert!(
            root.contains("<link rel=\"canonical\" href=\"en/home.html\">"),
            "{root}"
        );
        assert!(
            root.contains("<a href=\"en/home.html\">Welcome</a>"),
            "{root}"
        );
        assert!(
            root.contains("<a href=\"zh/home.html\">"),
            "the other language's home is listed: {root}"
        );
        assert_eq!(find_active_in_stub(&root), None);
    }

    #[test]
    fn a_versioned_or_tabbed_bundle_leads_to_its_first_page_and_a_home_page_is_the_root_itself() {
        let t = tree(&[
            (
                "docs.json",
                r#"{"navigation": {"versions": [{"version": "v2", "pages": ["v2/start"]}]}}"#,
            ),
            ("v2/start.mdx", "Start."),
        ]);
        let site = build_site(&t).unwrap();
        let (files, _) = export(&site, &t, &options());
        assert!(text(&files, "index.html").contains("url=v2/start.html"));

        // Navigation that starts in a tab whose first page is in a folder.
        let t = tree(&[
            (
                "docs.json",
                r#"{"navigation": {"tabs": [{"tab": "Guides", "groups": [{"group": "Start", "pages": ["guides/intro"]}]},
                {"tab": "API", "pages": ["api/overview"]}]}}"#,
            ),
            ("guides/intro.mdx", "---\ntitle: Introduction\n---\nHi."),
            ("api/overview.mdx", "API."),
        ]);
        let site = build_site(&t).unwrap();
        let (files, _) = export(&site, &t, &options());
        let root = text(&files, "index.html");
        assert!(
            root.contains("url=guides/intro.html")
                && root.contains("<a href=\"guides/intro.html\">Introduction</a>"),
            "{root}"
        );
        assert_eq!(find_active_in_stub(&root), None);

        let t = tree(&[
            ("docs.json", r#"{"navigation": {"pages": ["index"]}}"#),
            ("index.mdx", "# Home page"),
        ]);
        let site = build_site(&t).unwrap();
        let (files, _) = export(&site, &t, &options());
        let root = text(&files, "index.html");
        assert!(
            !root.contains("http-equiv") && root.contains("Home page"),
            "the home page is the root: {root}"
        );
        assert!(
            !files.iter().any(|f| f.path == "_redirects"),
            "no redirects, no file"
        );
    }

    #[test]
    fn redirects_become_stubs_and_the_redirects_file() {
        let t = tree(&[
            (
                "docs.json",
                r#"{"navigation": {"pages": ["index", "guides/start", "guides/next"]}, "redirects": [
                    {"source": "/old/start", "destination": "/guides/start#setup"},
                    {"source": "/guides/next", "destination": "/index"},
                    {"source": "/gone", "destination": "/v9/page", "permanent": false},
                    {"source": "/blog/:slug*", "destination": "https://blog.example.com/:slug*"},
                    {"source": "/x\"><script>alert(1)</script>", "destination": "javascript:alert(1)"},
                    {"source": "/js", "destination": "javascript:alert(1)"},
                    {"source": "/q", "destination": "/guides/'start"},
                    {"source": "/enterprise/:path*", "destination": "/en/enterprise/:path*"},
                    {"source": "/en/enterprise", "destination": "/guides/start"},
                    {"source": "/nowhere", "destination": "/en/enterprise/x"}
                ]}"#,
            ),
            ("index.mdx", "Home."),
            (
                "guides/start.mdx",
                "---\ntitle: Getting started\n---\nStart.",
            ),
            ("guides/next.mdx", "Next."),
        ]);
        let site = build_site(&t).unwrap();
        let options = ExportOptions {
            domain: "docs.example.com".into(),
            ..options()
        };
        let (files, _) = export(&site, &t, &options);
        let stub = text(&files, "old/start.html");
        assert!(
            stub.contains("<meta name=\"robots\" content=\"noindex\">"),
            "{stub}"
        );
        assert!(
            stub.contains(
                "<meta http-equiv=\"refresh\" content=\"0; url=../guides/start.html#setup\">"
            ),
            "{stub}"
        );
        assert!(
            stub.contains("<link rel=\"canonical\" href=\"../guides/start.html#setup\">"),
            "{stub}"
        );
        assert!(stub.contains(">Getting started</a>"), "{stub}");
        let gone = text(&files, "gone.html");
        assert!(
            gone.contains("<meta http-equiv=\"refresh\" content=\"0; url=404.html\">"),
            "a page the bundle lacks: its 404 page: {gone}"
        );
        assert!(
            gone.contains("moved to /v9/page, which this copy")
                && gone.contains("<a href=\"404.html\">Page not found</a>"),
            "{gone}"
        );
        assert!(
            !text(&files, "guides/next.html").contains("http-equiv"),
            "a page is never replaced by a stub"
        );
        assert!(text(&files, "q.html").contains("url=404.html"));
        let chained = text(&files, "enterprise.html");
        assert!(
            chained.contains("url=guides/start.html\""),
            "a chain of redirects to a page: {chained}"
        );
        assert!(
            text(&files, "nowhere.html").contains("url=404.html"),
            "a chain to no page: the 404 page"
        );
        assert!(
            text(&files, "blog.html").contains("url=https://blog.example.com\""),
            "an URL the owner wrote"
        );
        for file in files
            .iter()
            .filter(|f| f.path.ends_with(".html") && f.path != "blog.html")
        {
            assert!(
                !String::from_utf8_lossy(&file.bytes).contains("url=http"),
                "{} leads off the bundle",
                file.path
            );
        }
        let rules = text(&files, "_redirects");
        let lines: Vec<&str> = rules.lines().skip(1).collect();
        assert_eq!(
            lines,
            [
                "/old/start /guides/start#setup 308",
                "/gone /v9/page 307",
                "/blog https://blog.example.com 308",
                "/q /guides/'start 308",
                "/enterprise /guides/start 308",
                "/en/enterprise /guides/start 308",
                "/nowhere /en/enterprise/x 308",
                "/blog/* https://blog.example.com/:splat 308",
                "/enterprise/* /en/enterprise/:splat 308",
            ]
        );
        for file in files.iter().filter(|f| f.path.ends_with(".html")) {
            let html = String::from_utf8_lossy(&file.bytes);
            if html.contains("http-equiv") {
                assert_eq!(find_active_in_stub(&html), None, "{}", file.path);
            } else {
                assert!(
                    html.contains("<script") || find_active(&html, &[]).is_none(),
                    "{}",
                    file.path
                );
            }
        }
        assert!(
            !files.iter().any(|f| f.path.contains("script")),
            "no stub for a source that cannot be a path"
        );
    }

    /// dify-docs: three languages whose navigation starts at `en/…`, and 295 redirects, 126 of them
    /// `:slug*` wildcards and a few with a fragment in their source.
    #[test]
    fn the_dify_bundle_opens_at_its_root_and_carries_its_redirects() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/fixtures/dify-docs");
        if !root.is_dir() {
            eprintln!("skipped: fixture {} is absent", root.display());
            return;
        }
        let t = crate::docs::archive::read_dir_tree(&root).unwrap();
        let mut site = build_site(&t).unwrap();
        let first = "en/cloud/use-dify/getting-started/introduction";
        let paths = [
            first,
            "en/home",
            "en/cloud/use-dify/nodes/output",
            "zh/home",
        ]
        .map(String::from)
        .to_vec();
        let (files, _) = export(
            &site,
            &t,
            &ExportOptions {
                paths: Some(paths.clone()),
                ..options()
            },
        );
        // Its redirects send `/` to `/en/home`.
        let index = text(&files, "index.html");
        assert!(index.contains("content=\"0; url=en/home.html\""), "{index}");
        assert!(
            index.contains("<a href=\"en/home.html\">Dify Documentation</a>"),
            "{index}"
        );
        assert!(
            index.contains("<a href=\"zh/home.html\">"),
            "the other languages' homes are listed: {index}"
        );
        let rules = crate::export::site::redirects::parse(&text(&files, "_redirects"));
        let wildcards = rules.iter().filter(|r| r.source.ends_with('*')).count();
        assert_eq!(wildcards, 126, "every `:slug*` source is a splat rule");
        assert!(rules
            .iter()
            .all(|r| r.status == 308 && !r.source.contains('#')));
        // Literal sources whose destination the bundle holds: stubs leading there.
        let stub = text(&files, "en/use-dify/nodes/end.html");
        assert!(
            stub.contains("url=../../cloud/use-dify/nodes/output.html"),
            "{stub}"
        );
        let elsewhere = text(&files, "use-dify/nodes/end.html");
        assert!(
            elsewhere.contains("url=../../en/cloud/use-dify/nodes/output.html"),
            "{elsewhere}"
        );
        // A page the bundle lacks: its 404 page, never the live site.
        assert!(text(&files, "zh/use-dify/nodes/end.html").contains("url=../../../404.html\""));
        let stubs = files.iter().filter(|f| {
            f.path.ends_with(".html") && String::from_utf8_lossy(&f.bytes).contains("http-equiv")
        });
        assert!(stubs.clone().count() > 100);
        for stub in stubs {
            assert!(
                !String::from_utf8_lossy(&stub.bytes).contains("docs.example.com"),
                "{} names the live site",
                stub.path
            );
        }

        // Without that redirect, the root leads to the first page of the navigation.
        site.config.redirects.clear();
        let (files, _) = export(
            &site,
            &t,
            &ExportOptions {
                paths: Some(paths),
                ..options()
            },
        );
        assert!(text(&files, "index.html").contains(&format!("content=\"0; url={first}.html\"")));
        assert!(!files.iter().any(|f| f.path == "_redirects"));
    }
}
