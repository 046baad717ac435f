//! What one batch of pages renders from, so a batch need not hold the whole site: the site's
//! outline (a [`Site`] whose pages carry no `sections`: config, navigation, every page's path,
//! title, language, version, groups and source file) and a [`SourceTree`] that names every file
//! of the version but holds the bytes of only the files rendering reads:
//! - the sources of the batch's pages and the snippets they import (the caller follows imports;
//!   the published file table records them);
//! - the files any page may read, whichever it is ([`read_by_every_batch`]): `docs.json`, every
//!   JSON or YAML file (an `openapi:` page looks for its document among them) and every SVG image
//!   (inlined into `<img>` as a `data:` URL).
//!
//! Every other file is present without bytes: a link to an image or a download only needs to know
//! that the file exists. Page rendering reads nothing else (the host test
//! `export::tests::batches_from_the_outline_render_the_same_bytes` holds it to the whole-site
//! render), so the same batch gives the same bytes either way.

use crate::docs::{Site, SourceTree};

/// Whether rendering any page may read this file's bytes.
pub fn read_by_every_batch(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    path == crate::docs::config::CONFIG_FILE
        || [".json", ".yaml", ".yml", ".svg"].iter().any(|ext| lower.ends_with(ext))
}

/// The tree a batch renders from: every path of `paths` present, with the bytes `loaded` has.
pub fn batch_tree<'p>(paths: impl IntoIterator<Item = &'p str>, mut loaded: SourceTree) -> SourceTree {
    for path in paths {
        if !loaded.contains_key(path) {
            loaded.insert(path.to_owned(), Vec::new());
        }
    }
    loaded
}

/// The outline of `site`: the same site without its pages' text (and warnings), all a batch needs.
pub fn outline(site: &Site) -> Site {
    Site {
        name: site.name.clone(),
        languages: site.languages.clone(),
        versions: site.versions.clone(),
        pages: site
            .pages
            .iter()
            .map(|page| crate::docs::Page { sections: Vec::new(), ..page.clone() })
            .collect(),
        warnings: Vec::new(),
        config: site.config.clone(),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    use super::*;
    use crate::docs::archive::read_dir_tree;
    use crate::docs::build_site;
    use crate::docs::sections::{default_import, snippet_path};
    use crate::export::tests::{options, FIXTURE};
    use crate::export::{ExportPlan, PageExtras};

    /// `sources` and the snippets they import, transitively (the published file table records
    /// imports; here they are read from the whole tree).
    fn with_imports(tree: &SourceTree, sources: &[&str]) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut todo: Vec<String> = sources.iter().map(|s| (*s).to_owned()).collect();
        while let Some(path) = todo.pop() {
            let Some(bytes) = tree.get(&path) else { continue };
            for line in String::from_utf8_lossy(bytes).lines() {
                if let Some(import) = default_import(line).and_then(|(_, source)| snippet_path(&path, source)) {
                    todo.push(import);
                }
            }
            out.insert(path);
        }
        out
    }

    fn loaded(tree: &SourceTree, keep: impl Fn(&str) -> bool) -> SourceTree {
        tree.iter().filter(|(path, _)| keep(path)).map(|(p, b)| (p.clone(), b.clone())).collect()
    }

    #[test]
    fn batches_from_the_outline_render_the_same_bytes() {
        let tree = read_dir_tree(Path::new(FIXTURE));
        let site = build_site(&tree).unwrap();
        let extras = PageExtras { beacon_endpoint: Some("https://api.example.com/e".into()), playground: true };
        let whole = ExportPlan::new(&site, &tree, &options()).unwrap().with_extras(extras.clone());

        let outline = outline(&site);
        assert!(outline.pages.iter().all(|p| p.sections.is_empty()));
        let paths = || tree.keys().map(String::as_str);
        let shared = loaded(&tree, read_by_every_batch);
        let plan = ExportPlan::new(&outline, &batch_tree(paths(), shared.clone()), &options())
            .unwrap()
            .with_extras(extras);
        assert_eq!(plan.page_count(), whole.page_count());
        let mut read = 0usize;
        for start in (0..plan.page_count()).step_by(100) {
            let range = start..start + 100;
            let needed = with_imports(&tree, &plan.page_sources(&outline, range.clone()));
            let mut batch = loaded(&tree, |p| needed.contains(p));
            batch.extend(shared.clone());
            read += batch.values().map(Vec::len).sum::<usize>();
            let batch = batch_tree(paths(), batch);
            assert_eq!(
                plan.render_pages(&outline, &batch, range.clone()),
                whole.render_pages(&site, &tree, range),
                "batch at {start}"
            );
        }
        let batches = plan.page_count().div_ceil(100);
        let total: usize = tree.values().map(Vec::len).sum();
        assert!(read / batches < total / 2, "a batch reads {} of {total} bytes", read / batches);
    }
}
