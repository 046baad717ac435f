//! The batched publish gives what the whole build gives: the same split index bytes, agent
//! documents and outline, whatever the batch and read sizes; and its failures are errors naming
//! the upload's fault.

use std::collections::BTreeMap;
use std::path::Path;

use super::*;
use crate::agents::llms::agent_docs;
use crate::docs::archive::{pack_tree, read_dir_tree, tree};
use crate::docs::build_site;
use crate::docs::packed::PackRead;
use crate::search::semantic::embedded_model;
use crate::search::shard::batched::merge_group;
use crate::search::shard::{SearchMeta, ShardedIndex};
use crate::search::SearchIndex;
use kept::KeptBatches;
use parsed::{page_keys, PageKey, ParsedIndex, Reused};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/fixtures/mintlify-docs"
);
const DOMAIN: &str = "docs.example.com";

/// Everything a publish stores, as R2 would hold it.
#[derive(Debug)]
struct Published {
    meta: Vec<u8>,
    terms: Vec<u8>,
    text: Vec<u8>,
    llms_full: Vec<u8>,
    finished: Finished,
    layout: ShardLayout,
    /// Each batch's parsed-pages object, and how many pages were taken from `Kept` ones.
    parsed: Vec<Vec<u8>>,
    reused_pages: u32,
    /// The first page of each batch.
    batch_starts: Vec<u32>,
    /// Each batch's record and partial postings, as the version keeps them, and how many batches
    /// were taken whole from a live version.
    records: Vec<Vec<u8>>,
    postings: Vec<Vec<u8>>,
    taken_batches: u32,
}

impl Published {
    /// What the next publish may reuse: the batch objects and the version's index.
    fn kept(&self) -> (Vec<Vec<u8>>, ParsedIndex) {
        (
            self.parsed.clone(),
            ParsedIndex::from_bytes(&self.finished.parsed_index).unwrap(),
        )
    }
}

/// What the worker does before a batch: looks the batch's keys up in the live version's index
/// and reads the hits out of its batch objects.
fn reused_for(keys: &[PageKey], kept: Option<&(Vec<Vec<u8>>, ParsedIndex)>) -> Reused {
    let mut reused = Reused::default();
    if let Some((objects, index)) = kept {
        for read in index.reads_for(keys) {
            let object = &objects[read.batch as usize];
            reused.add(read.split(&object[read.range.start as usize..read.range.end as usize]));
        }
    }
    reused
}

/// The whole pipeline over an in-memory store: the upload fed `piece` bytes at a time, batches cut
/// by `batches` when given (else by source size).
fn publish(gz: &[u8], piece: usize, batches_of: Option<u32>) -> Result<Published, PublishError> {
    publish_after(gz, piece, batches_of, None)
}

/// [`publish`] with the parsed pages a live version `kept`.
fn publish_after(
    gz: &[u8],
    piece: usize,
    batches_of: Option<u32>,
    kept: Option<&(Vec<Vec<u8>>, ParsedIndex)>,
) -> Result<Published, PublishError> {
    publish_taking(gz, piece, batches_of, kept, None)
}

