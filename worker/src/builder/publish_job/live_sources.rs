//! The live site's sources a publish reuses: what it reads of the published version.

use super::limits::HEADS_AT_ONCE;
use super::store::Store;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::join::try_join_all;
use crate::shared::sites::{self};
use crate::shared::storage::{
    self, source_pack_key, version_key, SOURCE_DIGESTS, SOURCE_FILE_TABLE,
};
use docs_edge_core::docs::archive::SourceTree;
use docs_edge_core::docs::packed::{FileTable, PackRead, PackWriter, Stored};
use docs_edge_core::publish::manifest::{Manifest, ManifestFile, MANIFEST_OBJECT};
use docs_edge_core::publish::parsed::FileDigests;
use std::collections::{BTreeMap, BTreeSet};

/// The live version's source packs, as a re-publish reads unchanged files from them.
pub(super) struct LiveSources {
    pub(super) publish_id: String,
    pub(super) table: FileTable,
    /// Hash -> a path the live version holds those bytes at, in a source pack.
    pub(super) by_hash: BTreeMap<String, String>,
    /// The live version's file digests (absent before they were kept with it: nothing is shared).
    pub(super) digests: Option<FileDigests>,
}

impl LiveSources {
    /// `None` unless the live version is this organization's and was published file by file.
    pub(super) async fn open(store: &Store<'_>, org_id: &str) -> ApiResult<Option<LiveSources>> {
        let Some(version) = sites::current_version(store.bucket, &store.domain, org_id).await?
        else {
            return Ok(None);
        };
        let key = |name: &str| version_key(&store.domain, &version.publish_id, name);
        let Some(manifest) = storage::read(store.bucket, &key(MANIFEST_OBJECT), None).await? else {
            return Ok(None);
        };
        let Some(table) = storage::read(store.bucket, &key(SOURCE_FILE_TABLE), None).await? else {
            return Ok(None);
        };
        store.traffic.read(manifest.len() + table.len());
        let (Ok(manifest), Ok(table)) = (
            Manifest::from_bytes(&manifest),
            FileTable::from_bytes(&table),
        ) else {
            return Ok(None);
        };
        let digests = match storage::read(store.bucket, &key(SOURCE_DIGESTS), None).await? {
            Some(bytes) => {
                store.traffic.read(bytes.len());
                FileDigests::from_bytes(&bytes).ok()
            }
            None => None,
        };
        let by_hash = manifest
            .files
            .into_iter()
            .filter(|f| {
                table
                    .get(&f.path)
                    .is_some_and(|e| e.stored == Stored::Source)
            })
            .map(|f| (f.hash, f.path))
            .collect();
        Ok(Some(LiveSources {
            publish_id: version.publish_id,
            table,
            by_hash,
            digests,
        }))
    }

    pub(super) fn holds(&self, hash: &str) -> bool {
        self.by_hash.contains_key(hash)
    }

    /// Shares with the new version (`writer`, before it packs anything) the live packs in the
    /// site's store that `files` (all held live) fill at least half of, and that the store still
    /// holds: their files are added pointing into them, with the live digests. Returns the files
    /// left to copy. Half: a shared pack's other bytes are dead weight the versions carry, so a
    /// pack mostly replaced is rewritten instead.
    pub(super) async fn shared<'m>(
        &self,
        store: &Store<'_>,
        files: Vec<&'m ManifestFile>,
        writer: &mut PackWriter,
        digests: &mut FileDigests,
    ) -> ApiResult<Vec<&'m ManifestFile>> {
        let Some(live_digests) = &self.digests else {
            return Ok(files);
        };
        let entry = |file: &ManifestFile| {
            self.by_hash
                .get(&file.hash)
                .and_then(|path| self.table.get(path))
                .filter(|e| e.stored == Stored::Source)
        };
        let mut size: BTreeMap<u32, u64> = BTreeMap::new();
        for e in self
            .table
            .files()
            .iter()
            .filter(|e| e.stored == Stored::Source)
        {
            let end = u64::from(e.offset) + u64::from(e.len);
            size.entry(e.pack)
                .and_modify(|s| *s = (*s).max(end))
                .or_insert(end);
        }
        let mut used: BTreeMap<u32, BTreeMap<u32, u32>> = BTreeMap::new();
        for e in files.iter().filter_map(|f| entry(f)) {
            used.entry(e.pack).or_default().insert(e.offset, e.len);
        }
        let wanted: Vec<u32> = used
            .iter()
            .filter(|(pack, ranges)| {
                2 * ranges.values().map(|l| u64::from(*l)).sum::<u64>()
                    >= size.get(pack).copied().unwrap_or(0)
            })
            .filter(|(pack, _)| self.table.pack_object(**pack).is_some())
            .map(|(pack, _)| *pack)
            .collect();
        let mut present = Vec::new();
        for group in wanted.chunks(HEADS_AT_ONCE) {
            let heads = group.iter().map(|pack| {
                store.bucket.head(source_pack_key(
                    &store.domain,
                    &self.publish_id,
                    &self.table,
                    *pack,
                ))
            });
            present.extend(
                group
                    .iter()
                    .zip(try_join_all(heads).await?)
                    .filter(|(_, head)| head.is_some())
                    .map(|(pack, _)| *pack),
            );
        }
        let mut index = BTreeMap::new();
        for pack in present {
            let name = self.table.pack_object(pack).unwrap_or_default().to_owned();
            match writer.share(name) {
                Some(new) => drop(index.insert(pack, new)),
                None => break,
            }
        }
        let mut rest = Vec::new();
        for file in files {
            let shared = self
                .by_hash
                .get(&file.hash)
                .and_then(|old| Some((old, entry(file)?)))
                .and_then(|(old, e)| Some((index.get(&e.pack)?, e, live_digests.get(old)?)));
            match shared {
                Some((&pack, e, digest)) => {
                    writer.add_in(file.path.clone(), pack, e.offset, e.len, e.imports.clone());
                    digests.add_digest(&file.path, digest);
                }
                None => rest.push(file),
            }
        }
        store.traffic.shared_packs.set(index.len() as u32);
        Ok(rest)
    }

    /// The files of `paths` that one ranged read of a live pack holds.
    pub(super) async fn pack_files(
        &self,
        store: &Store<'_>,
        read: PackRead,
        paths: &BTreeSet<String>,
    ) -> ApiResult<SourceTree> {
        let key = source_pack_key(&store.domain, &self.publish_id, &self.table, read.pack);
        let bytes = storage::read(
            store.bucket,
            &key,
            Some(u64::from(read.start)..u64::from(read.end)),
        )
        .await?
        .ok_or_else(|| ApiError::Internal(format!("{key} is missing")))?;
        store.traffic.read(bytes.len());
        Ok(self.table.tree_from(paths, &[(read, bytes)]))
    }
}
