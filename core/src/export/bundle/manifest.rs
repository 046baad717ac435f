//! `_docs-edge/manifest.json`: what a bundle is, for the servers that host it. The export job writes
//! it with the finishing files; `docs-edge-serve` reads it to check a pinned version and report what
//! it serves. The archive's own SHA-256 cannot be inside the archive: the bundle endpoint returns it
//! (`sha256`), and the server checks the download against it.

use serde::{Deserialize, Serialize};

use crate::platform::deployment::Features;

use crate::export::ExportFile;

pub const MANIFEST_FILE: &str = "_docs-edge/manifest.json";
/// The whole search index (`search::SearchIndex` bytes), which bundles made before the split packs
/// ([`SearchIndexFormat::Packs`]) carry instead of them; servers still read it.
pub const SEARCH_INDEX_FILE: &str = "_docs-edge/search-index.bin";
/// Bumped when the manifest or the bundle layout changes incompatibly.
pub const MANIFEST_FORMAT: u32 = 1;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BundleManifest {
    pub format: u32,
    pub domain: String,
    pub job_id: String,
    /// Version label exported (`None`: an unversioned site); of a bundle of several versions, the
    /// one at the site's own paths.
    pub version: Option<String>,
    /// Every version the bundle holds, [`BundleManifest::version`] first, then those written under
    /// their folders (`"versions": "all"` or a list). Empty for an unversioned site and in bundles
    /// made before it was recorded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub versions: Vec<String>,
    pub publish_id: String,
    pub created_at: String,
    pub page_count: u32,
    /// The switches the pages were rendered with.
    pub features: Features,
    /// The `Content-Security-Policy` the pages satisfy (see `export::content_security_policy`); a
    /// server sends it with every file. Empty in bundles made before it was recorded.
    #[serde(default)]
    pub content_security_policy: String,
    /// Where the pages' analytics beacon posts (`None`: the pages carry no beacon). A server
    /// hosting the bundle needs it to build its own policy: its switches may forbid the beacon that
    /// the exporting deployment allowed (docs-edge-serve with analytics off, or air-gapped with the
    /// beacon's host not internal). Absent in bundles made before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beacon_endpoint: Option<String>,
    /// The assistant widget the pages carry (`None`: none), for the same reason: the hosting
    /// server's policy must let it reach its service, or keep it from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assistant: Option<crate::wire::ExportAssistant>,
    /// The search index the bundle carries, shipped when the exporting deployment has search or the
    /// assistant on so a self-hosted server answers the discovery API offline; it covers every page
    /// of the publish, like the worker's. Absent: no index, or (bundles made before the packs) the
    /// whole index at [`SEARCH_INDEX_FILE`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_index: Option<SearchIndexFormat>,
    /// The origins the pages' click-to-load placeholders name (`export::render::embeds`): the policy's
    /// `frame-src`, which a hosting server's own policy needs too. Empty: no placeholder.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frame_origins: Vec<String>,
    /// The origins the pages' click-to-load image placeholders name: the policy's `img-src` beside
    /// `'self' data:`. Empty: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub image_origins: Vec<String>,
    /// docs.json's support link (`crate::docs::own_keys`): a server answering the bundle's
    /// assistant sends it with each answer's finish, as the worker does. Absent: the site names none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub support: Option<String>,
}

/// How a bundle's search index is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SearchIndexFormat {
    /// The split index's three packs (`search::shard`) at [`SEARCH_PACK_FILES`](crate::export::SEARCH_PACK_FILES).
    Packs,
}

impl BundleManifest {
    pub fn to_file(&self) -> ExportFile {
        let text = serde_json::to_string_pretty(self).unwrap_or_default();
        ExportFile::new(MANIFEST_FILE.to_owned(), text)
    }

    /// Reads a manifest; the format must be one this build knows.
    pub fn parse(bytes: &[u8]) -> Result<Self, String> {
        let manifest: Self = serde_json::from_slice(bytes).map_err(|e| format!("manifest: {e}"))?;
        if manifest.format != MANIFEST_FORMAT {
            return Err(format!(
                "manifest: format {} is not {MANIFEST_FORMAT}",
                manifest.format
            ));
        }
        Ok(manifest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_round_trips_and_refuses_other_formats() {
        let manifest = BundleManifest {
            format: MANIFEST_FORMAT,
            domain: "docs.example.com".into(),
            job_id: "se_0123456789abcdef".into(),
            version: Some("v2".into()),
            versions: vec!["v2".into(), "v1".into()],
            publish_id: "p1".into(),
            created_at: "2026-11-22T10:00:00.000Z".into(),
            page_count: 3,
            features: Features::default(),
            content_security_policy: "default-src 'self'".into(),
            beacon_endpoint: Some(
                "https://api.example.com/discovery/v1/analytics/docs.example.com/events".into(),
            ),
            assistant: None,
            search_index: Some(SearchIndexFormat::Packs),
            frame_origins: Vec::new(),
            image_origins: vec!["https://cdn.example.com".into()],
            support: Some("mailto:help@example.com".into()),
        };
        let file = manifest.to_file();
        assert_eq!(file.path, MANIFEST_FILE);
        assert_eq!(BundleManifest::parse(&file.bytes).unwrap(), manifest);
        let text = String::from_utf8(file.bytes).unwrap();
        assert!(
            text.contains("\"jobId\"") && text.contains("\"staticExport\""),
            "{text}"
        );
        assert!(text.contains("\"searchIndex\": \"packs\""), "{text}");
        assert!(
            text.contains("\"imageOrigins\": [\n    \"https://cdn.example.com\"\n  ]")
                && !text.contains("frameOrigins"),
            "{text}"
        );
        assert!(
            text.contains("\"versions\": [\n    \"v2\",\n    \"v1\"\n  ]"),
            "every version the bundle holds: {text}"
        );
        let older = text.replace("\"versions\"", "\"unknownField\"");
        assert!(
            BundleManifest::parse(older.as_bytes())
                .unwrap()
                .versions
                .is_empty(),
            "a manifest without the list still reads"
        );
        let newer = text.replace("\"format\": 1", "\"format\": 2");
        assert!(BundleManifest::parse(newer.as_bytes()).is_err());
    }
}