/// [`publish_after`] that also takes whole, as the worker does, every batch `live` kept with the
/// same digest and cursor: its record and postings copied, its text and Markdown read out of
/// `live`'s packs.
fn publish_taking(
    gz: &[u8],
    piece: usize,
    batches_of: Option<u32>,
    kept: Option<&(Vec<Vec<u8>>, ParsedIndex)>,
    live: Option<&Published>,
) -> Result<Published, PublishError> {
    let live_batches = live.map(|l| KeptBatches::from_bytes(&l.finished.kept_batches).unwrap());
    let (packs, table, digests) = unpack_with_digests(gz, piece)?;
    let read = |paths: &BTreeSet<String>| {
        let reads: Vec<(PackRead, Vec<u8>)> = table
            .reads_for(paths)
            .into_iter()
            .map(|r| (r, packs[&r.pack][r.start as usize..r.end as usize].to_vec()))
            .collect();
        table.tree_from(paths, &reads)
    };

    let config: BTreeSet<String> = config_files(&table).into_iter().collect();
    let mut planned = plan(&read(&config), &table)?;
    if let Some(n) = batches_of {
        let pages = planned.plan.pages().len() as u32;
        planned.batches = (0..pages.div_ceil(n))
            .map(|b| b * n..((b + 1) * n).min(pages))
            .collect();
    }
    let plan_bytes = planned.plan.to_bytes();

    let mut state = BatchState::default();
    let mut postings = Vec::new();
    let mut text = Vec::new();
    let mut llms_full = Vec::new();
    let mut records = Vec::new();
    let (mut parsed, mut reused_pages, mut taken_batches, mut kept_postings) =
        (Vec::new(), 0, 0, Vec::new());
    for (b, range) in planned.batches.clone().into_iter().enumerate() {
        let tree = read(&batch_files(&planned.plan, &range, &table));
        let keys = page_keys(&planned.plan, &range, &table, &tree, DOMAIN);
        assert_eq!(
            parsed::page_keys_from_digests(&planned.plan, &range, &table, &digests, DOMAIN)
                .as_ref(),
            Some(&keys),
            "the unpack's digests give the same keys"
        );
        let digest = kept::batch_digest(
            &planned.plan,
            &range,
            &keys,
            &planned.layout,
            Some(embedded_model().fingerprint()),
        );
        if let (Some(live), Some((old, entry))) = (
            live,
            live_batches
                .as_ref()
                .and_then(|k| k.find(&digest, &state.search)),
        ) {
            // As the worker takes it: the cursor and group ends from the index, no record read.
            let record = BatchRecord::from_bytes(&live.records[old as usize])?.kept_as(b as u32);
            state.search = entry.end;
            let slice = |bytes: &[u8], (at, len): (u64, u64)| {
                bytes[at as usize..(at + len) as usize].to_vec()
            };
            text.extend(slice(&live.text, entry.text));
            llms_full.extend(slice(&live.llms_full, entry.llms));
            let bytes = live.postings[old as usize].clone();
            postings.push((bytes.clone(), entry.group_ends.clone()));
            kept_postings.push(bytes);
            parsed.push(live.parsed[old as usize].clone());
            records.push(record.to_bytes());
            taken_batches += 1;
            continue;
        }
        // Redone from the same state, a batch gives the same bytes (an alarm cut short redoes it).
        let before = state.clone();
        let input = || BatchInput {
            batch: b as u32,
            range: range.clone(),
            tree: &tree,
            keys: &keys,
            model: Some(embedded_model()),
        };
        let result = run_batch(
            &planned.plan,
            input(),
            &planned.layout,
            &reused_for(&keys, kept),
            &mut state,
            DOMAIN,
        )?;
        let mut again_state = before;
        let again = run_batch(
            &planned.plan,
            input(),
            &planned.layout,
            &reused_for(&keys, kept),
            &mut again_state,
            DOMAIN,
        )?;
        assert_eq!(
            (again.postings, again.text, &again_state),
            (result.postings.clone(), result.text.clone(), &state)
        );
        parsed.push(result.parsed);
        reused_pages += result.reused_pages;
        kept_postings.push(result.postings.clone());
        postings.push((result.postings, result.group_ends));
        text.extend(result.text);
        llms_full.extend(result.llms);
        records.push(result.record.to_bytes());
    }

    let chunk_count = state.search.chunks as usize;
    let mut terms = Vec::new();
    let mut shard_lens = Vec::new();
    for group in 0..planned.layout.group_count() {
        let parts: Vec<Vec<u8>> = postings
            .iter()
            .map(|(bytes, ends)| {
                let start = if group == 0 {
                    0
                } else {
                    ends[group as usize - 1] as usize
                };
                bytes[start..ends[group as usize] as usize].to_vec()
            })
            .collect();
        let merged = merge_group(&planned.layout, group, &parts, chunk_count)?;
        terms.extend(merged.bytes);
        shard_lens.extend(merged.shard_lens);
    }

    let mut finisher = Finisher::default();
    for record in &records {
        finisher.add(BatchRecord::from_bytes(record)?);
    }
    let layout = planned.layout;
    let finished = finisher.finish(SitePlan::from_bytes(&plan_bytes)?, &shard_lens, DOMAIN)?;
    let batch_starts = planned.batches.iter().map(|r| r.start).collect();
    Ok(Published {
        meta: finished.meta.clone(),
        terms,
        text,
        llms_full,
        finished,
        layout,
        parsed,
        reused_pages,
        batch_starts,
        records,
        postings: kept_postings,
        taken_batches,
    })
}

