//! A hosted site's export writes the search packs' files (`_docs-edge/search/*.bin`) from the
//! version's packs as they are stored, not from its parts: their pieces are compressed into the
//! parts only after the switch (`super::site_live`), so neither compressing them (the largest
//! files of the bundle but `llms-full.txt`) nor inflating them again is on the way to live. The
//! bytes are the same: the parts' pieces are cut from the same packs (`crate::builder::export_search`).

use docs_edge_core::export::{PACK_PIECE_BYTES, SEARCH_PACK_FILES};

use super::delta_listing::Listing;
use super::site_copy::{Files, HELD_MEDIA_BYTES};
use crate::builder::export_search::Packs;
use crate::shared::error::ApiResult;

impl Files<'_, '_> {
    /// Writes the packs' files (layered on a base, those whose bytes it lacks) as the parts'
    /// entries would be: one up to [`HELD_MEDIA_BYTES`] held whole, a larger one streamed a
    /// piece at a time; returns how many.
    pub(super) async fn packs(&mut self, listing: &mut Listing<'_>) -> ApiResult<u32> {
        let (domain, publish_id) = self.job.version;
        let packs = Packs::of(self.bucket, domain, publish_id).await?;
        for (pack, path) in SEARCH_PACK_FILES.iter().enumerate() {
            let size = packs.size(pack);
            let pieces = (0..size)
                .step_by(PACK_PIECE_BYTES as usize)
                .map(|start| start..size.min(start + PACK_PIECE_BYTES));
            if size <= HELD_MEDIA_BYTES {
                let mut bytes = Vec::with_capacity(size as usize);
                for range in pieces {
                    bytes.extend(packs.read(self.bucket, pack, range).await?);
                }
                self.whole(listing, path.to_string(), bytes).await?;
                continue;
            }
            let (mut digest, mut writer) = self.stream(listing, path, size).await?;
            for range in pieces {
                let data = packs.read(self.bucket, pack, range).await?;
                listing.data(&mut digest, &data).await?;
                if let Some(writer) = writer.as_mut() {
                    writer.write(&data).await?;
                }
            }
            if let Some(writer) = writer {
                writer.finish().await?;
            }
            listing.end(digest).await?;
        }
        Ok(SEARCH_PACK_FILES.len() as u32)
    }
}
