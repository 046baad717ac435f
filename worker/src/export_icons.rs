//! The icons of a batch of exported pages: the shards of the builder's icon assets
//! (`export-icons/`, written by scripts/build-icons.mjs) that the batch's names need, read side by
//! side, then filled in by core (`docs_edge_core::export::icons`). A batch reads a few shards of
//! about 20-90 KB each, never a whole set. The shards read stay with the caller between batches
//! (the export job's object keeps them across alarms, up to [`HELD_SHARD_BYTES`]): reading and
//! indexing them for every batch was a tenth of a large export's time.

use std::cell::RefCell;
use std::collections::BTreeSet;

use docs_edge_core::docs::{SiteConfig, SourceTree};
use docs_edge_core::export::icons::{self, IconSet, IconShards, Library};
use docs_edge_core::export::ExportFile;
use worker::Env;

use crate::error::ApiResult;

/// Folder of the icon assets, as `ShardId::asset_path` names them.
const ICON_ASSETS: &str = "export-icons";

/// Shards kept between batches past which those the current batch does not need are dropped (the
/// five sets' assets are 3.5 MB in all; a site's pages use a few shards of one or two).
pub const HELD_SHARD_BYTES: usize = 2 << 20;

/// Fills the icon markers in `files` from the shards in `held`, reading those it lacks; returns the
/// sets used. Unknown names are the authors' to fix: logged as warnings naming file and line, the
/// pages show a neutral dot.
pub async fn fill(env: &Env, files: &mut [ExportFile], config: &SiteConfig, tree: &SourceTree, held: &RefCell<IconShards>) -> ApiResult<BTreeSet<IconSet>> {
    let library = Library::from_config(config.icon_library.as_deref());
    let wanted = icons::shards_wanted(files, library);
    if wanted.is_empty() {
        return Ok(BTreeSet::new());
    }
    let missing: Vec<_> = wanted.iter().copied().filter(|shard| !held.borrow().contains(*shard)).collect();
    let texts = crate::join::try_join_all(missing.iter().map(|shard| async move {
        let text: ApiResult<String> = Ok(crate::assets::fetch(env, &shard.asset_path()).await?.text().await?);
        text
    }))
    .await?;
    let mut shards = held.borrow_mut();
    if shards.bytes() + texts.iter().map(String::len).sum::<usize>() > HELD_SHARD_BYTES {
        shards.retain(|shard| wanted.contains(&shard));
    }
    for (shard, text) in missing.into_iter().zip(texts) {
        shards.insert(shard, text);
    }
    let filled = icons::fill(files, library, &shards, tree);
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
        texts.push((name, crate::assets::fetch(env, &format!("{ICON_ASSETS}/{name}")).await?.bytes().await?));
    }
    Ok(icons::licence_files(sets, |name| texts.iter().find(|(n, _)| *n == name).map(|(_, b)| b.clone())))
}