/// Step 1 over an in-memory store: the packs by index and the file table (stored and read back).
fn unpack(gz: &[u8], piece: usize) -> Result<(BTreeMap<u32, Vec<u8>>, FileTable), PublishError> {
    unpack_with_digests(gz, piece).map(|(packs, table, _)| (packs, table))
}

/// What [`unpack_with_digests`] reads back: the source packs by number, the file table, the digests.
type Unpacked = (BTreeMap<u32, Vec<u8>>, FileTable, parsed::FileDigests);

/// [`unpack`], with the source files' digests (stored and read back).
fn unpack_with_digests(gz: &[u8], piece: usize) -> Result<Unpacked, PublishError> {
    let mut writer = SourceWriter::new(&ArchiveLimits {
        max_total_bytes: 64 << 20,
        ..ArchiveLimits::default()
    });
    let mut packs: BTreeMap<u32, Vec<u8>> = BTreeMap::new();
    let source_packs =
        |stored: Vec<Stored>| stored.into_iter().filter_map(Stored::into_source_pack);
    for chunk in gz.chunks(piece) {
        packs.extend(source_packs(writer.push(chunk)?));
    }
    let (last, table, digests) = writer.finish()?;
    packs.extend(source_packs(last));
    Ok((
        packs,
        FileTable::from_bytes(&table.to_bytes())?,
        parsed::FileDigests::from_bytes(&digests.to_bytes())?,
    ))
}

/// The small-site path: the same steps in memory, in one call.
fn publish_small(gz: &[u8]) -> Result<Published, PublishError> {
    let (packs, table) = unpack(gz, 64 << 10)?;
    let config: BTreeSet<String> = config_files(&table).into_iter().collect();
    let batch_starts = plan(&table.tree_from_packs(&packs, &config), &table)?
        .batches
        .iter()
        .map(|r| r.start)
        .collect();
    let small = plan_small_site(&packs, &table, DOMAIN)?;
    let parsed = parse_small_site(
        small,
        &packs,
        &table,
        DOMAIN,
        &Reused::default(),
        Some(embedded_model()),
    )?;
    let built = parsed.rest.finish(DOMAIN)?;
    Ok(Published {
        meta: built.finished.meta.clone(),
        terms: built.terms,
        text: parsed.text,
        llms_full: parsed.llms_full,
        finished: built.finished,
        layout: built.layout,
        parsed: parsed.parsed,
        reused_pages: parsed.reused_pages,
        batch_starts,
        records: Vec::new(),
        postings: Vec::new(),
        taken_batches: 0,
    })
}

fn assert_same_as_whole(files: &SourceTree, published: &Published) {
    let site = build_site(files).unwrap();
    let mut index = SearchIndex::build(&site.pages);
    index.embed(embedded_model());
    assert!(
        SearchMeta::from_bytes(&published.meta)
            .unwrap()
            .has_vectors(),
        "every batch gave its chunks' vectors"
    );
    // Text blocks end where batches do.
    let cuts: Vec<u32> = published
        .batch_starts
        .iter()
        .filter_map(|&p| index.data.pages.get(p as usize))
        .map(|p| p.first_chunk)
        .collect();
    let whole = ShardedIndex::build_with_cuts(&index, published.layout.shard_count, &cuts).unwrap();
    assert!(published.meta == whole.meta, "meta differs");
    assert!(
        published.terms == whole.terms,
        "terms pack differs ({} vs {} bytes)",
        published.terms.len(),
        whole.terms.len()
    );
    assert!(published.text == whole.text, "text pack differs");
    let docs = agent_docs(&site, files, DOMAIN);
    assert!(
        published.llms_full == docs.llms_full.as_bytes(),
        "llms-full.txt differs"
    );
    assert_eq!(published.finished.llms_txt, docs.llms_txt);
    assert_eq!(published.finished.manifest, docs.manifest.text);
    let outline = SiteOutline::from_bytes(&published.finished.outline).unwrap();
    assert_eq!(outline, SiteOutline::of(&site));
    assert_eq!(published.finished.site.warnings, site.warnings);
}

/// The fixture's files, when the fixture is there.
fn fixture() -> Option<SourceTree> {
    let root = Path::new(FIXTURE);
    if !root.join("docs.json").is_file() {
        eprintln!("fixture not found at {FIXTURE}");
        return None;
    }
    Some(read_dir_tree(root).expect("the fixture is readable"))
}

