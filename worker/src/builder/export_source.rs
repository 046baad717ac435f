//! A published version as the static export reads it: the site outline, the file table and the
//! files every batch reads ([`docs_edge_core::export::shared_files`]), kept per isolate; a batch
//! then reads only its pages' files, by ranged reads of the source packs
//! ([`docs_edge_core::docs::packed`]). Nothing here holds the whole source.
//!
//! A version published before the source layout has only its upload: its export answers 409
//! `republish_required` (`crate::shared::sites::republish_required`).

use docs_edge_core::docs::{FileTable, Site, SiteOutline, SourceTree};
use docs_edge_core::export::{batch_tree, shared_files};
use worker::Bucket;

use crate::shared::error::{ApiError, ApiResult};
use crate::shared::sites;
use docs_edge_core::docs::packed::MediaRead;

use crate::shared::storage::{
    media_pack, read, site_file_key, source_pack_key, version_key, SITE_OUTLINE, SOURCE_FILE_TABLE,
};

pub struct ExportSource {
    domain: String,
    publish_id: String,
    /// The site without page bodies.
    pub outline: Site,
    pub table: FileTable,
    /// The files of [`shared_files`], with their bytes.
    pub shared: SourceTree,
}

impl ExportSource {
    /// The version's outline, file table and shared files.
    pub async fn open(bucket: &Bucket, domain: &str, publish_id: &str) -> ApiResult<ExportSource> {
        let table = read(
            bucket,
            &version_key(domain, publish_id, SOURCE_FILE_TABLE),
            None,
        )
        .await?
        .ok_or_else(|| sites::republish_required(domain, "has no source layout stored with it"))?;
        let table = FileTable::from_bytes(&table)
            .map_err(|e| ApiError::Internal(format!("stored file table: {e}")))?;
        let outline = read(bucket, &version_key(domain, publish_id, SITE_OUTLINE), None)
            .await?
            .ok_or_else(|| ApiError::Internal(format!("the outline of {publish_id} is missing")))?;
        let outline = SiteOutline::from_bytes(&outline)
            .map_err(|e| ApiError::Internal(format!("stored outline: {e}")))?
            .site;
        let mut source = ExportSource {
            domain: domain.to_owned(),
            publish_id: publish_id.to_owned(),
            outline,
            table,
            shared: SourceTree::new(),
        };
        source.shared = source.read(bucket, &shared_files(&source.table)).await?;
        Ok(source)
    }

    /// The bytes of `paths`: one ranged read per source pack that holds any of them, its files taken
    /// out before the next is read (the bytes between wanted files are held one pack at a time).
    pub async fn read(
        &self,
        bucket: &Bucket,
        paths: &std::collections::BTreeSet<String>,
    ) -> ApiResult<SourceTree> {
        let mut tree = SourceTree::new();
        for range in self.table.reads_for(paths) {
            let key = source_pack_key(&self.domain, &self.publish_id, &self.table, range.pack);
            let span = u64::from(range.start)..u64::from(range.end);
            let bytes = read(bucket, &key, Some(span)).await?.ok_or_else(|| {
                ApiError::Internal(format!("source pack {} is missing", range.pack))
            })?;
            tree.extend(self.table.tree_from(paths, &[(range, bytes)]));
        }
        Ok(tree)
    }

    /// The bytes of a media file (one outside the source packs), `None` for a source file.
    pub async fn media(&self, bucket: &Bucket, path: &str) -> ApiResult<Option<Vec<u8>>> {
        let (key, span) = match self.table.media_read(path) {
            None => return Ok(None),
            Some(MediaRead::Pack { pack, start, len }) => (
                version_key(&self.domain, &self.publish_id, &media_pack(pack)),
                Some(u64::from(start)..u64::from(start) + u64::from(len)),
            ),
            Some(MediaRead::Object(name)) => {
                (version_key(&self.domain, &self.publish_id, &name), None)
            }
            Some(MediaRead::SiteFile(hash)) => (site_file_key(&self.domain, &hash), None),
        };
        let bytes = read(bucket, &key, span)
            .await?
            .ok_or_else(|| ApiError::Internal(format!("media file {path} is missing")))?;
        Ok(Some(bytes))
    }

    /// What pages read while rendering: `paths` and the shared files with their bytes, every other
    /// file of the table named ([`batch_tree`]).
    pub async fn tree(
        &self,
        bucket: &Bucket,
        paths: &std::collections::BTreeSet<String>,
    ) -> ApiResult<SourceTree> {
        Ok(self.complete(self.read(bucket, paths).await?))
    }

    /// The tree a batch renders from, given the files of its own it read ([`Self::read`]): those,
    /// the shared files, and every other file of the table named.
    pub fn complete(&self, mut own: SourceTree) -> SourceTree {
        own.extend(
            self.shared
                .iter()
                .map(|(path, bytes)| (path.clone(), bytes.clone())),
        );
        batch_tree(&self.table, own)
    }
}
