//! Which sites may spend an assistant key. A key is on every page that embeds the widget, so anyone
//! can copy it; a key that lists its owner's origins is refused to a browser on any other site (the
//! browser sets `Origin`, a page's script cannot). Callers without `Origin` (servers, command-line
//! tools) are not browsers a copied key could be used from on someone's behalf: they stay allowed,
//! as does any origin when the list is empty.

/// Origins a key may list at most.
pub const MAX_ALLOWED_ORIGINS: usize = 50;
/// Longest origin accepted, as written.
pub const MAX_ORIGIN_CHARS: usize = 300;

/// An origin as a browser serializes it in `Origin`: `http(s)://host[:port]`, lower case, the
/// scheme's default port dropped, no path (a trailing `/` is tolerated), credentials, query or
/// fragment. `https://*.example.com` stands for every subdomain of `example.com` (not the domain
/// itself). `None` for anything else.
pub fn normalize_origin(raw: &str) -> Option<String> {
    let raw = raw.trim().to_ascii_lowercase();
    let (scheme, rest) = raw.split_once("://")?;
    let default_port = match scheme {
        "https" => ":443",
        "http" => ":80",
        _ => return None,
    };
    let authority = rest.strip_suffix('/').unwrap_or(rest);
    let authority = authority.strip_suffix(default_port).unwrap_or(authority);
    // `host[:port]`; an IPv6 host is in brackets, so only a colon after them starts the port.
    let (host, port) = match authority.rfind(':') {
        Some(at) if !authority[at..].contains(']') => {
            (&authority[..at], Some(&authority[at + 1..]))
        }
        _ => (authority, None),
    };
    let port_ok =
        port.is_none_or(|p| (1..=5).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()));
    let name = host.strip_prefix("*.").unwrap_or(host);
    let host_ok = if let Some(ip6) = name.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        !host.starts_with("*.")
            && !ip6.is_empty()
            && ip6
                .bytes()
                .all(|b| b.is_ascii_hexdigit() || matches!(b, b':' | b'.'))
    } else {
        !name.is_empty()
            && name.split('.').all(|label| {
                !label.is_empty()
                    && label
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            })
    };
    (port_ok && host_ok).then(|| format!("{scheme}://{authority}"))
}

/// Whether a request whose `Origin` is `origin` may use a key listing `allowed` (normalized by
/// [`normalize_origin`]). An empty list allows every origin.
pub fn origin_allowed(allowed: &[String], origin: &str) -> bool {
    if allowed.is_empty() {
        return true;
    }
    let origin = origin.trim().to_ascii_lowercase();
    allowed.iter().any(|entry| match entry.split_once("://*.") {
        // `scheme://*.suffix[:port]`: `scheme://<labels>.suffix[:port]`, the same scheme and port.
        Some((scheme, suffix)) => origin
            .strip_prefix(scheme)
            .and_then(|rest| rest.strip_prefix("://"))
            .and_then(|host| host.strip_suffix(suffix))
            .and_then(|labels| labels.strip_suffix('.'))
            .is_some_and(|labels| !labels.is_empty() && !labels.contains([':', '/', '@'])),
        None => *entry == origin,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_normalized_as_browsers_send_them() {
        let cases = [
            ("HTTPS://Docs.Example.com/", "https://docs.example.com"),
            ("https://docs.example.com:443", "https://docs.example.com"),
            ("http://localhost:8080", "http://localhost:8080"),
            ("http://127.0.0.1:80", "http://127.0.0.1"),
            ("https://*.example.com", "https://*.example.com"),
            ("http://[::1]:3000", "http://[::1]:3000"),
        ];
        for (raw, want) in cases {
            assert_eq!(normalize_origin(raw).as_deref(), Some(want), "{raw}");
        }
        for refused in [
            "docs.example.com",
            "ftp://docs.example.com",
            "https://docs.example.com/path",
            "https://user@docs.example.com",
            "https://docs.example.com?x",
            "https://docs.example.com:port",
            "https://*.",
            "https://a.*.example.com",
            "https://docs..example.com",
            "null",
            "",
        ] {
            assert_eq!(normalize_origin(refused), None, "{refused}");
        }
    }

    #[test]
    fn a_listed_origin_or_subdomain_passes_and_an_empty_list_lets_all_through() {
        let allowed = vec![
            "https://docs.example.com".to_string(),
            "https://*.preview.example.com".to_string(),
        ];
        assert!(origin_allowed(&allowed, "https://docs.example.com"));
        assert!(origin_allowed(
            &allowed,
            "https://pr-12.preview.example.com"
        ));
        for refused in [
            "https://evil.example.net",
            "http://docs.example.com",
            "https://docs.example.com:8443",
            "https://preview.example.com",
            "https://x.preview.example.com:8443",
            "https://evilpreview.example.com",
            "null",
        ] {
            assert!(!origin_allowed(&allowed, refused), "{refused}");
        }
        assert!(origin_allowed(&[], "https://anywhere.example.net"));
    }
}
