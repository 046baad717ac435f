//! What goes through the builder's service binding (`crate::edge::builder_client` sends,
//! `crate::builder::service` dispatches): the orders the edge vouches for with a forwarded call, the
//! builder's answers, the headers that carry them and the binding's paths. Apart from the binding's
//! client and dispatcher, so the builder's modules that take an order (`crate::builder::site_files`,
//! `crate::builder::sweep`, `crate::builder::admin`, `crate::builder::rebuild`) and the edge's
//! routes that send one need neither.

use serde::{Deserialize, Serialize};

use crate::shared::config::JobSettings;

/// The header carrying the [`FileOrder`] as JSON.
pub const ORDER_HEADER: &str = "x-docs-edge-order";

/// The header of the builder's answer to a stored hosting setting carrying the setting as stored
/// (`crate::builder::admin`), for the edge to start the site's export with; the client never sees it.
pub const HOSTING_STORED_HEADER: &str = "x-docs-edge-hosting";

/// Bytes a manifest or hash list may have, compressed or inflated: about 60 bytes a file at the file
/// limit.
pub const MAX_LIST_BYTES: usize = 8 << 20;

/// What the builder does with a forwarded request: its path on the binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileOp {
    /// Which of the body's hashes the store lacks.
    Missing,
    /// Stores the body as the file [`FileOrder::hash`].
    Put,
    /// Checks the body's manifest against the store and stores it as version [`FileOrder::publish_id`].
    Stage,
    /// The live version's manifest.
    LiveManifest,
    /// Stores the body, a `.tar.gz` upload, as version [`FileOrder::publish_id`]'s source, at most
    /// [`FileOrder::max_bytes`].
    Source,
}

const FILE_OPS: [(FileOp, &str); 5] = [
    (FileOp::Missing, "files/missing"),
    (FileOp::Put, "files/put"),
    (FileOp::Stage, "files/stage"),
    (FileOp::LiveManifest, "files/live-manifest"),
    (FileOp::Source, "files/source"),
];

impl FileOp {
    pub(crate) fn path(self) -> &'static str {
        FILE_OPS
            .iter()
            .find(|(op, _)| *op == self)
            .map_or("", |(_, path)| path)
    }

    pub(crate) fn from_path(path: &str) -> Option<FileOp> {
        FILE_OPS.iter().find(|(_, p)| *p == path).map(|(op, _)| *op)
    }
}

/// What the edge vouches for with a forwarded request.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileOrder {
    pub org_id: String,
    pub domain: String,
    /// [`FileOp::Put`]'s file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    /// [`FileOp::Stage`]'s and [`FileOp::Source`]'s version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publish_id: Option<String>,
    /// [`FileOp::Source`]'s limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_bytes: Option<u64>,
    /// [`FileOp::Source`]'s preview label, as the request's `?preview=` wrote it (the builder checks it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<String>,
    pub settings: JobSettings,
}

/// [`FileOp::Stage`]'s and [`FileOp::Source`]'s answer: the stored manifest's or upload's size (the
/// publish's source bytes) and, for a preview publish, its hostname (its label checked).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Staged {
    pub size: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview_host: Option<String>,
}

/// What the edge vouches for with a forwarded admin route (`crate::builder::admin`): the operator
/// token or the admin key was checked; for a route on a domain, whose it is.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdminOrder {
    pub request_id: String,
    pub max_json_body_bytes: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caller: Option<AdminCaller>,
}

/// The organization an admin key belongs to and the domain of its route, checked by the edge.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdminCaller {
    pub org_id: String,
    pub domain: String,
}

/// One run of the storage sweep, as the edge's cron orders it; the edge keeps the cursor in KV.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SweepOrder {
    /// Names the run's markers on the stores it judges.
    pub run: String,
    pub publish_retention_days: u64,
    pub export_retention_days: u64,
    /// How long an unreferenced file of a store is kept after its upload.
    pub file_in_flight_ms: u64,
    /// How long a hosted site's export stays after the site was switched away from it (`None`:
    /// ten minutes, `docs_edge_core::export::hosting::KEEP_RETIRED_MS`).
    #[serde(default)]
    pub hosted_keep_retired_ms: Option<u64>,
    /// Keys a list page asks for, and list pages a run reads at most.
    pub page_keys: u32,
    pub pages: usize,
    /// The last key the previous run looked at.
    pub after: Option<String>,
}

/// What a sweep run did: objects deleted, and the key the next run starts after (`None`: the
/// listing reached its end).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Swept {
    pub deleted: u64,
    pub after: Option<String>,
}

/// The sweep's path on the binding.
pub const SWEEP_PATH: &str = "sweep";

/// The prefix of a forwarded admin route's path on the binding: `admin` + the original path.
pub const ADMIN_PREFIX: &str = "admin/";

/// The rebuild's path on the builder's service binding.
pub const UPGRADE_PATH: &str = "upgrade";

/// A live version from an earlier release, to be rebuilt.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeOrder {
    pub domain: String,
    pub publish_id: String,
    /// The organization that published it, when its record names one.
    pub org_id: Option<String>,
    /// The request-serving script's settings (limits, air-gapped, features): the builder has no
    /// variables of its own, and the rebuild runs as that script's publishes do.
    pub settings: JobSettings,
}