#[test]
fn the_fixture_publishes_in_batches_exactly_as_built_whole() {
    let Some(files) = fixture() else { return };
    let gz = pack_tree(&files);
    for (piece, batches) in [(64 << 10, None), (4096, Some(37)), (1 << 20, Some(1000))] {
        let published = publish(&gz, piece, batches).unwrap();
        assert!(published.layout.shard_count > 10 && published.layout.group_count() >= 1);
        assert_same_as_whole(&files, &published);
    }
}

#[test]
fn the_fixture_builds_in_one_step_exactly_as_built_whole() {
    let Some(files) = fixture() else { return };
    let gz = pack_tree(&files);
    let (packs, _) = unpack(&gz, 1 << 20).unwrap();
    let packed: u64 = packs.values().map(|p| p.len() as u64).sum();
    // The bound is the worker's memory budget, not a rule of the build: the fixture (8 MiB of
    // source, several term groups) is over it and goes through the stages in the worker, and is
    // built in one step here to hold that path to the whole build on a real site.
    assert!(
        packed > SMALL_SITE_BYTES / 2,
        "the fixture ({packed} bytes unpacked) is fixture-sized"
    );
    let published = publish_small(&gz).unwrap();
    assert!(
        published.layout.group_count() > 1,
        "several term groups are merged"
    );
    assert_same_as_whole(&files, &published);
}

#[test]
fn a_small_site_with_copies_missing_pages_snippets_and_warnings_publishes_the_same() {
    let files = tree(&[
        ("docs.json", r#"{"name": "Acme", "navigation": {"tabs": [
            {"tab": "Docs", "groups": [{"group": "Start", "pages": ["index", "gone", "guide", "api/delete-user"]}]},
            {"tab": "Hidden", "hidden": true, "groups": [{"group": "Again", "pages": ["guide"]}]}]}}"#),
        ("index.mdx", "---\ntitle: Home\n---\nimport Note from '/snippets/note.mdx'\n\n<Note />\n\n## Install\n\nRun it."),
        ("snippets/note.mdx", "A shared note about tokens."),
        ("guide.mdx", "---\ntitle: [bad\n---\n# Guide\n\nText about zebras."),
        ("extra.md", "Not in navigation."),
        ("logo.svg", "<svg xmlns='http://www.w3.org/2000/svg'/>"),
        ("api/openapi.json", r#"{"openapi": "3.1.0", "paths": {"/users": {"get": {}}}}"#),
        ("api/delete-user.mdx", "---
title: Delete a user
openapi: DELETE /users
---
Gone."),
    ]);
    let site = build_site(&files).unwrap();
    assert!(
        site.warnings.iter().any(|w| w
            .starts_with("api/delete-user.mdx:3: `openapi: DELETE /users`: no OpenAPI document")),
        "{:?}",
        site.warnings
    );
    let gz = pack_tree(&files);
    for batches in [Some(1), Some(2), None] {
        assert_same_as_whole(&files, &publish(&gz, 100, batches).unwrap());
    }
    assert_same_as_whole(&files, &publish_small(&gz).unwrap());
}

