//! Organizations, their domains and API keys, kept in the KV namespace.
//!
//! Layout: `org:{orgId}` → [`OrgRecord`]; `domain:{host}` → orgId; `hosting:{host}` → its
//! [`HostingSettings`]; `key:{sha256(key)}` → [`KeyRecord`];
//! `keyid:{keyId}` → sha256 of that key, so a key can be revoked by id. Secrets are never stored, only
//! their SHA-256. KV is eventually consistent across locations (about a minute): a revoked key can still
//! be accepted elsewhere for that long (docs/architecture/storage.mdx, "KV").

use docs_edge_core::export::hosting::HostingSettings;
use docs_edge_core::wire::{KeyInfo, KeyKind, Organization, Plan};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use worker::kv::KvStore;
use worker::Env;

use crate::shared::config::KV_BINDING;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::random::{is_random_id, random_id};

const ORG_ID_PREFIX: &str = "org_";
const KEY_ID_PREFIX: &str = "key_";
const ID_BYTES: usize = 8;

pub fn new_org_id() -> ApiResult<String> {
    random_id(ORG_ID_PREFIX, ID_BYTES)
}

pub fn new_key_id() -> ApiResult<String> {
    random_id(KEY_ID_PREFIX, ID_BYTES)
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrgRecord {
    pub org: Organization,
    pub keys: Vec<KeyInfo>,
}

/// The part of an [`OrgRecord`] a reader's request needs: its plan. Read on its own, the rest of
/// the record is skipped unparsed, which keeps the record's full reader out of the request-serving
/// script.
#[derive(Deserialize)]
struct OrgPlan {
    org: PlanOnly,
}

#[derive(Deserialize)]
struct PlanOnly {
    plan: Plan,
}

/// What a key hash resolves to.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyRecord {
    pub key_id: String,
    pub org_id: String,
    pub kind: KeyKind,
    /// Where an assistant key may be used from (`Origin`); empty: anywhere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_origins: Vec<String>,
}

pub struct Directory {
    kv: KvStore,
}

impl Directory {
    pub fn open(env: &Env) -> ApiResult<Directory> {
        Ok(Directory {
            kv: env.kv(KV_BINDING)?,
        })
    }

    pub async fn org(&self, org_id: &str) -> ApiResult<Option<OrgRecord>> {
        self.org_part(org_id).await
    }

    pub async fn require_org(&self, org_id: &str) -> ApiResult<OrgRecord> {
        self.require_org_part(org_id).await
    }

    /// The organization's plan; 404 when there is no such organization.
    pub async fn require_plan(&self, org_id: &str) -> ApiResult<Plan> {
        Ok(self.require_org_part::<OrgPlan>(org_id).await?.org.plan)
    }

    async fn require_org_part<T: DeserializeOwned>(&self, org_id: &str) -> ApiResult<T> {
        self.org_part(org_id)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("organization {org_id} not found")))
    }

    /// The organization's record, or the part of it `T` reads.
    async fn org_part<T: DeserializeOwned>(&self, org_id: &str) -> ApiResult<Option<T>> {
        // An id of another shape was never issued, so it names nothing; looking it up would not only
        // waste a read: KV refuses keys over 512 bytes, which turned a long id into a 500.
        if !is_random_id(org_id, ORG_ID_PREFIX, ID_BYTES) {
            return Ok(None);
        }
        self.get_json(&format!("org:{org_id}")).await
    }

    pub async fn save_org(&self, record: &OrgRecord) -> ApiResult<()> {
        self.put_json(&format!("org:{}", record.org.org_id), record)
            .await
    }

    pub async fn domain_owner(&self, domain: &str) -> ApiResult<Option<String>> {
        Ok(self.kv.get(&format!("domain:{domain}")).text().await?)
    }

    pub async fn claim_domain(&self, domain: &str, org_id: &str) -> ApiResult<()> {
        self.kv
            .put(&format!("domain:{domain}"), org_id)?
            .execute()
            .await?;
        Ok(())
    }

    pub async fn release_domain(&self, domain: &str) -> ApiResult<()> {
        self.kv.delete(&format!("domain:{domain}")).await?;
        Ok(())
    }

    /// The domain's hosting setting; `None` when it was never set.
    pub async fn hosting(&self, domain: &str) -> ApiResult<Option<HostingSettings>> {
        self.get_json(&format!("hosting:{domain}")).await
    }

    pub async fn save_hosting(&self, domain: &str, settings: &HostingSettings) -> ApiResult<()> {
        self.put_json(&format!("hosting:{domain}"), settings).await
    }

    pub async fn key_by_hash(&self, hash: &str) -> ApiResult<Option<KeyRecord>> {
        self.get_json(&format!("key:{hash}")).await
    }

    pub async fn store_key(&self, hash: &str, record: &KeyRecord) -> ApiResult<()> {
        self.put_json(&format!("key:{hash}"), record).await?;
        self.kv
            .put(&format!("keyid:{}", record.key_id), hash)?
            .execute()
            .await?;
        Ok(())
    }

    /// The stored SHA-256 of a key, by id (`None` when there is no such key).
    pub async fn key_hash(&self, key_id: &str) -> ApiResult<Option<String>> {
        if !is_random_id(key_id, KEY_ID_PREFIX, ID_BYTES) {
            return Ok(None);
        }
        Ok(self.kv.get(&format!("keyid:{key_id}")).text().await?)
    }

    /// Removes a key by id; returns the record it had, `None` when no such key exists.
    pub async fn remove_key(&self, key_id: &str) -> ApiResult<Option<KeyRecord>> {
        // As in `org`: never issued, and possibly too long for a KV key.
        if !is_random_id(key_id, KEY_ID_PREFIX, ID_BYTES) {
            return Ok(None);
        }
        let Some(hash) = self.kv.get(&format!("keyid:{key_id}")).text().await? else {
            return Ok(None);
        };
        let record = self.key_by_hash(&hash).await?;
        self.kv.delete(&format!("key:{hash}")).await?;
        self.kv.delete(&format!("keyid:{key_id}")).await?;
        Ok(record)
    }
}

impl Directory {
    /// Records are JSON text, read and written through serde_json, which the worker links anyway: KV's
    /// own `json()` and `put` of a value go through serde-wasm-bindgen, one more compiled
    /// (de)serializer per record type (docs/engineering/decisions.mdx, "The worker's size"). What
    /// is stored is the same JSON either way, apart from `null` for an absent optional field, which reads back the same.
    async fn get_json<T: DeserializeOwned>(&self, key: &str) -> ApiResult<Option<T>> {
        match self.kv.get(key).text().await? {
            Some(text) => Ok(Some(serde_json::from_slice(text.as_bytes())?)),
            None => Ok(None),
        }
    }

    async fn put_json<T: Serialize>(&self, key: &str, value: &T) -> ApiResult<()> {
        self.kv
            .put(key, serde_json::to_string(value)?.as_str())?
            .execute()
            .await?;
        Ok(())
    }
}

pub fn new_org_record(org_id: String, name: String, plan: Plan, created_at: String) -> OrgRecord {
    OrgRecord {
        org: Organization {
            org_id,
            name,
            plan,
            created_at,
            domains: Vec::new(),
        },
        keys: Vec::new(),
    }
}
