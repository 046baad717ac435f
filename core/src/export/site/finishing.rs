//! What the finishing files take from the pages' text, gathered a page at a time in export order:
//! the offline search index, `llms-full.txt` and the assets the pages reference. A reader that
//! holds the site's outline and one batch of pages' products at a time (the worker's export job,
//! which stores them beside each batch: `page_products`) adds the pages batch by batch
//! ([`FinishingMembers`]) and gives the same bytes as the whole site does (host test `finishing_from_the_outline_and_the_packs_gives_the_same_bytes`).
//!
//! What is held stays well under the site's text: a term keeps its best postings only
//! (`search_index`), documents are kept as the JSON of their chunk files, and `llms-full.txt` is
//! compressed as it is written, its gzip member taken out in pieces for the caller to store, with
//! the files before and after it as members of their own ([`FinishedMembers`]).

use std::collections::BTreeSet;
use std::ops::Range;

use crate::docs::public_skills::is_public_skill_file;
use crate::docs::skill_file::is_skill_file;
use crate::docs::{FileTable, Site, SourceTree};

use crate::agents::llms::page_separator;
use crate::export::bundle::archive::{gzip, TarGzAround, TarGzEntryMembers};
use crate::export::render::links::STATIC_DIR;
use crate::export::site::finishing_pages::FinishingPages;
use crate::export::site::page_products::BatchProducts;
use crate::export::{ExportFile, ExportPlan, StaticFiles, LLMS_FULL_FILE};

/// The finishing files as the export job writes them, its pages added a batch at a time: what
/// [`ExportPlan::finish`] makes, as gzip members, `llms-full.txt`'s member taken out as it grows.
pub struct FinishingMembers {
    pages: FinishingPages,
    llms_full: TarGzEntryMembers,
}

/// The finishing files' members once every page is added, in bundle order: `head` (the files
/// before `llms-full.txt` and its header), the `llms-full.txt` pieces taken while adding pages,
/// then `rest` (the end of its member, then the files after it).
pub struct FinishedMembers {
    pub head: Vec<u8>,
    pub rest: Vec<u8>,
}

impl FinishingMembers {
    pub fn new(plan: &ExportPlan) -> Self {
        FinishingMembers {
            pages: plan.finishing_pages(),
            llms_full: TarGzEntryMembers::default(),
        }
    }

    /// Adds the pages at `range` from their [`ExportPlan::batch_products`] as their batch stored
    /// them, no page read again: their search documents and assets, and the batch's share of
    /// `llms-full.txt` as it was compressed (after the separator a page before it needs).
    pub fn add_products(
        &mut self,
        plan: &ExportPlan,
        outline: &mut Site,
        range: Range<usize>,
        products: BatchProducts,
    ) {
        if products.llms_full_len > 0 {
            let separator = page_separator(self.llms_full.written() as usize);
            if !separator.is_empty() {
                self.llms_full
                    .add(&gzip(separator.as_bytes()), separator.len() as u64);
            }
            self.llms_full
                .add(&products.llms_full, products.llms_full_len);
        }
        plan.add_products(
            &mut self.pages,
            outline,
            range,
            products.entries,
            products.search,
        );
    }

    /// The compressed `llms-full.txt` so far once it is `at_least` bytes, to store after those
    /// taken before (the whole of it follows [`FinishedMembers::head`]).
    pub fn take_llms_full(&mut self, at_least: usize) -> Option<Vec<u8>> {
        (self.llms_full.ready() >= at_least).then(|| self.llms_full.take())
    }

    /// [`ExportPlan::finishing_assets`].
    pub fn assets(&self, plan: &ExportPlan) -> BTreeSet<String> {
        plan.finishing_assets(&self.pages)
    }

    /// [`FinishingMembers::assets`] split into those [`FinishingMembers::finish`] copies from its
    /// tree and the media files `table` stores apart, which the host copies into members of their
    /// own one at a time (a site's media are never all held at once). Paths under the static
    /// directory are never copied.
    pub fn split_assets(
        &self,
        plan: &ExportPlan,
        table: &FileTable,
    ) -> (BTreeSet<String>, Vec<String>) {
        let mut assets = self.assets(plan);
        // The skills served to agents: the root `skill.md` and the discovery files (`ExportPlan::finish`).
        assets.extend(
            table
                .files()
                .iter()
                .filter(|f| is_skill_file(&f.path) || is_public_skill_file(&f.path))
                .map(|f| f.path.clone()),
        );
        let (media, source): (Vec<String>, Vec<String>) = assets
            .into_iter()
            .partition(|path| table.media_read(path).is_some());
        let media = media
            .into_iter()
            .filter(|path| !path.starts_with(&format!("{STATIC_DIR}/")))
            .collect();
        (source.into_iter().collect(), media)
    }

