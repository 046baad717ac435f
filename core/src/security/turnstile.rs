//! Cloudflare Turnstile in front of the assistant: the widget sends a token with a conversation's
//! first question, the service asks Turnstile's siteverify API whether it is valid, once, and the
//! conversation's thread keeps the verdict so its later turns need none. This module is the
//! settings' rules, the decision whether a request must be verified, and siteverify's wire format;
//! the worker makes the request.

use crate::platform::deployment::{host_of, is_loopback, DeploymentKind};

/// The header the widget sends its token in.
pub const TOKEN_HEADER: &str = "x-turnstile-token";
/// Where tokens are verified unless `TURNSTILE_SITEVERIFY_URL` says otherwise.
pub const DEFAULT_SITEVERIFY_URL: &str =
    "https://challenges.cloudflare.com/turnstile/v0/siteverify";
/// The origin the widget loads Turnstile's script from and whose frame it shows: an exported page's
/// policy names it in `script-src` and `frame-src` when the export asks for Turnstile.
pub const CHALLENGE_ORIGIN: &str = "https://challenges.cloudflare.com";
/// Turnstile's own limit on a token.
pub const MAX_TOKEN_CHARS: usize = 2048;
/// Site keys are short (`0x4AAAAAAA…`, 24-ish characters); anything longer is not one.
pub const MAX_SITE_KEY_CHARS: usize = 100;

/// The verification the operator switched on: where siteverify is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnstileSettings {
    pub siteverify_url: String,
}

/// `TURNSTILE_SECRET_KEY` set (`secret_set`) switches verification on; `TURNSTILE_SITEVERIFY_URL`
/// moves siteverify (https, or http on a loopback host for a local stand-in). An air-gapped
/// deployment refuses it: its readers cannot load Turnstile's script and it makes no outbound
/// request. `None`: off.
pub fn settings(
    kind: DeploymentKind,
    secret_set: bool,
    siteverify_url: Option<&str>,
) -> Result<Option<TurnstileSettings>, String> {
    if !secret_set {
        return Ok(None);
    }
    if kind == DeploymentKind::AirGapped {
        return Err("TURNSTILE_SECRET_KEY is set, but an air-gapped deployment cannot use Turnstile (its readers cannot load challenges.cloudflare.com and it makes no outbound request): unset it".into());
    }
    let url = siteverify_url
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .unwrap_or(DEFAULT_SITEVERIFY_URL);
    let (scheme, rest) = url
        .split_once("://")
        .ok_or_else(|| format!("TURNSTILE_SITEVERIFY_URL `{url}` is not an absolute URL"))?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let secure = scheme.eq_ignore_ascii_case("https")
        || (scheme.eq_ignore_ascii_case("http") && is_loopback(host_of(authority)));
    if authority.is_empty() || authority.contains('@') || !secure {
        return Err(format!("TURNSTILE_SITEVERIFY_URL `{url}` must be an https URL without credentials (http only on a loopback host)"));
    }
    Ok(Some(TurnstileSettings {
        siteverify_url: url.to_string(),
    }))
}

/// Why a request was turned away without asking siteverify.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Missing,
    Malformed,
}

impl Refusal {
    pub fn message(self) -> &'static str {
        match self {
            Refusal::Missing => "this assistant is protected by Turnstile: send the widget's token in the x-turnstile-token header with a conversation's first question",
            Refusal::Malformed => "the x-turnstile-token header is not a Turnstile token",
        }
    }
}

/// What a request needs: `Ok(None)` when nothing (verification off, or the conversation's thread
/// was verified before), `Ok(Some(token))` to verify, or a refusal.
pub fn token_to_verify(
    on: bool,
    thread_verified: bool,
    token: Option<&str>,
) -> Result<Option<&str>, Refusal> {
    if !on || thread_verified {
        return Ok(None);
    }
    let token = token
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or(Refusal::Missing)?;
    let plain = token.len() <= MAX_TOKEN_CHARS && token.bytes().all(|b| b.is_ascii_graphic());
    if plain {
        Ok(Some(token))
    } else {
        Err(Refusal::Malformed)
    }
}

/// siteverify's JSON request body (it takes JSON as well as a form): the secret, the token and,
/// when known, the reader's address.
pub fn siteverify_body(secret: &str, token: &str, remote_ip: Option<&str>) -> String {
    let mut body = serde_json::json!({ "secret": secret, "response": token });
    if let Some(ip) = remote_ip.filter(|ip| !ip.is_empty()) {
        body["remoteip"] = ip.into();
    }
    body.to_string()
}

/// siteverify's answer: the token passed, or why not (its `error-codes`, for the log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Passed,
    Failed(Vec<String>),
}

/// Reads siteverify's answer: only a 200 whose JSON says `"success": true` passes; anything else
/// (an error status, a body that is not its JSON) fails, with what it said.
pub fn read_verdict(status: u16, body: &[u8]) -> Verdict {
    let parsed: Option<serde_json::Value> = serde_json::from_slice(body).ok();
    let success = parsed.as_ref().and_then(|v| v["success"].as_bool()) == Some(true);
    if status == 200 && success {
        return Verdict::Passed;
    }
    let mut codes: Vec<String> = parsed
        .as_ref()
        .and_then(|v| v["error-codes"].as_array())
        .map(|codes| {
            codes
                .iter()
                .filter_map(|c| c.as_str())
                .take(8)
                .map(|c| c.chars().take(64).collect())
                .collect()
        })
        .unwrap_or_default();
    if status != 200 {
        codes.push(format!("http-{status}"));
    } else if parsed.is_none() {
        codes.push("unreadable-response".into());
    }
    Verdict::Failed(codes)
}

