//! Static export links: the download link a bundle is handed out with (our HMAC-signed URL, or an R2
//! presigned URL when R2's S3 credentials are set). Where a job's files live in R2 is
//! `crate::shared::storage`'s.

use docs_edge_core::export::api::bundle_file_name;
use docs_edge_core::security::presign::{presign_get, S3Credentials};
use docs_edge_core::security::signing::sign_link;
use worker::Env;

use crate::shared::config::{self, LINK_SIGNING_KEY};
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::storage::bundle_key;

/// The signing secret; its absence is a deployment fault, never the caller's.
pub fn link_secret(env: &Env) -> ApiResult<Vec<u8>> {
    config::link_signing_key(env)
        .map(|key| key.expose().as_bytes().to_vec())
        .ok_or_else(|| ApiError::Internal(format!("the secret {LINK_SIGNING_KEY} is not set")))
}

/// Where a bundle can be downloaded until `expires_unix`.
pub fn bundle_url(
    env: &Env,
    origin: &str,
    job_id: &str,
    domain: &str,
    created_at: &str,
    now_unix: u64,
    expires_unix: u64,
) -> ApiResult<String> {
    if let Some((creds, bucket)) = r2_s3_credentials(env) {
        let disposition = content_disposition(&bundle_file_name(domain, created_at));
        return Ok(presign_get(
            &creds,
            &bucket,
            &bundle_key(job_id),
            now_unix,
            expires_unix.saturating_sub(now_unix),
            &[("response-content-disposition", &disposition)],
        ));
    }
    let signature = sign_link(&link_secret(env)?, job_id, expires_unix);
    Ok(format!(
        "{origin}/v1/static-export/bundles/{job_id}?expires={expires_unix}&sig={signature}"
    ))
}

pub fn content_disposition(file_name: &str) -> String {
    format!("attachment; filename=\"{file_name}\"")
}

/// R2's S3 credentials and bucket ([`config::r2_s3`]), or presigning is off.
fn r2_s3_credentials(env: &Env) -> Option<(S3Credentials, String)> {
    let set = config::r2_s3(env)?;
    let creds = S3Credentials {
        access_key_id: set.access_key_id,
        secret_access_key: set.secret_access_key.expose().to_string(),
        region: "auto".into(),
        host: format!("{}.r2.cloudflarestorage.com", set.account_id),
    };
    Some((creds, set.bucket_name))
}
