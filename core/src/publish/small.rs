//! A small site's whole build in one step: when every file of the upload fits in
//! [`SMALL_SITE_BYTES`], the worker keeps the source packs it unpacked and runs every batch, the
//! merge and the finish here, in memory, so it writes only the final objects: no partial postings,
//! text blocks, `llms-full.txt` pieces or batch records to store, read back and concatenate. Pages
//! are still parsed a batch at a time; what stays is the site's packs and its outputs (about three
//! times its page source), hence the bound.

use std::collections::{BTreeMap, BTreeSet};

use super::parsed::{page_keys, PageKey, Reused};
use super::{
    batch_files, config_files, plan, run_batch, BatchInput, BatchState, Finished, Finisher,
    Planned, PublishError,
};
use crate::docs::archive::SourceTree;
use crate::docs::packed::FileTable;
use crate::search::semantic::StaticModel;
use crate::search::shard::batched::{merge_group, ShardLayout};

/// Bytes of source packs (the upload's source files, unpacked) up to which a site is built in one
/// step. The step's wasm high-water grows by about 5.5 times the packs, more with large OpenAPI
/// documents (the 8 MiB fixture: 60 MiB; dify-docs' 8.5 MiB with three 800 KB specs: 70-74 MiB), so
/// at 6 MiB a one-step build stays within the 64 MiB a publish is held to; larger sites go through
/// the stages (both fixtures: 25-32 MiB, a re-publish 0.3-0.4 s slower than in one step).
pub const SMALL_SITE_BYTES: u64 = 6 << 20;

/// A small site planned, with the key of each of its pages ([`page_keys`]): what a re-publish
/// looks up among the live version's parsed pages before parsing.
pub struct SmallPlan {
    planned: Planned,
    keys: Vec<PageKey>,
}

impl SmallPlan {
    pub fn keys(&self) -> &[PageKey] {
        &self.keys
    }
}

/// A small site's pages parsed: its search text and `llms-full.txt` final (to be written while the
/// rest is built), its term postings still to merge.
pub struct ParsedSmallSite {
    pub text: Vec<u8>,
    pub llms_full: Vec<u8>,
    /// Each batch's parsed pages, to keep with the version ([`super::parsed::parsed_object`]).
    pub parsed: Vec<Vec<u8>>,
    pub reused_pages: u32,
    pub rest: SmallMerge,
}

/// What is left of a small site's build once its pages are parsed: the term merge and the finish.
pub struct SmallMerge {
    planned: Planned,
    /// Each batch's partial postings and group ends.
    postings: Vec<(Vec<u8>, Vec<u64>)>,
    finisher: Finisher,
    chunk_count: usize,
}

/// The rest of a small site's final objects.
#[derive(Debug)]
pub struct SmallSite {
    pub terms: Vec<u8>,
    pub finished: Finished,
    pub layout: ShardLayout,
    pub batch_count: usize,
}

/// Plans the site whose packs (by index) and file table are given, and keys its pages.
pub fn plan_small_site(
    packs: &BTreeMap<u32, Vec<u8>>,
    table: &FileTable,
    domain: &str,
) -> Result<SmallPlan, PublishError> {
    let read = |paths: &BTreeSet<String>| -> SourceTree { table.tree_from_packs(packs, paths) };
    let config: BTreeSet<String> = config_files(table).into_iter().collect();
    let planned = plan(&read(&config), table)?;
    let mut keys = Vec::with_capacity(planned.plan.pages().len());
    for range in &planned.batches {
        keys.extend(page_keys(
            &planned.plan,
            range,
            table,
            &read(&batch_files(&planned.plan, range, table)),
            domain,
        ));
    }
    Ok(SmallPlan { planned, keys })
}

/// Parses the planned site batch by batch as the staged steps would, taking from `reused` the
/// pages it holds.
pub fn parse_small_site(
    small: SmallPlan,
    packs: &BTreeMap<u32, Vec<u8>>,
    table: &FileTable,
    domain: &str,
    reused: &Reused,
    model: Option<&StaticModel>,
) -> Result<ParsedSmallSite, PublishError> {
    let SmallPlan { planned, keys } = small;
    let mut state = BatchState::default();
    let (mut text, mut llms_full, mut postings, mut parsed) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut finisher = Finisher::default();
    let mut reused_pages = 0;
    for (b, range) in planned.batches.iter().enumerate() {
        let tree = table.tree_from_packs(packs, &batch_files(&planned.plan, range, table));
        let batch_keys = keys
            .get(range.start as usize..range.end as usize)
            .unwrap_or(&[]);
        let input = BatchInput {
            batch: b as u32,
            range: range.clone(),
            tree: &tree,
            keys: batch_keys,
            model,
        };
        let result = run_batch(
            &planned.plan,
            input,
            &planned.layout,
            reused,
            &mut state,
            domain,
        )?;
        text.extend(result.text);
        llms_full.extend(result.llms);
        postings.push((result.postings, result.group_ends));
        parsed.push(result.parsed);
        reused_pages += result.reused_pages;
        finisher.add(result.record);
    }
    let chunk_count = state.search.chunks as usize;
    Ok(ParsedSmallSite {
        text,
        llms_full,
        parsed,
        reused_pages,
        rest: SmallMerge {
            planned,
            postings,
            finisher,
            chunk_count,
        },
    })
}

impl SmallMerge {
    /// Merges the term groups, then finishes the meta, outline and agent documents.
    pub fn finish(self, domain: &str) -> Result<SmallSite, PublishError> {
        let SmallMerge {
            planned,
            postings,
            finisher,
            chunk_count,
        } = self;
        let (mut terms, mut shard_lens) = (Vec::new(), Vec::new());
        for group in 0..planned.layout.group_count() {
            let parts: Vec<&[u8]> = postings
                .iter()
                .map(|(bytes, ends)| group_part(bytes, ends, group))
                .collect();
            let merged = merge_group(&planned.layout, group, &parts, chunk_count)?;
            terms.extend(merged.bytes);
            shard_lens.extend(merged.shard_lens);
        }
        drop(postings);
        let finished = finisher.finish(planned.plan, &shard_lens, domain)?;
        Ok(SmallSite {
            terms,
            finished,
            layout: planned.layout,
            batch_count: planned.batches.len(),
        })
    }
}

/// Group `group`'s bytes of one batch's partial postings, `ends` being the batch's group ends.
fn group_part<'a>(bytes: &'a [u8], ends: &[u64], group: u32) -> &'a [u8] {
    let start = match group {
        0 => 0,
        g => ends.get(g as usize - 1).copied().unwrap_or(0) as usize,
    };
    let end = ends.get(group as usize).copied().unwrap_or(0) as usize;
    bytes.get(start..end).unwrap_or(&[])
}
