//! S3 query-string presigning (AWS Signature Version 4), for handing out R2 download links that R2
//! itself serves when the deployment configures R2's S3 credentials.
//!
//! Only what a presigned GET needs: the `host` header signed, payload `UNSIGNED-PAYLOAD`.

use crate::security::signing::{hmac_sha256, sha256_hex, to_hex};

/// Where and as whom to sign. For R2: endpoint host `{account}.r2.cloudflarestorage.com`, region `auto`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct S3Credentials {
    pub access_key_id: String,
    pub secret_access_key: String,
    pub region: String,
    pub host: String,
}

/// A presigned `GET https://{host}/{bucket}/{key}` valid for `expires_secs` from `now_unix`.
/// `extra_query` (already unencoded pairs, e.g. `response-content-disposition`) is signed too.
pub fn presign_get(
    creds: &S3Credentials,
    bucket: &str,
    key: &str,
    now_unix: u64,
    expires_secs: u64,
    extra_query: &[(&str, &str)],
) -> String {
    let path = if bucket.is_empty() {
        format!("/{}", encode_path(key))
    } else {
        format!("/{}/{}", encode_path(bucket), encode_path(key))
    };
    let (date, stamp) = amz_date(now_unix);
    let scope = format!("{date}/{}/s3/aws4_request", creds.region);
    let credential = format!("{}/{scope}", creds.access_key_id);
    let expires = expires_secs.to_string();
    let mut query: Vec<(String, String)> = vec![
        ("X-Amz-Algorithm".into(), "AWS4-HMAC-SHA256".into()),
        ("X-Amz-Credential".into(), credential),
        ("X-Amz-Date".into(), stamp.clone()),
        ("X-Amz-Expires".into(), expires),
        ("X-Amz-SignedHeaders".into(), "host".into()),
    ];
    query.extend(
        extra_query
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string())),
    );
    let mut encoded: Vec<(String, String)> =
        query.iter().map(|(k, v)| (encode(k), encode(v))).collect();
    crate::sort::sort(&mut encoded);
    let canonical_query = encoded
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&");
    let canonical_request = format!(
        "GET\n{path}\n{canonical_query}\nhost:{}\n\nhost\nUNSIGNED-PAYLOAD",
        creds.host
    );
    let string_to_sign = format!(
        "AWS4-HMAC-SHA256\n{stamp}\n{scope}\n{}",
        sha256_hex(canonical_request.as_bytes())
    );
    let mut signing_key = hmac_sha256(
        format!("AWS4{}", creds.secret_access_key).as_bytes(),
        date.as_bytes(),
    );
    for part in [creds.region.as_str(), "s3", "aws4_request"] {
        signing_key = hmac_sha256(&signing_key, part.as_bytes());
    }
    let signature = to_hex(&hmac_sha256(&signing_key, string_to_sign.as_bytes()));
    format!(
        "https://{}{path}?{canonical_query}&X-Amz-Signature={signature}",
        creds.host
    )
}

/// RFC 3986 unreserved characters stay; everything else is `%XX`, as SigV4 requires.
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn encode_path(s: &str) -> String {
    s.split('/').map(encode).collect::<Vec<_>>().join("/")
}

/// (`YYYYMMDD`, `YYYYMMDDTHHMMSSZ`) in UTC.
fn amz_date(unix: u64) -> (String, String) {
    let (y, m, d) = civil_from_days((unix / 86_400) as i64);
    let secs = unix % 86_400;
    let date = format!("{y:04}{m:02}{d:02}");
    let stamp = format!(
        "{date}T{:02}{:02}{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    );
    (date, stamp)
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of AWS's "Authenticating Requests: Using Query Parameters" page.
    #[test]
    fn matches_the_aws_documentation_example() {
        let creds = S3Credentials {
            access_key_id: "AKIAIOSFODNN7EXAMPLE".into(),
            secret_access_key: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".into(),
            region: "us-east-1".into(),
            host: "examplebucket.s3.amazonaws.com".into(),
        };
        // 2013-05-24T00:00:00Z
        let url = presign_get(&creds, "", "test.txt", 1_369_353_600, 86_400, &[]);
        assert_eq!(
            url,
            "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256\
             &X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request\
             &X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host\
             &X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"
        );
    }

    #[test]
    fn r2_style_path_and_extra_query_are_encoded() {
        let creds = S3Credentials {
            access_key_id: "id".into(),
            secret_access_key: "secret".into(),
            region: "auto".into(),
            host: "acct.r2.cloudflarestorage.com".into(),
        };
        let url = presign_get(
            &creds,
            "docs-edge",
            "exports/se_1/bundle.tar.gz",
            0,
            60,
            &[(
                "response-content-disposition",
                "attachment; filename=\"a b.tar.gz\"",
            )],
        );
        assert!(url.starts_with(
            "https://acct.r2.cloudflarestorage.com/docs-edge/exports/se_1/bundle.tar.gz?"
        ));
        assert!(url.contains(
            "response-content-disposition=attachment%3B%20filename%3D%22a%20b.tar.gz%22"
        ));
        assert!(url.contains("X-Amz-Date=19700101T000000Z"));
    }

    #[test]
    fn dates_convert() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(15_849), (2013, 5, 24));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_779), (2026, 11, 22));
    }
}
