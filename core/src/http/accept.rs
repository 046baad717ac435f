//! `Accept` negotiation for a page (RFC 9110 §12.5.1): whether a request prefers a page's Markdown
//! to its HTML. Agents ask with `Accept: text/markdown` (or `text/plain`); browsers send
//! `text/html,…,*/*;q=0.8`, which keeps the HTML.

/// The most media ranges read from one header: the rest are ignored, so the work stays bounded.
const MAX_RANGES: usize = 32;

/// Whether `accept` ranks `text/markdown` or `text/plain` strictly above `text/html`. Each type's
/// quality is that of the most specific range matching it (`text/html` over `text/*` over `*/*`);
/// an absent or unreadable header prefers HTML.
pub fn prefers_markdown(accept: Option<&str>) -> bool {
    let Some(accept) = accept else { return false };
    let ranges: Vec<(&str, &str, u16)> = accept
        .split(',')
        .take(MAX_RANGES)
        .filter_map(media_range)
        .collect();
    let quality = |subtype: &str| {
        ranges
            .iter()
            .filter_map(|&(t, s, q)| match (t, s) {
                ("text", s) if s.eq_ignore_ascii_case(subtype) => Some((2, q)),
                ("text", "*") => Some((1, q)),
                ("*", "*") => Some((0, q)),
                _ => None,
            })
            .max_by_key(|&(specificity, _)| specificity)
            .map_or(0, |(_, q)| q)
    };
    quality("markdown").max(quality("plain")) > quality("html")
}

/// `type/subtype;q=…` → (type, subtype, quality in thousandths); `None` for what is not a media
/// range.
fn media_range(range: &str) -> Option<(&str, &str, u16)> {
    let mut params = range.split(';');
    let (kind, subtype) = params.next()?.trim().split_once('/')?;
    let kind = if kind.eq_ignore_ascii_case("text") {
        "text"
    } else {
        kind
    };
    let mut quality = 1000;
    for param in params {
        if let Some((name, value)) = param.split_once('=') {
            if name.trim().eq_ignore_ascii_case("q") {
                quality = qvalue(value.trim())?;
            }
        }
    }
    Some((kind, subtype.trim(), quality))
}

/// RFC 9110's `qvalue` (`0`, `0.5`, `0.125`, `1`, `1.000`) in thousandths: its grammar has at most
/// three decimals, so integers read it whole (and the request-serving script carries no float parser).
fn qvalue(text: &str) -> Option<u16> {
    let (whole, decimals) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !matches!(whole, "0" | "1") || decimals.len() > 3 || !digits(decimals) {
        return None;
    }
    let fraction = decimals
        .bytes()
        .chain(std::iter::repeat(b'0'))
        .take(3)
        .fold(0u16, |n, b| n * 10 + u16::from(b - b'0'));
    let q = u16::from(whole == "1") * 1000 + fraction;
    (q <= 1000).then_some(q)
}

#[cfg(test)]
mod tests {
    use super::prefers_markdown;

    #[test]
    fn agents_asking_for_markdown_or_text_get_it() {
        assert!(prefers_markdown(Some("text/markdown")));
        assert!(prefers_markdown(Some("text/plain")));
        assert!(prefers_markdown(Some("text/markdown, text/html;q=0.9")));
        assert!(prefers_markdown(Some("TEXT/Markdown;q=0.5")));
        assert!(prefers_markdown(Some("text/markdown, */*;q=0.1")));
    }

    #[test]
    fn quality_values_read_as_the_grammar_writes_them() {
        use super::qvalue;
        assert_eq!(
            [
                qvalue("0"),
                qvalue("0.5"),
                qvalue("0.125"),
                qvalue("1"),
                qvalue("1.000")
            ],
            [Some(0), Some(500), Some(125), Some(1000), Some(1000)]
        );
        assert_eq!(
            [
                qvalue("1.5"),
                qvalue("0.1234"),
                qvalue("2"),
                qvalue(".5"),
                qvalue("0.x")
            ],
            [None; 5]
        );
        assert!(prefers_markdown(Some(
            "text/html;q=0.899, text/markdown;q=0.9"
        )));
    }

    #[test]
    fn browsers_and_unclear_headers_keep_the_html() {
        assert!(!prefers_markdown(None));
        assert!(!prefers_markdown(Some("")));
        assert!(!prefers_markdown(Some("*/*")));
        assert!(!prefers_markdown(Some("text/*")));
        assert!(!prefers_markdown(Some(
            "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"
        )));
        assert!(!prefers_markdown(Some("text/markdown;q=0.5, text/html")));
        assert!(!prefers_markdown(Some("text/markdown;q=0")));
        assert!(!prefers_markdown(Some("text/markdown;q=banana")));
        assert!(!prefers_markdown(Some("text/html, text/markdown")));
    }

    #[test]
    fn a_long_header_is_read_only_so_far() {
        let long = format!("{}text/markdown", "application/json;q=0.1,".repeat(10_000));
        assert!(!prefers_markdown(Some(&long)));
    }
}
