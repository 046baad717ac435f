//! Remote embeds (`<iframe>` of YouTube, Loom, ...) and remote images the publish did not bring: a
//! labelled click-to-load placeholder that names the host. Nothing is requested before the reader
//! asks: the bundle's script (`site.js`) swaps the iframe or image in on a click, and the bundle's
//! `Content-Security-Policy` allows frames and images from exactly the hosts its placeholders name
//! ([`frame_origins`], [`image_origins`]). Without script the placeholder is a plain link.

use std::collections::BTreeSet;

use crate::export::html::{self, attr};

/// The attributes of the placeholders that name their origin; [`frame_origins`] and
/// [`image_origins`] read them back.
const ORIGIN_ATTR: &str = "data-embed-origin";
const IMAGE_ORIGIN_ATTR: &str = "data-image-origin";

/// Writes the placeholder of an embed of `src` titled `title`; `false` (nothing written) unless
/// `src` is an absolute http(s) URL with a plain host.
pub(crate) fn placeholder(out: &mut String, src: &str, title: &str) -> bool {
    let Some((origin, host)) = origin_and_host(src) else {
        return false;
    };
    let what = if is_video_host(host) {
        "the video"
    } else {
        "the embedded content"
    };
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
    html::text(
        out,
        &format!("Nothing is loaded from {host} until you ask. "),
    );
    out.push_str("<a class=\"external-media\"");
    attr(out, "href", src);
    out.push('>');
    html::text(out, &format!("Open it on {host}"));
    out.push_str("</a></p></figure>");
    true
}

/// Writes the placeholder of an image at `src`: phrasing content (a Markdown image sits in a `<p>`)
/// holding a link to the image and the script's button, which swaps in an `<img>` with `alt`,
/// `size` (width, height) and `classes` (the author's, so `dark:hidden` variants stay one per
/// theme). `false` (nothing written) unless `src` is an absolute http(s) URL with a plain host.
pub(crate) fn image_placeholder(
    out: &mut String,
    src: &str,
    alt: &str,
    size: [Option<&str>; 2],
    classes: &[String],
) -> bool {
    let Some((origin, host)) = origin_and_host(src) else {
        return false;
    };
    out.push_str("<span");
    attr(
        out,
        "class",
        format!("image-placeholder {}", classes.join(" ")).trim_end(),
    );
    attr(out, IMAGE_ORIGIN_ATTR, origin);
    attr(out, "data-image-src", src);
    attr(out, "data-image-alt", alt);
    for (key, value) in ["data-image-width", "data-image-height"]
        .into_iter()
        .zip(size)
    {
        if let Some(value) = value {
            attr(out, key, value);
        }
    }
    out.push_str("><a class=\"external-media\"");
    attr(out, "href", src);
    out.push('>');
    html::text(out, if alt.trim().is_empty() { "Image" } else { alt });
    out.push_str("</a> <button type=\"button\" class=\"embed-load\" hidden>");
    html::text(out, &format!("Load the image from {host}"));
    out.push_str("</button></span>");
    true
}

/// `https://host[:port]` and the host of an absolute http(s) URL whose host is plain.
fn origin_and_host(url: &str) -> Option<(&str, &str)> {
    let scheme_end = if url.starts_with("https://") {
        8
    } else if url.starts_with("http://") {
        7
    } else {
        return None;
    };
    let rest = &url[scheme_end..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    let host = authority.split(':').next().unwrap_or("");
    let plain = !host.is_empty()
        && host.contains('.')
        && authority
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':'));
    plain.then(|| (&url[..scheme_end + authority_end], host))
}

fn is_video_host(host: &str) -> bool {
    const VIDEO: &[&str] = &[
        "youtube.com",
        "youtube-nocookie.com",
        "youtu.be",
        "vimeo.com",
        "loom.com",
        "wistia.com",
        "wistia.net",
        "vidyard.com",
    ];
    VIDEO
        .iter()
        .any(|v| host == *v || host.ends_with(&format!(".{v}")))
}

/// The origins the embed placeholders of `html` name, for the policy's `frame-src`.
pub fn frame_origins(html: &str, into: &mut BTreeSet<String>) {
    named_origins(html, ORIGIN_ATTR, into);
}

/// The origins the image placeholders of `html` name, for the policy's `img-src`.
pub fn image_origins(html: &str, into: &mut BTreeSet<String>) {
    named_origins(html, IMAGE_ORIGIN_ATTR, into);
}

