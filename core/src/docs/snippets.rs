//! Snippets a page imports: `import X from '/snippets/x.mdx'` read from its ESM blocks or its
//! text, the paths they name in the tree, where a legacy `<Snippet file>` is looked for, and how deep
//! snippets may import snippets. The walk inlines them (`walk`); the export and the source packs
//! read the same imports.

use std::collections::BTreeMap;

use super::archive::join_relative;
use super::file_kind::is_markdown;
use super::mdx::Block;

/// Snippets may import snippets; deeper chains are left out rather than followed.
pub(crate) const MAX_SNIPPET_DEPTH: usize = 3;
/// Where a legacy `<Snippet file="…" />` is looked for, in order.
pub(crate) const LEGACY_SNIPPET_DIRS: [&str; 2] = ["_snippets/", "snippets/"];

/// `import Name from "source"` (a default import, the form snippets use) on one line.
pub(crate) fn default_import(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim().strip_prefix("import")?;
    let rest = rest.trim_start();
    let name_len = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(rest.len());
    let name = &rest[..name_len];
    if name.is_empty() || name == "from" {
        return None;
    }
    let from = rest[name_len..].find(" from ")? + name_len + " from ".len();
    let source = rest[from..].trim().trim_end_matches(';').trim();
    let quote = source.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let source = source.get(1..)?.strip_suffix(quote)?;
    Some((name, source))
}

/// Every snippet a Markdown file may read, as its text writes the source (`/snippets/x.mdx`,
/// `./y.mdx`; resolve with [`snippet_path`]): default and named imports, and for a legacy
/// `<Snippet file="x.mdx" />` both folders it is looked for in. A line scan, so a superset (imports
/// inside code blocks count too), for a reader that fetches a page's files before parsing it.
pub fn snippet_sources(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some((_, source)) = default_import(line) {
            out.push(source.to_owned());
        }
        if line.starts_with("import") && line.contains('{') {
            out.extend(
                super::scope::named_imports(line)
                    .into_iter()
                    .map(|(_, _, source)| source),
            );
        }
        let mut rest = line;
        while let Some(at) = rest.find("<Snippet") {
            rest = &rest[at..];
            if let Some((tag, _)) = crate::docs::jsx::scan_tag(rest) {
                if let Some(file) = tag.text_attr("file").filter(|_| tag.name == "Snippet") {
                    let file = file.trim().trim_start_matches('/');
                    out.extend(
                        LEGACY_SNIPPET_DIRS
                            .iter()
                            .map(|dir| format!("/{dir}{file}")),
                    );
                }
            }
            rest = &rest[1..];
        }
    }
    out.retain(|source| is_markdown(source));
    crate::sort::sort(&mut out);
    out.dedup();
    out
}

/// The snippets a page imports (`import X from '/snippets/x.mdx'`): component name to tree path.
pub(crate) fn snippet_imports<'b>(blocks: &[Block<'b>], file: &str) -> BTreeMap<&'b str, String> {
    crate::sort::map_from(
        default_imports(blocks)
            .filter_map(|(name, source)| Some((name, snippet_path(file, source)?))),
    )
}

/// Every default import of the page's ESM blocks, as `(name, source)`.
fn default_imports<'a, 'b>(
    blocks: &'a [Block<'b>],
) -> impl Iterator<Item = (&'b str, &'b str)> + 'a {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Esm(esm) => Some(*esm),
            _ => None,
        })
        .flat_map(|esm| esm.lines().filter_map(default_import))
}

/// The snippets a page imports from an address (`import X from 'https://…/x.mdx'`): component name to
/// address. The format's snippets are files of the docs folder, so these are never fetched; their
/// tags are reported where they stand.
pub(crate) fn remote_snippet_imports<'b>(blocks: &[Block<'b>]) -> BTreeMap<&'b str, &'b str> {
    crate::sort::map_from(default_imports(blocks).filter(|(_, source)| {
        (source.starts_with("https://") || source.starts_with("http://")) && is_markdown(source)
    }))
}

/// Tree path of an imported `.mdx` snippet: `/x` from the root, otherwise relative to `file`.
/// Other imports (`.jsx`, packages) are not snippets with text.
pub(crate) fn snippet_path(file: &str, source: &str) -> Option<String> {
    if !is_markdown(source) {
        return None;
    }
    if !source.starts_with('/') && !source.starts_with('.') {
        return None;
    }
    join_relative(file, source)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippet_sources_name_every_file_a_page_may_inline() {
        let text = "import A from '/snippets/a.mdx'\nimport { v, w as x } from \"../vars.mdx\"\nimport { J } from '/c.jsx'\n\n<Steps>\n  <Snippet file=\"step.mdx\" />\n</Steps>\n";
        assert_eq!(
            snippet_sources(text),
            [
                "../vars.mdx",
                "/_snippets/step.mdx",
                "/snippets/a.mdx",
                "/snippets/step.mdx"
            ]
        );
    }

    #[test]
    fn reads_default_imports_only() {
        assert_eq!(
            default_import("import A from \"/s/a.mdx\";"),
            Some(("A", "/s/a.mdx"))
        );
        assert_eq!(default_import("import { A } from '/s/a.mdx'"), None);
        assert_eq!(default_import("import * as jose from 'jose';"), None);
        assert_eq!(
            snippet_path("es/a/page.mdx", "../x.mdx").as_deref(),
            Some("es/x.mdx")
        );
        assert_eq!(snippet_path("page.mdx", "react"), None);
    }
}