#[test]
fn the_root_skill_md_is_kept_to_serve_and_is_not_a_page() {
    let skill =
        "---\nname: acme\ndescription: Deploy Acme apps.\n---\n\n# Acme\n\nUse `acme deploy`.\n";
    let files = tree(&[
        (
            "docs.json",
            r#"{"name": "Acme", "navigation": {"pages": ["index"]}}"#,
        ),
        ("index.mdx", "---\ntitle: Home\n---\nWelcome."),
        ("skill.md", skill),
        (
            ".mintlify/skills/payments/SKILL.md",
            "---\nname: Payments\ndescription: Charge cards.\n---\n",
        ),
    ]);
    let gz = pack_tree(&files);
    for published in [
        publish(&gz, 100, None).unwrap(),
        publish_small(&gz).unwrap(),
    ] {
        assert_eq!(published.finished.skill_md.as_deref(), Some(skill));
        let well_known: Vec<&str> = published
            .finished
            .well_known
            .iter()
            .map(|(path, _)| path.as_str())
            .collect();
        assert_eq!(
            well_known,
            [
                ".well-known/agent-skills/index.json",
                ".well-known/skills/index.json",
                ".well-known/agent-skills/acme/SKILL.md",
                ".well-known/agent-skills/payments/SKILL.md",
                ".well-known/skills/acme/SKILL.md",
                ".well-known/skills/payments/SKILL.md",
            ]
        );
        let paths: Vec<&str> = published
            .finished
            .site
            .pages
            .iter()
            .map(|p| p.path.as_str())
            .collect();
        assert_eq!(paths, ["index"]);
        assert!(
            !published.finished.llms_txt.contains("skill"),
            "{}",
            published.finished.llms_txt
        );
        assert_same_as_whole(&files, &published);
    }
    let without = pack_tree(&tree(&[
        ("docs.json", r#"{"navigation": {"pages": ["index"]}}"#),
        ("index.mdx", "Home"),
    ]));
    let none = publish(&without, 100, None).unwrap().finished;
    assert_eq!((none.skill_md, none.well_known), (None, Vec::new()));
}

#[test]
fn upload_faults_fail_the_publish_naming_them() {
    let good = tree(&[
        ("docs.json", r#"{"navigation": {"pages": ["index"]}}"#),
        ("index.mdx", "Home"),
    ]);
    let gz = pack_tree(&good);
    let truncated = publish(&gz[..gz.len() - 8], 64, None).unwrap_err();
    assert!(
        matches!(
            truncated,
            PublishError::Archive(ArchiveError::Corrupt { .. })
        ),
        "{truncated:?}"
    );
    assert!(truncated.is_invalid_upload());

    let laughs = crate::docs::yaml_budget::tests::billion_laughs();
    let mut bomb = good.clone();
    bomb.insert("api/openapi.yaml".into(), laughs.into_bytes());
    let err = publish(&pack_tree(&bomb), 64, None).unwrap_err();
    assert!(
        matches!(&err, PublishError::Site(SiteError::YamlAliases { file, .. }) if file == "api/openapi.yaml"),
        "{err:?}"
    );

    let mut no_config = good.clone();
    no_config.remove("docs.json");
    let err = publish(&pack_tree(&no_config), 64, None).unwrap_err();
    assert!(
        matches!(err, PublishError::Archive(ArchiveError::MissingDocsJson)),
        "{err:?}"
    );

    let err = publish(b"plain text, not gzip", 4, None).unwrap_err();
    assert!(
        matches!(err, PublishError::Archive(ArchiveError::NotGzip)),
        "{err:?}"
    );

    let mut bad_config = good.clone();
    bad_config.insert("docs.json".into(), b"{not json".to_vec());
    let err = publish_small(&pack_tree(&bad_config)).unwrap_err();
    assert!(err.is_invalid_upload(), "{err:?}");
}

#[test]
fn corrupt_intermediate_objects_are_errors_not_panics() {
    let layout = ShardLayout {
        shard_count: 4,
        group_shards: 2,
    };
    for bytes in [vec![], vec![9, 0, 0, 0, 1], vec![0xff; 64]] {
        assert!(merge_group(&layout, 0, &[bytes], 10).is_err());
    }
    assert!(BatchRecord::from_bytes(b"junk").is_err());
    assert!(SitePlan::from_bytes(b"").is_err());
}

#[test]
// A list of one batch, its pages `0..1`, is what is meant (not the numbers 0 to 1).
#[allow(clippy::single_range_in_vec_init)]
fn batches_follow_source_bytes_and_the_page_cap() {
    let named = |sizes: &[u64]| {
        sizes
            .iter()
            .enumerate()
            .map(|(i, &s)| (s, format!("p{i}")))
            .collect::<Vec<_>>()
    };
    let cut = |pages: &[(u64, String)]| batches(pages.iter().map(|(s, p)| (*s, p.as_str())));
    // Below half a batch no page is a cut point.
    assert_eq!(cut(&named(&[BATCH_SOURCE_BYTES, 1, 1])), [0..1, 1..3]);
    assert_eq!(cut(&named(&[BATCH_SOURCE_BYTES * 3])), [0..1]);
    let many = cut(&named(&[1; 1001]));
    assert!(
        many.len() >= 3 && many.iter().all(|r| r.len() <= BATCH_MAX_PAGES as usize),
        "{many:?}"
    );
    assert!(cut(&[]).is_empty());
}

#[test]
fn batch_cuts_move_back_into_place_after_an_edit() {
    let pages: Vec<(u64, String)> = (0..2000)
        .map(|i| (20_000 + (i * 7919 % 30_000), format!("guide/page-{i}")))
        .collect();
    let before = batches(pages.iter().map(|(s, p)| (*s, p.as_str())));
    assert!(before.len() > 10);
    // The third batch's first page grows by most of a batch: the cuts after it come back to where
    // they were within a batch or two.
    let mut edited = pages.clone();
    edited[before[2].start as usize].0 += BATCH_SOURCE_BYTES / 2;
    let after = batches(edited.iter().map(|(s, p)| (*s, p.as_str())));
    let same = before[5..].iter().filter(|r| after.contains(r)).count();
    assert!(
        same >= before.len() - 7,
        "{same} of {} later batches kept their pages",
        before.len() - 5
    );
}

/// Everything but the parsed-pages objects, which record whether a page was reused.
fn same_outputs(a: &Published, b: &Published) {
    assert_eq!(
        (&a.meta, &a.terms, &a.text, &a.llms_full),
        (&b.meta, &b.terms, &b.text, &b.llms_full)
    );
    assert_eq!(
        (
            &a.finished.outline,
            &a.finished.llms_txt,
            &a.finished.manifest
        ),
        (
            &b.finished.outline,
            &b.finished.llms_txt,
            &b.finished.manifest
        )
    );
}

#[test]
fn a_republish_reuses_every_page_whose_inputs_did_not_change_and_builds_the_same_site() {
    let mut files = tree(&[
        ("docs.json", r#"{"name": "Acme", "navigation": {"groups": [
            {"group": "Start", "pages": ["index", "guide", "other", "copy/guide"]},
            {"group": "Again", "pages": ["guide"]}]}}"#),
        ("index.mdx", "---\ntitle: Home\n---\nimport Note from '/snippets/note.mdx'\n\n<Note />\n\n## Install\n\nRun it."),
        ("snippets/note.mdx", "A shared note about tokens."),
        ("guide.mdx", "---\ntitle: Guide\n---\n# Guide\n\nText about zebras."),
        ("other.mdx", "---\ntitle: [bad\n---\nOther words."),
        ("copy/guide.mdx", "---\ntitle: Guide\n---\n# Guide\n\nText about zebras."),
    ]);
    let first = publish(&pack_tree(&files), 100, Some(2)).unwrap();
    assert_eq!(first.reused_pages, 0);
    let listed = first.finished.site.pages.len() as u32;
    assert_eq!(listed, 4, "the second listing of guide is dropped");

    // Nothing changed: every page is taken, and the site is byte for byte the same.
    let again = publish_after(&pack_tree(&files), 100, Some(2), Some(&first.kept())).unwrap();
    assert_eq!(again.reused_pages, listed);
    same_outputs(&again, &first);

    // A snippet changes: the page importing it is read again, the others are taken; the result is
    // what a publish from nothing gives.
    files.insert(
        "snippets/note.mdx".into(),
        b"A changed note about ferrets.".to_vec(),
    );
    let fresh = publish(&pack_tree(&files), 100, Some(2)).unwrap();
    let edited = publish_after(&pack_tree(&files), 100, Some(2), Some(&again.kept())).unwrap();
    assert_eq!(edited.reused_pages, listed - 1);
    same_outputs(&edited, &fresh);
    assert!(String::from_utf8_lossy(&edited.llms_full).contains("ferrets"));

    // The page moves to another group: its place in the navigation is an input too.
    files.insert("docs.json".into(), br#"{"name": "Acme", "navigation": {"groups": [
        {"group": "Begin", "pages": ["index"]}, {"group": "Start", "pages": ["guide", "other", "copy/guide"]},
        {"group": "Again", "pages": ["guide"]}]}}"#.to_vec());
    let moved = publish_after(&pack_tree(&files), 100, Some(2), Some(&edited.kept())).unwrap();
    assert_eq!(moved.reused_pages, listed - 1);
    same_outputs(&moved, &publish(&pack_tree(&files), 100, Some(2)).unwrap());
}

