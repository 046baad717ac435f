//! Secrets at rest and in links: API keys are stored as SHA-256 hashes, compared in constant time;
//! download links carry an HMAC-SHA256 over what they grant.

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::wire::{KeyInfo, KeyKind};

const ALPHANUMERIC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/// Random characters after the prefix; 40 alphanumerics is about 238 bits.
pub const KEY_RANDOM_CHARS: usize = 40;

/// Lowercase hex SHA-256, the only form in which a key is stored.
pub fn sha256_hex(data: &[u8]) -> String {
    to_hex(&Sha256::digest(data))
}

/// Hex digits of a key's SHA-256 shown in listings: enough to tell an organization's keys apart, and
/// nothing of the key itself.
pub const KEY_FINGERPRINT_HEX: usize = 10;

pub fn key_fingerprint(key: &str) -> String {
    let mut hash = sha256_hex(key.as_bytes());
    hash.truncate(KEY_FINGERPRINT_HEX);
    hash
}

/// The fingerprint from a stored key hash (what `key_fingerprint` gives for the key itself), so keys
/// stored before fingerprints existed can be listed by one. `None` for anything but lowercase hex.
pub fn fingerprint_of_hash(hash: &str) -> Option<String> {
    let prefix = hash.get(..KEY_FINGERPRINT_HEX)?;
    prefix
        .bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        .then(|| prefix.to_string())
}

// Here, beside the fingerprint it shows, rather than in wire/, which the SDK shares and which
// imports nothing of the server's.
impl KeyInfo {
    /// The key as a listing shows it. Records stored before fingerprints existed hold 12 characters
    /// of the key in `key_prefix` (8 of them random for an admin key): whatever is stored, the listing
    /// shows only the kind's prefix, and a fingerprint, taken from the stored key hash when the record
    /// has none. A stored fingerprint that is not one (not 10 lowercase hex digits) is not shown.
    pub fn listed(mut self, stored_hash: Option<&str>) -> KeyInfo {
        self.key_prefix = self.kind.prefix().to_string();
        let valid = fingerprint_of_hash(&self.fingerprint)
            .is_some_and(|f| f.len() == self.fingerprint.len());
        if !valid {
            self.fingerprint = stored_hash
                .and_then(fingerprint_of_hash)
                .unwrap_or_default();
        }
        self
    }
}

pub fn to_hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(HEX[(byte >> 4) as usize] as char);
        out.push(HEX[(byte & 0x0f) as usize] as char);
    }
    out
}

/// Equality whose time depends only on the lengths, so a caller cannot learn a secret byte by byte.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut diff = 0u8;
    for (x, y) in a.iter().zip(b) {
        diff |= x ^ y;
    }
    diff == 0
}

/// Turns CSPRNG output into an API key of `kind`. Rejection sampling keeps every character uniform;
/// `random` must hold at least `2 * KEY_RANDOM_CHARS` bytes so rejections rarely exhaust it.
pub fn key_from_random(kind: KeyKind, random: &[u8]) -> Option<String> {
    let mut key = String::with_capacity(kind.prefix().len() + KEY_RANDOM_CHARS);
    key.push_str(kind.prefix());
    let mut produced = 0;
    for byte in random {
        // 248 = 62 * 4: bytes above it would bias the first characters.
        if *byte < 248 {
            key.push(ALPHANUMERIC[(*byte % 62) as usize] as char);
            produced += 1;
            if produced == KEY_RANDOM_CHARS {
                break;
            }
        }
    }
    if produced < KEY_RANDOM_CHARS {
        return None;
    }
    // An admin key must never read as an assistant key.
    if kind == KeyKind::Admin && key.starts_with(KeyKind::Assistant.prefix()) {
        return None;
    }
    Some(key)
}

/// Whether `key` has the shape of one of our keys of `kind`: prefix plus at least 32 alphanumerics.
pub fn is_well_formed_key(key: &str) -> bool {
    let Some(kind) = KeyKind::of_key(key) else {
        return false;
    };
    let rest = &key[kind.prefix().len()..];
    rest.len() >= 32 && rest.bytes().all(|b| b.is_ascii_alphanumeric())
}

pub fn hmac_sha256(secret: &[u8], message: &[u8]) -> Vec<u8> {
    // HMAC takes keys of any length, so this cannot fail.
    let mut mac = match Hmac::<Sha256>::new_from_slice(secret) {
        Ok(mac) => mac,
        Err(_) => return Vec::new(),
    };
    mac.update(message);
    mac.finalize().into_bytes().to_vec()
}

