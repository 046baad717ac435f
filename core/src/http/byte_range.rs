//! HTTP `Range: bytes=...` for downloads (RFC 9110 §14): one range, or the whole object.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeRequest {
    /// No usable range (absent, another unit, or several ranges): send everything with 200.
    Whole,
    /// Inclusive byte positions, already clamped to the object.
    Part { start: u64, end: u64 },
    /// A range that starts past the end: 416 with `Content-Range: bytes */size`.
    Unsatisfiable,
}

pub fn parse_range(header: Option<&str>, size: u64) -> RangeRequest {
    let Some(spec) = header.and_then(|h| h.trim().strip_prefix("bytes=")) else {
        return RangeRequest::Whole;
    };
    // Serving several ranges needs multipart/byteranges; ignoring the header is allowed instead.
    if spec.contains(',') {
        return RangeRequest::Whole;
    }
    let Some((first, last)) = spec.trim().split_once('-') else {
        return RangeRequest::Whole;
    };
    let (first, last) = (first.trim(), last.trim());
    let parsed = |s: &str| s.parse::<u64>().ok();
    match (first.is_empty(), last.is_empty()) {
        // bytes=-N: the last N bytes.
        (true, false) => match parsed(last) {
            Some(0) => RangeRequest::Unsatisfiable,
            Some(n) if size > 0 => RangeRequest::Part {
                start: size.saturating_sub(n),
                end: size - 1,
            },
            Some(_) => RangeRequest::Unsatisfiable,
            None => RangeRequest::Whole,
        },
        (false, _) => {
            let Some(start) = parsed(first) else {
                return RangeRequest::Whole;
            };
            let end = if last.is_empty() {
                Some(u64::MAX)
            } else {
                parsed(last)
            };
            match end {
                None => RangeRequest::Whole,
                Some(end) if end < start => RangeRequest::Whole,
                Some(_) if start >= size => RangeRequest::Unsatisfiable,
                Some(end) => RangeRequest::Part {
                    start,
                    end: end.min(size - 1),
                },
            }
        }
        (true, true) => RangeRequest::Whole,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use RangeRequest::*;

    #[test]
    fn ranges() {
        assert_eq!(parse_range(None, 100), Whole);
        assert_eq!(
            parse_range(Some("bytes=0-9"), 100),
            Part { start: 0, end: 9 }
        );
        assert_eq!(
            parse_range(Some("bytes=90-"), 100),
            Part { start: 90, end: 99 }
        );
        assert_eq!(
            parse_range(Some("bytes=90-500"), 100),
            Part { start: 90, end: 99 }
        );
        assert_eq!(
            parse_range(Some("bytes=-10"), 100),
            Part { start: 90, end: 99 }
        );
        assert_eq!(
            parse_range(Some("bytes=-500"), 100),
            Part { start: 0, end: 99 }
        );
        assert_eq!(parse_range(Some("bytes=100-"), 100), Unsatisfiable);
        assert_eq!(parse_range(Some("bytes=-0"), 100), Unsatisfiable);
        assert_eq!(parse_range(Some("bytes=5-1"), 100), Whole);
        assert_eq!(parse_range(Some("bytes=0-1,5-6"), 100), Whole);
        assert_eq!(parse_range(Some("items=0-1"), 100), Whole);
        assert_eq!(parse_range(Some("bytes=x-1"), 100), Whole);
    }
}