/// A Turnstile site key as an export's pages carry it: letters, digits, `_` and `-` only (it goes
/// into an HTML attribute).
pub fn is_site_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= MAX_SITE_KEY_CHARS
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use DeploymentKind::*;

    #[test]
    fn off_without_the_secret_on_with_it_refused_air_gapped() {
        assert_eq!(
            settings(Cloud, false, Some("https://x.example.com/v")),
            Ok(None)
        );
        assert_eq!(
            settings(Cloud, true, None).unwrap().unwrap().siteverify_url,
            DEFAULT_SITEVERIFY_URL
        );
        assert_eq!(
            settings(ClientHosted, true, Some(" "))
                .unwrap()
                .unwrap()
                .siteverify_url,
            DEFAULT_SITEVERIFY_URL
        );
        let refused = settings(AirGapped, true, None).unwrap_err();
        assert!(
            refused.contains("air-gapped") && refused.contains("TURNSTILE_SECRET_KEY"),
            "{refused}"
        );
        // Without the secret an air-gapped deployment is simply off.
        assert_eq!(settings(AirGapped, false, None), Ok(None));
    }

    #[test]
    fn siteverify_moves_only_to_https_or_a_loopback_stand_in() {
        let local = settings(Cloud, true, Some("http://127.0.0.1:9000/siteverify"))
            .unwrap()
            .unwrap();
        assert_eq!(local.siteverify_url, "http://127.0.0.1:9000/siteverify");
        assert!(settings(Cloud, true, Some("https://verify.example.com/v0")).is_ok());
        for bad in [
            "http://verify.example.com/v0",
            "ftp://127.0.0.1/",
            "https://user:pw@verify.example.com/",
            "verify.example.com",
            "https:///x",
        ] {
            assert!(settings(Cloud, true, Some(bad)).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn a_token_is_needed_once_per_conversation_and_only_when_on() {
        assert_eq!(token_to_verify(false, false, None), Ok(None));
        assert_eq!(
            token_to_verify(true, true, None),
            Ok(None),
            "a verified thread needs no token"
        );
        assert_eq!(token_to_verify(true, true, Some("junk \n")), Ok(None));
        assert_eq!(token_to_verify(true, false, None), Err(Refusal::Missing));
        assert_eq!(
            token_to_verify(true, false, Some("  ")),
            Err(Refusal::Missing)
        );
        assert_eq!(
            token_to_verify(true, false, Some("0.abc-DEF_ghi")),
            Ok(Some("0.abc-DEF_ghi"))
        );
        assert_eq!(
            token_to_verify(true, false, Some("a b")),
            Err(Refusal::Malformed)
        );
        let long = "a".repeat(MAX_TOKEN_CHARS + 1);
        assert_eq!(
            token_to_verify(true, false, Some(&long)),
            Err(Refusal::Malformed)
        );
        assert!(token_to_verify(true, false, Some(&long[1..])).is_ok());
    }

    #[test]
    fn the_request_carries_secret_token_and_address() {
        let body: serde_json::Value =
            serde_json::from_str(&siteverify_body("s3cret", "tok\"en", Some("203.0.113.9")))
                .unwrap();
        assert_eq!(
            body,
            serde_json::json!({ "secret": "s3cret", "response": "tok\"en", "remoteip": "203.0.113.9" })
        );
        let body: serde_json::Value =
            serde_json::from_str(&siteverify_body("s", "t", None)).unwrap();
        assert!(body.get("remoteip").is_none());
    }

    #[test]
    fn only_a_successful_answer_passes() {
        assert_eq!(
            read_verdict(
                200,
                br#"{"success":true,"error-codes":[],"hostname":"docs.example.com"}"#
            ),
            Verdict::Passed
        );
        assert_eq!(
            read_verdict(200, br#"{"success":false,"error-codes":["invalid-input-response","timeout-or-duplicate"]}"#),
            Verdict::Failed(vec!["invalid-input-response".into(), "timeout-or-duplicate".into()])
        );
        assert_eq!(
            read_verdict(200, br#"{"success":"true"}"#),
            Verdict::Failed(vec![]),
            "a string is not true"
        );
        assert_eq!(
            read_verdict(200, b"<html>"),
            Verdict::Failed(vec!["unreadable-response".into()])
        );
        assert_eq!(
            read_verdict(500, br#"{"success":true}"#),
            Verdict::Failed(vec!["http-500".into()])
        );
        let many = format!(
            r#"{{"success":false,"error-codes":[{}]}}"#,
            vec![format!("\"{}\"", "x".repeat(500)); 20].join(",")
        );
        let Verdict::Failed(codes) = read_verdict(200, many.as_bytes()) else {
            panic!()
        };
        assert_eq!(codes.len(), 8);
        assert!(codes.iter().all(|c| c.len() == 64), "bounded for the log");
    }

    #[test]
    fn site_keys_are_plain() {
        assert!(is_site_key("0x4AAAAAAABkMYinukE8nzY"));
        assert!(is_site_key("1x00000000000000000000AA"));
        for bad in [
            "",
            "a\"b",
            "a b",
            "<x>",
            &"a".repeat(MAX_SITE_KEY_CHARS + 1),
        ] {
            assert!(!is_site_key(bad), "{bad}");
        }
    }
}