fn named_origins(html: &str, name: &str, into: &mut BTreeSet<String>) {
    let needle = format!(" {name}=\"");
    for (at, _) in html.match_indices(&needle) {
        let rest = &html[at + needle.len()..];
        if let Some(origin) = rest
            .split('"')
            .next()
            .filter(|o| origin_and_host(o).is_some())
        {
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
        assert!(placeholder(
            &mut out,
            "https://www.youtube.com/embed/x?a=1&b=2",
            "Demo"
        ));
        assert!(
            out.contains(">Load the video from www.youtube.com</button>"),
            "{out}"
        );
        assert!(out.contains("<button type=\"button\" class=\"embed-load\" hidden>"));
        assert!(out.contains("href=\"https://www.youtube.com/embed/x?a=1&amp;b=2\">Open it on www.youtube.com</a>"), "{out}");
        assert!(!out.contains("<iframe"), "nothing loads before the click");
        let mut origins = BTreeSet::new();
        frame_origins(&out, &mut origins);
        let mut other = String::new();
        assert!(placeholder(
            &mut other,
            "https://example.com:8443/widget",
            ""
        ));
        assert!(
            other.contains("Load the embedded content from example.com<"),
            "{other}"
        );
        frame_origins(&other, &mut origins);
        assert_eq!(
            origins.into_iter().collect::<Vec<_>>(),
            ["https://example.com:8443", "https://www.youtube.com"]
        );

        for refused in [
            "javascript:alert(1)",
            "/local/page",
            "https://user@evil.example/x",
            "https://localhost/x",
            "data:text/html,x",
        ] {
            assert!(!placeholder(&mut String::new(), refused, ""), "{refused}");
        }
        let mut forged = BTreeSet::new();
        frame_origins("<p> data-embed-origin=\"javascript:x\"</p>", &mut forged);
        assert!(forged.is_empty());
    }

    #[test]
    fn an_image_placeholder_links_the_image_names_its_host_and_keeps_alt_size_and_classes() {
        let mut out = String::new();
        let classes = ["dark:hidden".to_owned()];
        assert!(image_placeholder(
            &mut out,
            "https://cdn.example.com/a.png?w=1&h=2",
            "A \"chart\"",
            [Some("640"), None],
            &classes
        ));
        assert_eq!(
            out,
            "<span class=\"image-placeholder dark:hidden\" data-image-origin=\"https://cdn.example.com\" \
             data-image-src=\"https://cdn.example.com/a.png?w=1&amp;h=2\" data-image-alt=\"A &quot;chart&quot;\" data-image-width=\"640\">\
             <a class=\"external-media\" href=\"https://cdn.example.com/a.png?w=1&amp;h=2\">A \"chart\"</a> \
             <button type=\"button\" class=\"embed-load\" hidden>Load the image from cdn.example.com</button></span>"
        );
        assert_eq!(
            crate::export::render::active_content::find_active(&out, &[]),
            None
        );
        let mut images = BTreeSet::new();
        image_origins(&out, &mut images);
        let mut other = String::new();
        assert!(image_placeholder(
            &mut other,
            "http://img.example:8080/b.svg",
            "",
            [None, None],
            &[]
        ));
        assert!(
            other.starts_with("<span class=\"image-placeholder\" ") && other.contains(">Image</a>"),
            "{other}"
        );
        image_origins(&other, &mut images);
        assert_eq!(
            images.into_iter().collect::<Vec<_>>(),
            ["http://img.example:8080", "https://cdn.example.com"]
        );
        let mut frames = BTreeSet::new();
        frame_origins(&out, &mut frames);
        assert!(frames.is_empty(), "an image's origin is no frame's");

        for refused in [
            "javascript:alert(1)",
            "data:image/png;base64,AAAA",
            "https://user:pw@evil.example/x.png",
            "https://evil.example@cdn.example.com/x.png",
            "//cdn.example.com/x.png",
            "/images/x.png",
            "https://localhost/x.png",
            "https://cdn.example.com\"onerror=\"x/a.png",
        ] {
            assert!(
                !image_placeholder(&mut String::new(), refused, "x", [None, None], &[]),
                "{refused}"
            );
        }
        let mut forged = BTreeSet::new();
        image_origins("<p> data-image-origin=\"data:image/png\"</p>", &mut forged);
        assert!(forged.is_empty());
    }

    #[test]
    fn the_policy_frames_and_shows_images_from_exactly_the_named_origins() {
        use crate::export::{content_security_policy, content_security_policy_remote, PageExtras};
        let none = content_security_policy(&PageExtras::default());
        assert!(
            !none.contains("frame-src") && none.contains("img-src 'self' data:;"),
            "{none}"
        );
        let framed = content_security_policy_remote(
            &PageExtras::default(),
            &[
                "https://www.youtube.com".into(),
                "javascript:x".into(),
                "https://a.example/path".into(),
            ],
            &[
                "https://cdn.example.com".into(),
                "http://img.example:8080".into(),
                "data:".into(),
                "https://x.example *".into(),
            ],
        );
        assert!(
            framed.ends_with("; frame-src 'self' https://www.youtube.com"),
            "{framed}"
        );
        assert!(
            framed.contains(
                "; img-src 'self' data: https://cdn.example.com http://img.example:8080; "
            ),
            "{framed}"
        );
    }
}
