//! The parts of a request's URL the worker's routes read (the query, one query parameter, the
//! origin, the host), taken from the runtime's serialized URL (`Request.url`, a WHATWG URL as the
//! runtime's URL parser wrote it) without parsing it again: the `url` crate the worker would use
//! instead brings its parser and IDNA code, 20.0 KiB gzipped of the request-serving script.
//!
//! A serialized special URL is `scheme://[userinfo@]host[:port]/path[?query][#fragment]`, with the
//! default port left out and `/`, `?` and `#` percent-encoded wherever they are not delimiters; each
//! function answers what `url::Url`'s method of the same purpose answers for such a URL.

/// The query without its `?`, as `Url::query` gives it.
pub fn query(url: &str) -> Option<&str> {
    let without_fragment = url.split_once('#').map_or(url, |(before, _)| before);
    without_fragment.split_once('?').map(|(_, query)| query)
}

/// The first value of the query parameter `name`, decoded as `application/x-www-form-urlencoded`
/// (`+` is a space, `%XX` a byte, invalid UTF-8 replaced): `Url::query_pairs` found by name.
pub fn query_param(url: &str, name: &str) -> Option<String> {
    form_urlencoded::parse(query(url)?.as_bytes())
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}

/// `scheme://host[:port]`, as `Url::origin().ascii_serialization()` gives it.
pub fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    Some(format!("{scheme}://{}", host_and_port(rest)))
}

/// The host (an IPv6 address with its brackets), as `Url::host_str` gives it.
pub fn host(url: &str) -> Option<&str> {
    let (_, rest) = url.split_once("://")?;
    let host_and_port = host_and_port(rest);
    let host = match host_and_port.find(']') {
        Some(end) if host_and_port.starts_with('[') => &host_and_port[..=end],
        _ => host_and_port.split(':').next().unwrap_or_default(),
    };
    Some(host)
}

/// The authority at the start of `rest` (what follows `://`), without its user information.
fn host_and_port(rest: &str) -> &str {
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    authority
        .rsplit_once('@')
        .map_or(authority, |(_, host_and_port)| host_and_port)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_is_what_follows_the_question_mark_up_to_the_fragment() {
        assert_eq!(query("https://a.dev/x?b=1&c=2"), Some("b=1&c=2"));
        assert_eq!(query("https://a.dev/x?b=1#frag?x"), Some("b=1"));
        assert_eq!(query("https://a.dev/x?"), Some(""));
        assert_eq!(query("https://a.dev/x"), None);
        assert_eq!(query("https://a.dev/x#f?g"), None);
    }

    #[test]
    fn query_param_decodes_the_first_value_of_its_name() {
        let url = "https://a.dev/v1/x?preview=my+label&preview=second&sig=a%2Fb%3D&e=%FF";
        assert_eq!(query_param(url, "preview").as_deref(), Some("my label"));
        assert_eq!(query_param(url, "sig").as_deref(), Some("a/b="));
        assert_eq!(query_param(url, "e").as_deref(), Some("\u{FFFD}"));
        assert_eq!(query_param(url, "missing"), None);
        assert_eq!(
            query_param("https://a.dev/?flag", "flag").as_deref(),
            Some("")
        );
        assert_eq!(query_param("https://a.dev/x", "preview"), None);
    }

    #[test]
    fn origin_keeps_scheme_host_and_port_only() {
        assert_eq!(
            origin("https://docs.example.com/v1/x?y=1").as_deref(),
            Some("https://docs.example.com")
        );
        assert_eq!(
            origin("http://localhost:8787/v1/x").as_deref(),
            Some("http://localhost:8787")
        );
        assert_eq!(
            origin("http://user:pw@[::1]:8787?q").as_deref(),
            Some("http://[::1]:8787")
        );
        assert_eq!(origin("not a url"), None);
    }

    #[test]
    fn host_leaves_out_port_and_user_information() {
        assert_eq!(host("https://docs.example.com/x"), Some("docs.example.com"));
        assert_eq!(host("http://localhost:8787/x"), Some("localhost"));
        assert_eq!(host("http://u@[::1]:8787/x"), Some("[::1]"));
        assert_eq!(host("http://127.0.0.1#x"), Some("127.0.0.1"));
    }

    #[test]
    fn answers_as_the_url_crate_does() {
        for text in [
            "https://docs.example.com/",
            "https://docs.example.com/v1/static-export/bundles/job_1?expires=17&sig=a%2Bb",
            "http://localhost:8787/v1/sites/a.dev/publishes?preview=my+label&preview=2",
            "http://127.0.0.1:8787/x?a=%E2%9C%93&b=%FF&&c&=d#frag",
            "http://user:pw@[::1]:8787/a%3F%23b?q=1%202",
            "https://xn--bcher-kva.example/?",
        ] {
            let parsed = url::Url::parse(text).unwrap();
            assert_eq!(query(text), parsed.query(), "{text}");
            assert_eq!(host(text), parsed.host_str(), "{text}");
            assert_eq!(
                origin(text),
                Some(parsed.origin().ascii_serialization()),
                "{text}"
            );
            for (name, _) in parsed.query_pairs() {
                let first = parsed.query_pairs().find(|(n, _)| *n == name).unwrap().1;
                assert_eq!(query_param(text, &name), Some(first.into_owned()), "{text}");
            }
        }
    }
}