/// Signature of a bundle link: binds the job and the expiry (seconds since the epoch).
pub fn sign_link(secret: &[u8], job_id: &str, expires_unix: u64) -> String {
    let message = format!("bundle\n{job_id}\n{expires_unix}");
    to_hex(&hmac_sha256(secret, message.as_bytes()))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkCheck {
    Valid,
    Tampered,
    Expired,
}

/// A tampered link is reported as such even when also expired: the expiry of a forged link means nothing.
pub fn verify_link(
    secret: &[u8],
    job_id: &str,
    expires_unix: u64,
    signature_hex: &str,
    now_unix: u64,
) -> LinkCheck {
    let expected = sign_link(secret, job_id, expires_unix);
    if !constant_time_eq(expected.as_bytes(), signature_hex.as_bytes()) {
        return LinkCheck::Tampered;
    }
    if now_unix >= expires_unix {
        return LinkCheck::Expired;
    }
    LinkCheck::Valid
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random(n: usize, seed: u8) -> Vec<u8> {
        (0..n)
            .map(|i| (i as u8).wrapping_mul(37).wrapping_add(seed))
            .collect()
    }

    #[test]
    fn assistant_keys_have_prefix_and_enough_alphanumerics() {
        let key = key_from_random(KeyKind::Assistant, &random(128, 3)).unwrap();
        assert!(key.starts_with("svc_dsc_"));
        assert_eq!(key.len(), "svc_dsc_".len() + KEY_RANDOM_CHARS);
        assert!(is_well_formed_key(&key));
        assert_eq!(KeyKind::of_key(&key), Some(KeyKind::Assistant));
    }

    #[test]
    fn admin_keys_never_read_as_assistant_keys() {
        // Random bytes that would spell "dsc_" right after "svc_" are impossible: '_' is not alphanumeric.
        for seed in 0..=255u8 {
            let key = key_from_random(KeyKind::Admin, &random(128, seed)).unwrap();
            assert!(key.starts_with("svc_"));
            assert!(!key.starts_with("svc_dsc_"));
            assert_eq!(KeyKind::of_key(&key), Some(KeyKind::Admin));
        }
    }

    #[test]
    fn too_little_randomness_gives_no_key() {
        assert_eq!(key_from_random(KeyKind::Admin, &[255; 100]), None);
        assert_eq!(key_from_random(KeyKind::Admin, &[1; 10]), None);
    }

    #[test]
    fn malformed_keys_are_recognised() {
        assert!(!is_well_formed_key("svc_short"));
        assert!(!is_well_formed_key(
            "mint_dsc_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
        ));
        assert!(!is_well_formed_key(
            "svc_dsc_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!aaaa"
        ));
        assert!(is_well_formed_key(
            "svc_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
        ));
    }

    #[test]
    fn sha256_matches_known_vector() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn constant_time_eq_compares_contents_and_lengths() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"abcd"));
    }

    #[test]
    fn signed_link_verifies_until_expiry() {
        let sig = sign_link(b"secret", "se_0123456789abcdef", 1000);
        assert_eq!(
            verify_link(b"secret", "se_0123456789abcdef", 1000, &sig, 999),
            LinkCheck::Valid
        );
        assert_eq!(
            verify_link(b"secret", "se_0123456789abcdef", 1000, &sig, 1000),
            LinkCheck::Expired
        );
    }

    #[test]
    fn changing_job_expiry_or_secret_is_tampering() {
        let sig = sign_link(b"secret", "se_0123456789abcdef", 1000);
        assert_eq!(
            verify_link(b"secret", "se_0123456789abcdee", 1000, &sig, 1),
            LinkCheck::Tampered
        );
        assert_eq!(
            verify_link(b"secret", "se_0123456789abcdef", 1001, &sig, 1),
            LinkCheck::Tampered
        );
        assert_eq!(
            verify_link(b"other", "se_0123456789abcdef", 1000, &sig, 1),
            LinkCheck::Tampered
        );
        assert_eq!(
            verify_link(b"secret", "se_0123456789abcdef", 1000, "00", 1),
            LinkCheck::Tampered
        );
    }
}

#[cfg(test)]
mod key_info_tests {
    use super::*;

    #[test]
    fn old_records_list_no_key_characters() {
        let key = "svc_AbCdEfGh1234567890abcdefghijklmnopqrstuv";
        // As stored before the fingerprint change: 12 characters of the key, no fingerprint.
        let old: KeyInfo = serde_json::from_value(serde_json::json!({
            "keyId": "key_1", "kind": "admin", "name": null, "keyPrefix": &key[..12],
            "createdAt": "2025-01-01T00:00:00Z", "lastUsedAt": null
        }))
        .unwrap();
        let listed = old.clone().listed(Some(&sha256_hex(key.as_bytes())));
        assert_eq!(listed.key_prefix, "svc_");
        assert_eq!(listed.fingerprint, key_fingerprint(key));
        let json = serde_json::to_string(&listed).unwrap();
        assert!(!json.contains("AbCdEfGh"), "{json}");
        // Without the hash (its index entry gone), still nothing of the key.
        let listed = old.listed(None);
        assert_eq!(
            (listed.key_prefix.as_str(), listed.fingerprint.as_str()),
            ("svc_", "")
        );

        let assistant: KeyInfo = serde_json::from_value(serde_json::json!({
            "keyId": "key_2", "kind": "assistant", "name": null, "keyPrefix": "svc_dsc_Xy12",
            "fingerprint": "0123456789", "createdAt": "2025-01-01T00:00:00Z", "lastUsedAt": null
        }))
        .unwrap();
        let listed = assistant.listed(None);
        assert_eq!(
            (listed.key_prefix.as_str(), listed.fingerprint.as_str()),
            ("svc_dsc_", "0123456789")
        );
    }
}
