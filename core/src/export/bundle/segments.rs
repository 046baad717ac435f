//! A hosted site's large files stored as segments: a file of at least [`SEGMENTED_FROM`] bytes,
//! listed in chunks for mirrors (`super::delta`), is stored for the site as the bytes of each group
//! of its chunks, one object a
//! group (`_docs-edge/delta/segments/{sha256 of the group's list}.bin`, about 1 MiB, at most
//! [`super::delta::GROUP_MAX`] chunks), and its own object holds the list of its segments, marked
//! by [`SEGMENTS_METADATA`]. The groups realign after an edit as the chunks do, so an export layered
//! on a base (`super::layers`) writes the one or two segments an edit touched, not the whole of
//! `llms-full.txt` or of a search pack; the site answers the file by streaming its segments in
//! order.

use super::delta::{chunked, list_bytes, DELTA_DIR};

/// Files from this size on are stored as segments: about a segment's average, so a smaller file
/// would be one segment and a list; and an edit of a larger one rewrites about this much of it.
pub const SEGMENTED_FROM: u64 = 1 << 20;

/// Whether the site stores the file `path` of `size` bytes as segments.
pub fn segmented(path: &str, size: u64) -> bool {
    size >= SEGMENTED_FROM && chunked(path, size)
}

/// The custom metadata key of a file's object that lists its segments instead of holding its
/// bytes; its value is the file's size.
pub const SEGMENTS_METADATA: &str = "docs-edge-segments";
/// What a segment list may hold: a list of a 256 MiB file's segments is under 64 KiB.
pub const MAX_SEGMENT_LIST_BYTES: usize = 1 << 20;

/// The site-relative path of the segment named `name` (the SHA-256 of its chunks' list).
pub fn segment_path(name: &str) -> String {
    format!("{DELTA_DIR}segments/{name}.bin")
}

/// A segment list's bytes: lines `{name} {size}`, in the file's order.
pub fn segment_list(segments: &[(String, u64)]) -> Vec<u8> {
    list_bytes(segments)
}

/// The segments of a [`segment_list`]: names and sizes in order; an error for any line that is
/// not a name of 64 hex digits and a size, or for a list over [`MAX_SEGMENT_LIST_BYTES`].
pub fn read_segment_list(bytes: &[u8]) -> Result<Vec<(String, u64)>, String> {
    if bytes.len() > MAX_SEGMENT_LIST_BYTES {
        return Err(format!("a segment list of {} bytes", bytes.len()));
    }
    let text = std::str::from_utf8(bytes).map_err(|_| "a segment list is not UTF-8".to_string())?;
    text.lines()
        .map(|line| {
            let (name, size) = line
                .split_once(' ')
                .ok_or_else(|| format!("a segment line: {line:?}"))?;
            let hex = name.len() == 64 && name.bytes().all(|b| b.is_ascii_hexdigit());
            match (hex, size.parse::<u64>()) {
                (true, Ok(size)) => Ok((name.to_string(), size)),
                _ => Err(format!("a segment line: {line:?}")),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_segment_list_reads_back_and_bad_lines_are_errors() {
        let segments = vec![("a".repeat(64), 1_048_576), ("0f".repeat(32), 12)];
        assert_eq!(
            read_segment_list(&segment_list(&segments)).unwrap(),
            segments
        );
        assert_eq!(
            segment_path(&segments[0].0),
            format!("_docs-edge/delta/segments/{}.bin", "a".repeat(64))
        );
        for bad in [
            "short 12\n",
            &format!("{} twelve\n", "a".repeat(64)),
            &format!("{}12\n", "a".repeat(64)),
            &format!("../{} 12\n", "a".repeat(61)),
        ] {
            assert!(read_segment_list(bad.as_bytes()).is_err(), "{bad:?}");
        }
        assert!(read_segment_list(&vec![b'a'; MAX_SEGMENT_LIST_BYTES + 1]).is_err());
    }
}
