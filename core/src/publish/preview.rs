//! Previews: a publish with a `preview` label builds a version that does not go live (search, the
//! assistant and the hosted site keep the live one); its site's export is written and served at a
//! hostname of its own, with `noindex`: `{label}--{domain, dots as dashes}.{PREVIEW_HOST_SUFFIX}`
//! (`feature-x--docs-example-com.preview.example.net`). One wildcard DNS record and certificate for
//! the operator's suffix serve every tenant's previews, as branch deployments are served elsewhere.
//!
//! The label is a DNS label that never holds `--`, so the first `--` of a preview hostname ends it;
//! the whole first label must fit DNS's 63 characters. Two domains that differ only where one has a
//! dot and the other a dash (`a-b.com`, `a.b-com`) map to the same hostname: the preview pointer
//! names its domain, and one domain's export never replaces another's pointer
//! ([`crate::export::hosting::LiveSite::preview_of`]).

use crate::http::validate::FieldError;

/// Most characters of a DNS label.
pub const MAX_DNS_LABEL: usize = 63;
/// Days a preview is served after its last publish; the daily storage sweep then deletes it.
pub const PREVIEW_DAYS: u64 = 7;

fn invalid(rule: impl Into<String>) -> FieldError {
    FieldError {
        path: "preview".into(),
        rule: rule.into(),
    }
}

/// Whether `label` is a preview label: lower-case letters, digits and single hyphens, not at
/// either end.
fn is_label(label: &str) -> bool {
    let bytes = label.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= MAX_DNS_LABEL
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
        && bytes[0] != b'-'
        && bytes[bytes.len() - 1] != b'-'
        && !label.contains("--")
}

/// The hostname of the preview `label` of `domain` (a site domain, already checked) under the
/// deployment's `suffix` (`PREVIEW_HOST_SUFFIX`; empty: previews are off); the rule broken, naming
/// the field. The service carries a preview as this hostname alone: its label is what comes before
/// its first `--`.
pub fn preview_host(label: &str, domain: &str, suffix: &str) -> Result<String, FieldError> {
    let suffix = suffix.trim_matches('.');
    if suffix.is_empty() {
        return Err(invalid(
            "previews are off in this deployment (the operator sets PREVIEW_HOST_SUFFIX to serve them)",
        ));
    }
    if !is_label(label) {
        let shown: String = label.chars().take(80).collect();
        return Err(invalid(format!(
            "{shown:?} is not a preview label: lower-case letters, digits and single hyphens (not at either end), at most {MAX_DNS_LABEL} characters"
        )));
    }
    let first = format!("{label}--{}", domain.replace('.', "-"));
    if first.len() > MAX_DNS_LABEL {
        return Err(invalid(format!(
            "{label:?} is too long for {domain}: the preview hostname's first label {first:?} would be {} characters, DNS allows {MAX_DNS_LABEL}",
            first.len()
        )));
    }
    Ok(format!("{first}.{}", suffix.to_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preview_is_served_at_its_label_and_dashed_domain_under_the_suffix() {
        let host = preview_host("feature-x", "docs.example.com", "preview.example.net").unwrap();
        assert_eq!(host, "feature-x--docs-example-com.preview.example.net");
        // Its label is what comes before the first `--`.
        assert_eq!(host.split("--").next(), Some("feature-x"));
        // A suffix written with dots around it is the same suffix.
        let dotted = preview_host("pr-12", "docs.example.com", ".Preview.Example.net.").unwrap();
        assert_eq!(dotted, "pr-12--docs-example-com.preview.example.net");
    }

    #[test]
    fn labels_are_dns_labels_without_a_double_hyphen() {
        for bad in [
            "",
            "Feature",
            "feature_x",
            "-x",
            "x-",
            "a--b",
            "a.b",
            "ü",
            "a b",
            "x/y",
        ] {
            let err = preview_host(bad, "docs.example.com", "p.example.net").unwrap_err();
            assert_eq!(err.path, "preview", "{bad:?}");
            assert!(
                err.rule.contains("not a preview label"),
                "{bad:?}: {}",
                err.rule
            );
        }
        for good in ["a", "main", "pr-1234", "0day", "release-2-0"] {
            assert!(
                preview_host(good, "docs.example.com", "p.example.net").is_ok(),
                "{good:?}"
            );
        }
    }

    #[test]
    fn the_first_label_fits_dns_and_a_hostile_label_is_refused_without_echoing_it_whole() {
        // 63 characters exactly: allowed; one more: refused, with the length said.
        let domain = "docs.example.com"; // 16 characters dashed, plus "--": 45 left
        let fits = "a".repeat(45);
        assert!(preview_host(&fits, domain, "p.example.net").is_ok());
        let err = preview_host(&"a".repeat(46), domain, "p.example.net").unwrap_err();
        assert!(
            err.rule.contains("64 characters, DNS allows 63"),
            "{}",
            err.rule
        );
        let hostile = "A".repeat(100_000);
        let err = preview_host(&hostile, domain, "p.example.net").unwrap_err();
        assert!(err.to_string().len() < 400);
    }

    #[test]
    fn previews_are_off_without_a_suffix() {
        let err = preview_host("main", "docs.example.com", "").unwrap_err();
        assert_eq!(err.path, "preview");
        assert!(err.rule.contains("PREVIEW_HOST_SUFFIX"));
    }
}
