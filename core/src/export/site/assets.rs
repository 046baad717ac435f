//! Files of the uploaded tree that the bundle carries: what the rendered pages reference (images,
//! downloads) and the logo and favicon.
//!
//! The finishing step may run in a fresh isolate without the rendered pages, so references are
//! found again from the page sources: every word of a page's source and of the snippets it
//! imports that `links::asset_path` resolves is copied. That is the function the renderer uses, so
//! every file a page links to is found (a path only mentioned in prose may be copied as well).

use std::collections::BTreeSet;

use crate::docs::config::SiteConfig;
use crate::docs::sections::{default_import, snippet_path, MAX_SNIPPET_DEPTH};
use crate::docs::{Page, SourceTree};

use crate::export::page::layout::Brand;
use crate::export::page::site_look::LookFiles;
use crate::export::render::links::{asset_path, carried_svg, svg_data_url, svg_path};

/// Tree files referenced from `page` (source and imported snippets).
pub(crate) fn referenced(page: &Page, tree: &SourceTree, out: &mut BTreeSet<String>) {
    let mut visited = BTreeSet::new();
    scan(&page.source, page, tree, 0, &mut visited, out);
}

fn scan(
    file: &str,
    page: &Page,
    tree: &SourceTree,
    depth: usize,
    visited: &mut BTreeSet<String>,
    out: &mut BTreeSet<String>,
) {
    if depth > MAX_SNIPPET_DEPTH || !visited.insert(file.to_owned()) {
        return;
    }
    let Some(text) = tree.get(file).map(|b| String::from_utf8_lossy(b)) else {
        return;
    };
    for word in dotted_words(&text) {
        let word = word.trim_end_matches(['.', ';', ':']);
        if word.len() < 3 || !word.contains('.') {
            continue;
        }
        let word = word.replace('\\', "");
        if let Some(path) = asset_path(tree, &page.path, &page.source, &word) {
            out.insert(path);
        }
    }
    // A file name with a space (`src="/images/docs thumbnails/a.png"`) is no word: it is taken whole
    // from between its quotes.
    for quoted in quoted_with_space(&text) {
        if let Some(path) = asset_path(tree, &page.path, &page.source, quoted) {
            out.insert(path);
        }
    }
    for line in text.lines() {
        if let Some(snippet) =
            default_import(line).and_then(|(_, source)| snippet_path(file, source))
        {
            scan(&snippet, page, tree, depth + 1, visited, out);
        }
    }
}

/// Where a page's text splits into the words an asset reference may be.
fn splits_words(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '(' | ')' | '"' | '\'' | '<' | '>' | '[' | ']' | '{' | '}' | '`' | ',' | '='
        )
}

/// The words of `text` (split where [`splits_words`]) that hold a `.`, as only those can name a
/// file: found from each dot outwards, so the text is not split a character at a time (this scan
/// of every page was a tenth of a large export's finishing step).
fn dotted_words(text: &str) -> impl Iterator<Item = &str> {
    let mut from = 0;
    std::iter::from_fn(move || {
        let dot = from + text.get(from..)?.find('.')?;
        let start = text[..dot]
            .char_indices()
            .rev()
            .find(|&(_, c)| splits_words(c))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let end = text[dot..]
            .char_indices()
            .find(|&(_, c)| splits_words(c))
            .map_or(text.len(), |(i, _)| dot + i);
        from = end;
        Some(&text[start..end])
    })
}

/// The quoted values on one line that hold a space and a dot: attribute values naming a file whose
/// name has a space, which [`dotted_words`] splits.
fn quoted_with_space(text: &str) -> impl Iterator<Item = &str> {
    text.lines().flat_map(|line| {
        ['"', '\''].into_iter().flat_map(move |quote| {
            line.split(quote)
                .skip(1)
                .step_by(2)
                .filter(|v| v.len() <= 1024 && v.contains(' ') && v.contains('.'))
                .map(str::trim)
        })
    })
}

/// Logo and favicon files, when docs.json names files of the tree. An SVG one is carried rewritten
/// through the allow-list when that keeps its picture, whatever its size: every page shows it, so
/// inlining it would put its bytes in every page. Otherwise it is inlined as a `data:` URL (see
/// `links`).
pub(crate) fn brand(config: &SiteConfig, tree: &SourceTree) -> Brand {
    let local = |url: Option<&String>| {
        url.and_then(|u| {
            asset_path(tree, "index", "docs.json", u)
                .or_else(|| carried_svg(tree, "index", "docs.json", u, 0))
                .or_else(|| {
                    svg_path(tree, "index", "docs.json", u)
                        .and_then(|path| tree.get(&path))
                        .and_then(|bytes| svg_data_url(bytes))
                })
        })
    };
    let logo = config.logo.as_ref();
    let favicon = config.favicon.as_ref();
    Brand {
        logo_light: local(logo.and_then(|l| l.light.as_ref())),
        logo_dark: local(logo.and_then(|l| l.dark.as_ref())),
        favicon: local(favicon.and_then(|f| f.light.as_ref().or(f.dark.as_ref()))),
        look: LookFiles::new(config, tree),
        inline_logos: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::archive::tree;

    #[test]
    fn a_file_whose_name_has_a_space_is_referenced_from_its_quoted_attribute() {
        let t = tree(&[
            ("index.mdx", "<img src=\"/images/docs thumbnails/light/a.png\" alt='A thumbnail.' />\n<Card img='/images/two words.jpg' />\n"),
            ("images/docs thumbnails/light/a.png", "png"),
            ("images/two words.jpg", "jpg"),
        ]);
        let page = Page {
            path: "index".into(),
            source: "index.mdx".into(),
            ..Page::default()
        };
        let mut out = BTreeSet::new();
        referenced(&page, &t, &mut out);
        assert_eq!(
            out.into_iter().collect::<Vec<_>>(),
            ["images/docs thumbnails/light/a.png", "images/two words.jpg"]
        );
    }

    #[test]
    fn dotted_words_are_the_split_words_that_hold_a_dot() {
        let texts = [
            "",
            ".",
            "a.b",
            "![x](/images/x.png \"t\") end.",
            "..x..y.. z. .w\u{a0}v.u\u{3000}é.ü,(f.g)=h.i`j.k`",
            "no dots here at all",
            "a.b.c.d e.f",
        ];
        for text in texts {
            let split: Vec<&str> = text
                .split(splits_words)
                .filter(|w| w.contains('.'))
                .collect();
            assert_eq!(dotted_words(text).collect::<Vec<_>>(), split, "{text:?}");
        }
    }

    #[test]
    fn finds_images_links_and_snippet_references() {
        let t = tree(&[
            ("a/b.mdx", "import S from '/snippets/s.mdx'\n\n![x](/images/x.png \"t\") <img src={\"/images/y.png\"} />\n[pdf](../files/f.pdf).\n<S />\n"),
            ("snippets/s.mdx", "<Card img=\"/images/z.png\" />"),
            ("images/x.png", ""),
            ("images/y.png", ""),
            ("images/z.png", ""),
            ("files/f.pdf", ""),
            ("images/unused.png", ""),
        ]);
        let page = Page {
            path: "a/b".into(),
            source: "a/b.mdx".into(),
            ..Page::default()
        };
        let mut out = BTreeSet::new();
        referenced(&page, &t, &mut out);
        assert_eq!(
            out.into_iter().collect::<Vec<_>>(),
            [
                "files/f.pdf",
                "images/x.png",
                "images/y.png",
                "images/z.png"
            ]
        );
    }
}
