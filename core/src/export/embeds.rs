//! Remote embeds (`<iframe>` of YouTube, Loom, ...) the publish did not bring: a labelled
//! click-to-load placeholder that names the host. Nothing is requested before the reader asks:
//! the bundle's script (`site.js`) swaps the iframe in on a click, and the bundle's
//! `Content-Security-Policy` allows frames from exactly the hosts its placeholders name
//! ([`frame_origins`]). Without script the placeholder is a plain link to the embed.

use std::collections::BTreeSet;

use super::html::{self, attr};

/// The attribute of a placeholder that names its origin; [`frame_origins`] reads it back.
const ORIGIN_ATTR: &str = "data-embed-origin";

/// Writes the placeholder of an embed of `src` titled `title`; `false` (nothing written) unless
/// `src` is an absolute http(s) URL with a plain host.
pub(crate) fn placeholder(out: &mut String, src: &str, title: &str) -> bool {
    let Some((origin, host)) = origin_and_host(src) else { return false };
    let what = if is_video_host(host) { "the video" } else { "the embedded content" };
    out.push_str("<figure class=\"embed-placeholder\"");
    attr(out, ORIGIN_ATTR, origin);
    attr(out, "data-embed-src", src);
    if !title.trim().is_empty() {
        attr(out, "data-embed-title", title.trim());
    }
    out.push('>');
    if !title.trim().is_empty() {
        out.push_str("<figcaption>");
        html::text(out, title.trim());
        out.push_str("</figcaption>");
    }
    // Shown by the script, which alone can load the frame.
    out.push_str("<button type=\"button\" class=\"embed-load\" hidden>");
    html::text(out, &format!("Load {what} from {host}"));
    out.push_str("</button><p class=\"embed-note\">");
    html::text(out, &format!("Nothing is loaded from {host} until you ask. "));
    out.push_str("<a class=\"external-media\"");
    attr(out, "href", src);
    out.push('>');
    html::text(out, &format!("Open it on {host}"));
    out.push_str("</a></p></figure>");
    true
}

/// `https://host[:port]` and the host of an absolute http(s) URL whose host is plain.
fn origin_and_host(url: &str) -> Option<(&str, &str)> {
    let scheme_end = if url.starts_with("https://") { 8 } else if url.starts_with("http://") { 7 } else { return None };
    let rest = &url[scheme_end..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    let host = authority.split(':').next().unwrap_or("");
    let plain = !host.is_empty()
        && host.contains('.')
        && authority.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':'));
    plain.then(|| (&url[..scheme_end + authority_end], host))
}

fn is_video_host(host: &str) -> bool {
    const VIDEO: &[&str] = &["youtube.com", "youtube-nocookie.com", "youtu.be", "vimeo.com", "loom.com", "wistia.com", "wistia.net", "vidyard.com"];
    VIDEO.iter().any(|v| host == *v || host.ends_with(&format!(".{v}")))
}

/// The origins the placeholders of `html` name, for the policy's `frame-src`.
pub fn frame_origins(html: &str, into: &mut BTreeSet<String>) {
    let needle = format!(" {ORIGIN_ATTR}=\"");
    for (at, _) in html.match_indices(&needle) {
        let rest = &html[at + needle.len()..];
        if let Some(origin) = rest.split('"').next().filter(|o| origin_and_host(o).is_some()) {
            into.insert(origin.to_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placeholder_names_the_host_links_the_embed_and_gives_its_origin() {
        let mut out = String::new();
        assert!(placeholder(&mut out, "https://www.youtube.com/embed/x?a=1&b=2", "Demo"));
        assert!(out.contains(">Load the video from www.youtube.com</button>"), "{out}");
        assert!(out.contains("<button type=\"button\" class=\"embed-load\" hidden>"));
        assert!(out.contains("href=\"https://www.youtube.com/embed/x?a=1&amp;b=2\">Open it on www.youtube.com</a>"), "{out}");
        assert!(!out.contains("<iframe"), "nothing loads before the click");
        let mut origins = BTreeSet::new();
        frame_origins(&out, &mut origins);
        let mut other = String::new();
        assert!(placeholder(&mut other, "https://example.com:8443/widget", ""));
        assert!(other.contains("Load the embedded content from example.com<"), "{other}");
        frame_origins(&other, &mut origins);
        assert_eq!(origins.into_iter().collect::<Vec<_>>(), ["https://example.com:8443", "https://www.youtube.com"]);

        for refused in ["javascript:alert(1)", "/local/page", "https://user@evil.example/x", "https://localhost/x", "data:text/html,x"] {
            assert!(!placeholder(&mut String::new(), refused, ""), "{refused}");
        }
        let mut forged = BTreeSet::new();
        frame_origins("<p> data-embed-origin=\"javascript:x\"</p>", &mut forged);
        assert!(forged.is_empty());
    }

    #[test]
    fn the_policy_frames_exactly_the_named_origins() {
        use crate::export::{content_security_policy, content_security_policy_framing, PageExtras};
        let none = content_security_policy(&PageExtras::default());
        assert!(!none.contains("frame-src"), "{none}");
        let framed = content_security_policy_framing(
            &PageExtras::default(),
            &["https://www.youtube.com".into(), "javascript:x".into(), "https://a.example/path".into()],
        );
        assert!(framed.ends_with("; frame-src 'self' https://www.youtube.com"), "{framed}");
    }
}
