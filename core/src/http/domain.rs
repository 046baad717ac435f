//! Docs site domains are hostnames: `docs.example.com`, or a bare name such as `acme`.

/// The normalised (lowercase) hostname, or the rule it breaks, phrased to follow `"{field}: "`.
pub fn validate_domain(input: &str) -> Result<String, String> {
    if input.is_empty() {
        return Err("must not be empty".into());
    }
    if input.contains("://") {
        return Err("must be a hostname only, without a scheme such as https://".into());
    }
    if input.contains('/') {
        return Err("must be a hostname only, without a path or trailing slash".into());
    }
    if input.contains(':') {
        return Err("must be a hostname only, without a port".into());
    }
    if input.len() > 253 {
        return Err("must be at most 253 characters".into());
    }
    let host = input.to_ascii_lowercase();
    for label in host.split('.') {
        if label.is_empty() {
            return Err("must not have empty labels (leading, trailing or double dots)".into());
        }
        if label.len() > 63 {
            return Err("labels must be at most 63 characters".into());
        }
        if !label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        {
            return Err("may contain only letters, digits, hyphens and dots".into());
        }
        if label.starts_with('-') || label.ends_with('-') {
            return Err("labels must not start or end with a hyphen".into());
        }
    }
    Ok(host)
}

#[cfg(test)]
mod tests {
    use super::validate_domain;

    #[test]
    fn hostnames_are_accepted_and_lowercased() {
        assert_eq!(
            validate_domain("Docs.Example.com").unwrap(),
            "docs.example.com"
        );
        assert_eq!(validate_domain("acme").unwrap(), "acme");
        assert_eq!(
            validate_domain("my-docs.mintlify.app").unwrap(),
            "my-docs.mintlify.app"
        );
    }

    #[test]
    fn urls_paths_and_ports_are_rejected_with_the_rule() {
        assert!(validate_domain("https://docs.example.com")
            .unwrap_err()
            .contains("scheme"));
        assert!(validate_domain("docs.example.com/")
            .unwrap_err()
            .contains("trailing slash"));
        assert!(validate_domain("docs.example.com/docs")
            .unwrap_err()
            .contains("path"));
        assert!(validate_domain("docs.example.com:443")
            .unwrap_err()
            .contains("port"));
    }

    #[test]
    fn malformed_labels_are_rejected() {
        assert!(validate_domain("").is_err());
        assert!(validate_domain("a..b").is_err());
        assert!(validate_domain(".a").is_err());
        assert!(validate_domain("-a.com").is_err());
        assert!(validate_domain("a_b.com").is_err());
        assert!(validate_domain("döcs.com").is_err());
        assert!(validate_domain(&"a".repeat(64)).is_err());
    }
}