    /// [`ExportPlan::finish`] as members; `mtime` of every entry.
    pub fn finish(
        self,
        plan: &ExportPlan,
        site: &Site,
        tree: &SourceTree,
        statics: &StaticFiles,
        chrome: Vec<ExportFile>,
        mtime: u64,
    ) -> FinishedMembers {
        let mut around = TarGzAround::new(LLMS_FULL_FILE, self.llms_full.written(), mtime);
        plan.finish_into(self.pages, site, tree, statics, chrome, &mut |file| {
            around.add(&file)
        });
        let (head, after) = around.finish();
        let mut rest = self.llms_full.finish();
        rest.extend_from_slice(&after);
        FinishedMembers { head, rest }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;
    use std::path::Path;

    use flate2::read::MultiGzDecoder;

    use super::*;
    use crate::docs::archive::read_dir_tree;
    use crate::docs::packed::SourcePack;
    use crate::docs::{build_site, PackWriter, SiteOutline};
    use crate::export::bundle::batch::read;
    use crate::export::tests::{options, FIXTURE};
    use crate::export::{
        batch_files, batch_tree, shared_files, tar_gz_member, ExportOptions, ExportPlan,
        MarkdownPages, PageExtras, StaticFiles,
    };

    const BATCH: usize = 100;
    const MTIME: u64 = 1_700_000_000;

    /// The finishing files' tar entries as the worker's export job makes them: the outline, a batch
    /// of pages' products at a time (made from the packs and read back as stored), `llms-full.txt` taken out in small pieces, then the
    /// assets.
    fn from_the_packs(
        site: &Site,
        tree: &SourceTree,
        options: &ExportOptions,
        extras: &PageExtras,
    ) -> Vec<u8> {
        let mut writer = PackWriter::new();
        let mut packs: Vec<SourcePack> = tree
            .iter()
            .filter_map(|(path, bytes)| writer.add(path.clone(), bytes))
            .collect();
        let (last, table) = writer.finish().unwrap();
        packs.extend(last);
        let mut outline = SiteOutline::from_bytes(&SiteOutline::of(site).to_bytes())
            .unwrap()
            .site;
        let shared = read(&table, &packs, &shared_files(&table));
        let plan = ExportPlan::new(&outline, &batch_tree(&table, shared.clone()), options)
            .unwrap()
            .with_extras(extras.clone());
        let mut members = FinishingMembers::new(&plan);
        let mut taken = Vec::new();
        for start in (0..plan.page_count()).step_by(BATCH) {
            let range = start..start + BATCH;
            let mut batch = read(
                &table,
                &packs,
                &batch_files(&plan, &outline, &table, range.clone()),
            );
            batch.extend(shared.clone());
            // As the worker does: the batch's products stored where it is rendered, read back
            // when finishing.
            let stored = plan
                .batch_products(&outline, &batch_tree(&table, batch), range.clone())
                .to_bytes();
            let products = BatchProducts::from_bytes(&stored).unwrap();
            members.add_products(&plan, &mut outline, range, products);
            taken.extend(members.take_llms_full(16 << 10));
        }
        let (source_assets, media) = members.split_assets(&plan, &table);
        assert!(media.is_empty(), "every file of this tree is in the packs");
        let mut assets = read(&table, &packs, &source_assets);
        assets.extend(shared);
        let tree = batch_tree(&table, assets);
        let chrome = plan.chrome_pages(&outline, &tree);
        let finished = members.finish(
            &plan,
            &outline,
            &tree,
            &StaticFiles::EMBEDDED,
            chrome,
            MTIME,
        );
        let mut bundle = finished.head;
        for piece in &taken {
            bundle.extend_from_slice(piece);
        }
        bundle.extend(finished.rest);
        tar_of(&bundle)
    }

    fn tar_of(gz: &[u8]) -> Vec<u8> {
        let mut raw = Vec::new();
        MultiGzDecoder::new(gz).read_to_end(&mut raw).unwrap();
        raw
    }

    fn assert_same(site: &Site, tree: &SourceTree, options: &ExportOptions, what: &str) {
        let extras = PageExtras {
            beacon_endpoint: Some("https://api.example.com/e".into()),
            playground: true,
            ..PageExtras::default()
        };
        let whole = ExportPlan::new(site, tree, options)
            .unwrap()
            .with_extras(extras.clone())
            .finishing_files(site, tree);
        let packed = from_the_packs(site, tree, options, &extras);
        let expected = tar_of(&tar_gz_member(&whole, MTIME));
        assert!(
            packed == expected,
            "{what}: the finishing entries differ ({} bytes, expected {})",
            packed.len(),
            expected.len()
        );
        for name in ["llms.txt", "llms-full.txt", "404.html"] {
            assert!(whole.iter().any(|f| f.path == name), "{what}: {name}");
        }
        let has_skill = tree.keys().any(|path| is_skill_file(path));
        assert_eq!(
            whole.iter().any(|f| f.path == "skill.md"),
            has_skill,
            "{what}: the root skill.md, when the tree has one"
        );
        if options.features.search {
            assert!(
                whole.iter().any(|f| f.path.ends_with("/meta.json")),
                "{what}: a search index"
            );
        }
        assert!(
            whole
                .iter()
                .any(|f| tree.contains_key(&f.path) && f.path != "docs.json"),
            "{what}: copied assets"
        );
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
                listed.push(
                    copy.trim_end_matches(".mdx")
                        .trim_end_matches(".md")
                        .to_owned(),
                );
                out.insert(copy, bytes.clone());
            }
            groups.push(serde_json::json!({"group": format!("Part {n}"), "pages": listed}));
        }
        for (path, bytes) in tree
            .iter()
            .filter(|(path, _)| !page(path) && path.as_str() != "docs.json")
        {
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
        let llms_full = ExportOptions {
            markdown: Some(MarkdownPages::LlmsFull),
            ..options()
        };
        assert_same(&site, &tree, &llms_full, "fixture, llms-full");

        let scaled = copies(&tree, 3);
        let scaled_site = build_site(&scaled).unwrap();
        assert!(
            scaled_site.pages.len() > 3 * 200,
            "{} pages",
            scaled_site.pages.len()
        );
        assert_same(&scaled_site, &scaled, &searched, "3 copies");
    }
}
