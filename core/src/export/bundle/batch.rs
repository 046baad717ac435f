//! What one batch of pages renders from, so a batch need not hold the whole site: the site's
//! outline ([`crate::docs::SiteOutline`]: config, navigation, every page's path, title, language,
//! version, groups and source file, no page text) and a [`SourceTree`] that names every file of the
//! version (the published [`FileTable`]) but holds the bytes of only the files rendering reads,
//! read from the source packs:
//! - the sources of the batch's pages and the snippets they import ([`batch_files`]);
//! - the files any page may read, whichever it is ([`shared_files`]): `docs.json`, every
//!   JSON or YAML file (an `openapi:` page looks for its document among them) and every SVG image
//!   (inlined into `<img>` as a `data:` URL).
//!
//! Every other file is present without bytes: a link to an image or a download only needs to know
//! that the file exists. Page rendering reads nothing else (the host test
//! `batches_from_the_outline_and_the_packs_render_the_same_bytes` holds it to the whole-site
//! render), so the same batch gives the same bytes either way.

use std::collections::BTreeSet;
use std::ops::Range;

use crate::docs::{FileTable, Site, SourceTree};

use crate::export::ExportPlan;

/// Whether rendering any page may read this file's bytes.
pub fn read_by_every_batch(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    path == crate::docs::config::CONFIG_FILE
        || [".json", ".yaml", ".yml", ".svg"]
            .iter()
            .any(|ext| lower.ends_with(ext))
}

/// The files every batch reads (and the plan, for the logo): see [`read_by_every_batch`].
pub fn shared_files(table: &FileTable) -> BTreeSet<String> {
    table.needed_by(
        table
            .files()
            .iter()
            .map(|f| f.path.as_str())
            .filter(|p| read_by_every_batch(p)),
    )
}

/// The files the pages at `range` read besides the [`shared_files`]: their sources and the snippets
/// they import.
pub fn batch_files(
    plan: &ExportPlan,
    outline: &Site,
    table: &FileTable,
    range: Range<usize>,
) -> BTreeSet<String> {
    table.needed_by(plan.page_sources(outline, range))
}

/// The tree a batch renders from: every file of `table` present, with the bytes `loaded` has.
pub fn batch_tree(table: &FileTable, mut loaded: SourceTree) -> SourceTree {
    for file in table.files() {
        if !loaded.contains_key(&file.path) {
            loaded.insert(file.path.clone(), Vec::new());
        }
    }
    loaded
}

/// `paths` as the worker reads them: ranged reads of the packs, then the table's tree of them.
#[cfg(test)]
pub(in crate::export) fn read(
    table: &FileTable,
    packs: &[crate::docs::packed::SourcePack],
    paths: &BTreeSet<String>,
) -> SourceTree {
    let reads: Vec<_> = table
        .reads_for(paths)
        .into_iter()
        .map(|r| {
            (
                r,
                packs[r.pack as usize].bytes[r.start as usize..r.end as usize].to_vec(),
            )
        })
        .collect();
    table.tree_from(paths, &reads)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::docs::archive::read_dir_tree;
    use crate::docs::packed::SourcePack;
    use crate::docs::{build_site, PackWriter, SiteOutline};
    use crate::export::tests::{options, FIXTURE};
    use crate::export::{PageExtras, PlainCode};

    #[test]
    fn batches_from_the_outline_and_the_packs_render_the_same_bytes() {
        let tree = read_dir_tree(Path::new(FIXTURE)).expect("the fixture is readable");
        let site = build_site(&tree).unwrap();
        let extras = PageExtras {
            beacon_endpoint: Some("https://api.example.com/e".into()),
            playground: true,
            ..PageExtras::default()
        };
        let whole = ExportPlan::new(&site, &tree, &options())
            .unwrap()
            .with_extras(extras.clone());

        let mut writer = PackWriter::new();
        let mut packs: Vec<SourcePack> = tree
            .iter()
            .filter_map(|(path, bytes)| writer.add(path.clone(), bytes))
            .collect();
        let (last, table) = writer.finish().unwrap();
        packs.extend(last);
        let outline = SiteOutline::from_bytes(&SiteOutline::of(&site).to_bytes())
            .unwrap()
            .site;
        assert!(outline.pages.iter().all(|p| p.sections.is_empty()));
        let shared = read(&table, &packs, &shared_files(&table));
        let plan = ExportPlan::new(&outline, &batch_tree(&table, shared.clone()), &options())
            .unwrap()
            .with_extras(extras);
        assert_eq!(plan.page_count(), whole.page_count());
        let mut batch_bytes = 0usize;
        for start in (0..plan.page_count()).step_by(100) {
            let range = start..start + 100;
            let mut batch = read(
                &table,
                &packs,
                &batch_files(&plan, &outline, &table, range.clone()),
            );
            batch_bytes += batch.values().map(Vec::len).sum::<usize>();
            batch.extend(shared.clone());
            assert_eq!(
                plan.render_pages(
                    &outline,
                    &batch_tree(&table, batch),
                    range.clone(),
                    &PlainCode
                ),
                whole.render_pages(&site, &tree, range, &PlainCode),
                "batch at {start}"
            );
        }
        let batches = plan.page_count().div_ceil(100);
        let pages: usize = site
            .pages
            .iter()
            .filter_map(|p| tree.get(&p.source))
            .map(Vec::len)
            .sum();
        assert!(
            batch_bytes / batches < 2 * pages / batches,
            "a batch reads {} bytes",
            batch_bytes / batches
        );
    }
}