#[test]
fn kept_pages_are_not_reused_for_another_domain_or_from_bytes_that_do_not_decode() {
    let files = tree(&[
        (
            "docs.json",
            r#"{"navigation": {"pages": ["index", "guide"]}}"#,
        ),
        ("index.mdx", "Home"),
        ("guide.mdx", "Guide"),
    ]);
    let first = publish(&pack_tree(&files), 100, None).unwrap();
    let (mut objects, index) = first.kept();
    for object in &mut objects {
        object.iter_mut().for_each(|b| *b = !*b);
    }
    let again = publish_after(&pack_tree(&files), 100, None, Some(&(objects, index))).unwrap();
    assert_eq!(again.reused_pages, 0);
    same_outputs(&again, &first);

    let (packs, table) = unpack(&pack_tree(&files), 100).unwrap();
    let small = plan_small_site(&packs, &table, DOMAIN).unwrap();
    let other = plan_small_site(&packs, &table, "other.example.com").unwrap();
    assert_eq!(small.keys().len(), 2);
    assert!(small.keys().iter().all(|k| !other.keys().contains(k)));
}

/// The fixture with `edit` applied, published taking what `live` kept, is what a publish of it
/// from nothing gives; returns the re-publish.
fn republished(
    files: &SourceTree,
    live: &Published,
    edit: impl FnOnce(&mut SourceTree),
) -> Published {
    let mut edited = files.clone();
    edit(&mut edited);
    let gz = pack_tree(&edited);
    let fresh = publish(&gz, 1 << 20, None).unwrap();
    let again = publish_taking(&gz, 1 << 20, None, Some(&live.kept()), Some(live)).unwrap();
    same_outputs(&again, &fresh);
    assert_eq!(again.finished.kept_batches, fresh.finished.kept_batches);
    assert_eq!(again.records.len(), fresh.records.len());
    again
}

