//! The icons of a batch of exported pages: the shards of the builder's icon assets
//! (`export-icons/`, written by scripts/build-icons.mjs) that the batch's names need, read side by
//! side, then filled in by core (`docs_edge_core::export::icons`). A batch reads a few shards of
//! about 20-90 KB each, never a whole set, and only for names the job has not met yet: the caller
//! keeps what the shards said of each name ([`KnownIcons`]; the export job's object, across alarms,
//! up to [`KNOWN_ICON_BYTES`]) and drops the shards after the batch.

use std::cell::RefCell;
use std::collections::BTreeSet;

use docs_edge_core::docs::{SiteConfig, SourceTree};
use docs_edge_core::export::icons::{self, IconSet, IconShards, KnownIcons, Library, Marked};
use docs_edge_core::export::ExportFile;
use worker::Env;

use crate::shared::error::ApiResult;

/// Folder of the icon assets, as `ShardId::asset_path` names them.
const ICON_ASSETS: &str = "export-icons";

/// What a job may know of icon names before it starts over (a site names tens to a few hundred
/// icons, each a few hundred bytes of path data).
pub const KNOWN_ICON_BYTES: usize = 1 << 20;

/// Fills the icon markers in `files` from what `known` holds, reading the shards for names it has
/// not met; returns the sets used. Unknown names are the authors' to fix: logged as warnings naming
/// file and line, the pages show a neutral dot.
pub async fn fill(
    env: &Env,
    files: &mut [ExportFile],
    config: &SiteConfig,
    tree: &SourceTree,
    known: &RefCell<KnownIcons>,
) -> ApiResult<BTreeSet<IconSet>> {
    let library = Library::from_config(config.icon_library.as_deref());
    if known.borrow().bytes() > KNOWN_ICON_BYTES {
        *known.borrow_mut() = KnownIcons::default();
    }
    let marked = Marked::read(files);
    let wanted = known.borrow().shards_wanted(&marked, library);
    let texts = crate::shared::join::try_join_all(wanted.iter().map(|shard| async move {
        let text: ApiResult<String> = Ok(crate::shared::assets::fetch(env, &shard.asset_path())
            .await?
            .text()
            .await?);
        text
    }))
    .await?;
    let mut shards = IconShards::default();
    for (shard, text) in wanted.into_iter().zip(texts) {
        shards.insert(shard, text);
    }
    let mut known = known.borrow_mut();
    known.learn(&marked, library, &shards);
    drop(shards);
    let filled = icons::fill_marked(files, marked, library, &*known, tree);
    for warning in &filled.warnings {
        worker::console_warn!("export: {warning}");
    }
    Ok(filled.sets)
}

/// The licence files of the sets the pages show, for the bundle.
pub async fn licence_files(env: &Env, sets: &BTreeSet<IconSet>) -> ApiResult<Vec<ExportFile>> {
    let names: BTreeSet<&str> = sets.iter().map(|s| s.licence_file()).collect();
    let mut texts = Vec::new();
    for name in names {
        texts.push((
            name,
            crate::shared::assets::fetch(env, &format!("{ICON_ASSETS}/{name}"))
                .await?
                .bytes()
                .await?,
        ));
    }
    Ok(icons::licence_files(sets, |name| {
        texts
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, b)| b.clone())
    }))
}
