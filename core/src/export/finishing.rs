//! What the finishing files take from the pages' text, gathered a page at a time in export order:
//! the offline search index, `llms-full.txt` and the assets the pages reference. A reader that
//! holds the site's outline and one batch of pages' files at a time (the worker's export job)
//! adds the pages batch by batch ([`super::ExportPlan::add_finishing_pages`]) and gives the same
//! bytes as the whole site does (host test `finishing_from_the_outline_and_the_packs_gives_the_same_bytes`).

use std::collections::{BTreeMap, BTreeSet};

use crate::docs::{Page, SourceTree};

use super::search_index::SearchIndex;
use super::{agent, assets};

/// The pages' share of the finishing files so far.
pub struct FinishingPages {
    pub(super) search: Option<SearchIndex>,
    pub(super) llms_full: String,
    /// Files the pages reference (images, downloads), to copy into the bundle.
    pub(super) referenced: BTreeSet<String>,
}

impl FinishingPages {
    pub(super) fn new(search: bool) -> Self {
        FinishingPages { search: search.then(SearchIndex::default), llms_full: String::new(), referenced: BTreeSet::new() }
    }

    /// Adds `page`, whose sections are read and whose source (and what it imports) is in `tree`;
    /// `targets`: exported page path -> the file the Markdown links name.
    pub(super) fn add(&mut self, page: &Page, tree: &SourceTree, targets: &BTreeMap<String, String>, domain: &str) {
        if let Some(search) = &mut self.search {
            search.add(page);
        }
        agent::push_full(&mut self.llms_full, page, tree, targets, domain);
        assets::referenced(page, tree, &mut self.referenced);
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::docs::archive::read_dir_tree;
    use crate::docs::packed::SourcePack;
    use crate::docs::{build_site, PackWriter, Site, SiteOutline};
    use crate::export::batch::read;
    use crate::export::tests::{options, FIXTURE};
    use crate::export::{batch_files, batch_tree, shared_files, ExportFile, ExportOptions, ExportPlan, MarkdownPages, PageExtras, StaticFiles};

    const BATCH: usize = 100;

    /// The finishing files as the worker's export job makes them: the outline, a batch of pages'
    /// files at a time from the packs, then the assets.
    fn from_the_packs(site: &Site, tree: &SourceTree, options: &ExportOptions, extras: &PageExtras) -> Vec<ExportFile> {
        let mut writer = PackWriter::new();
        let mut packs: Vec<SourcePack> = tree.iter().filter_map(|(path, bytes)| writer.add(path.clone(), bytes)).collect();
        let (last, table) = writer.finish().unwrap();
        packs.extend(last);
        let mut outline = SiteOutline::from_bytes(&SiteOutline::of(site).to_bytes()).unwrap().site;
        let shared = read(&table, &packs, &shared_files(&table));
        let plan = ExportPlan::new(&outline, &batch_tree(&table, shared.clone()), options).unwrap().with_extras(extras.clone());
        let mut pages = plan.finishing_pages();
        for start in (0..plan.page_count()).step_by(BATCH) {
            let range = start..start + BATCH;
            let mut batch = read(&table, &packs, &batch_files(&plan, &outline, &table, range.clone()));
            batch.extend(shared.clone());
            plan.add_finishing_pages(&mut pages, &mut outline, &batch_tree(&table, batch), range);
        }
        let mut assets = read(&table, &packs, &plan.finishing_assets(&pages));
        assets.extend(shared);
        plan.finish(pages, &outline, &batch_tree(&table, assets), &StaticFiles::EMBEDDED)
    }

    fn assert_same(site: &Site, tree: &SourceTree, options: &ExportOptions, what: &str) {
        let extras = PageExtras { beacon_endpoint: Some("https://api.example.com/e".into()), playground: true };
        let whole = ExportPlan::new(site, tree, options).unwrap().with_extras(extras.clone()).finishing_files(site, tree);
        let packed = from_the_packs(site, tree, options, &extras);
        let paths = |files: &[ExportFile]| files.iter().map(|f| f.path.clone()).collect::<Vec<_>>();
        assert_eq!(paths(&packed), paths(&whole), "{what}: the same files");
        for (a, b) in packed.iter().zip(&whole) {
            assert!(a.bytes == b.bytes, "{what}: {} differs", a.path);
        }
        for name in ["llms.txt", "llms-full.txt", "404.html"] {
            assert!(whole.iter().any(|f| f.path == name), "{what}: {name}");
        }
        if options.features.search {
            assert!(whole.iter().any(|f| f.path.ends_with("/meta.json")), "{what}: a search index");
        }
        assert!(whole.iter().any(|f| tree.contains_key(&f.path) && f.path != "docs.json"), "{what}: copied assets");
    }

    /// The fixture's English pages `copies` times under `part{n}/`, listed in groups as
    /// `scripts/lib/scale-site.mjs` lists them; every other file once at the root.
    fn copies(tree: &SourceTree, copies: usize) -> SourceTree {
        let page = |path: &str| {
            (path.ends_with(".mdx") || path.ends_with(".md"))
                && !path.starts_with("snippets/")
                && !path.starts_with("fr/")
                && !path.starts_with("es/")
                && !path.starts_with("zh/")
                && !path.starts_with(|c: char| c.is_ascii_uppercase())
        };
        let mut out = SourceTree::new();
        let mut groups = Vec::new();
        for n in 0..copies {
            let mut listed = Vec::new();
            for (path, bytes) in tree.iter().filter(|(path, _)| page(path)) {
                let copy = format!("part{n}/{path}");
                listed.push(copy.trim_end_matches(".mdx").trim_end_matches(".md").to_owned());
                out.insert(copy, bytes.clone());
            }
            groups.push(serde_json::json!({"group": format!("Part {n}"), "pages": listed}));
        }
        for (path, bytes) in tree.iter().filter(|(path, _)| !page(path) && path.as_str() != "docs.json") {
            out.insert(path.clone(), bytes.clone());
        }
        let config = serde_json::json!({"name": "Scale", "navigation": {"groups": groups}});
        out.insert("docs.json".to_owned(), config.to_string().into_bytes());
        out
    }

    #[test]
    fn finishing_from_the_outline_and_the_packs_gives_the_same_bytes() {
        let tree = read_dir_tree(Path::new(FIXTURE)).expect("the fixture is readable");
        let site = build_site(&tree).unwrap();
        let mut searched = options();
        searched.features.search = true;
        assert_same(&site, &tree, &searched, "fixture");
        let llms_full = ExportOptions { markdown: Some(MarkdownPages::LlmsFull), ..options() };
        assert_same(&site, &tree, &llms_full, "fixture, llms-full");

        let scaled = copies(&tree, 3);
        let scaled_site = build_site(&scaled).unwrap();
        assert!(scaled_site.pages.len() > 3 * 200, "{} pages", scaled_site.pages.len());
        assert_same(&scaled_site, &scaled, &searched, "3 copies");
    }
}