#[test]
fn a_republish_takes_unchanged_batches_whole_and_builds_the_same_site() {
    let Some(files) = fixture() else { return };
    let first = publish(&pack_tree(&files), 1 << 20, None).unwrap();
    let batches = first.batch_starts.len() as u32;
    assert!(
        batches >= 4,
        "the fixture makes several batches ({batches})"
    );
    let page_in = |b: usize| {
        let plan_page = &first.finished.site.pages[first.batch_starts[b] as usize + 1];
        files
            .keys()
            .find(|f| f.trim_end_matches(".mdx") == plan_page.path.trim_start_matches('/'))
            .cloned()
            .expect("the page's file")
    };

    // Nothing changed: every batch is taken.
    let same = republished(&files, &first, |_| {});
    assert_eq!(same.taken_batches, batches);

    // A sentence added to a page of the middle batch: that batch is built again, the rest taken.
    let middle = page_in(batches as usize / 2);
    let edited = republished(&files, &first, |f| {
        f.get_mut(&middle)
            .unwrap()
            .extend(b"\n\nA sentence added about otters.\n")
    });
    assert!(
        edited.taken_batches >= batches - 2,
        "{} of {batches} taken",
        edited.taken_batches
    );
    assert!(String::from_utf8_lossy(&edited.llms_full).contains("otters"));

    // A page removed, and a page added: every later page moves (built again, the same bytes as
    // from nothing); the batches before are taken.
    let gone = page_in(1);
    let removed = republished(&files, &first, |f| {
        f.remove(&gone);
    });
    assert!(removed.taken_batches >= 1);
    let added = republished(&files, &first, |f| {
        let docs = String::from_utf8(f["docs.json"].clone()).unwrap();
        let first_page = gone.trim_end_matches(".mdx");
        f.insert(
            "docs.json".into(),
            docs.replacen(
                &format!("\"{first_page}\""),
                &format!("\"{first_page}\", \"added-page\""),
                1,
            )
            .into_bytes(),
        );
        f.insert(
            "added-page.mdx".into(),
            b"---\ntitle: Added\n---\nA page about pelicans.".to_vec(),
        );
    });
    assert!(String::from_utf8_lossy(&added.llms_full).contains("pelicans"));
    assert!(added.taken_batches >= 1);

    // A snippet every page may import changes: the batches of pages importing it are built again.
    let snippet = files
        .keys()
        .find(|f| f.starts_with("snippets/") && f.ends_with(".mdx"))
        .cloned();
    if let Some(snippet) = snippet {
        republished(&files, &first, |f| {
            f.get_mut(&snippet)
                .unwrap()
                .extend(b"\n\nA snippet line about walruses.\n")
        });
    }
}
