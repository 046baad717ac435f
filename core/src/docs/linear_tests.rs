//! Generated worst cases for the MDX scans, measured in bytes examined (counters kept under
//! `cfg(test)`), not time: the work must grow linearly with the page.

use super::jsx::EXAMINED;
use super::mdx::{blocks, ESM_READ};
use super::walk::inline_pieces;

fn examined(f: impl FnOnce()) -> usize {
    EXAMINED.with(|e| e.set(0));
    f();
    EXAMINED.with(|e| e.get())
}

fn esm_read(f: impl FnOnce()) -> usize {
    ESM_READ.with(|e| e.set(0));
    f();
    ESM_READ.with(|e| e.get())
}

/// The page `unit` repeated to about `bytes`.
fn page(unit: &str, bytes: usize) -> String {
    unit.repeat(bytes / unit.len())
}

/// Work at 256 KiB and at 1 MiB: at most the budget (8 bytes examined per byte, plus a constant)
/// and one byte per scan tried after it, and four times the page costs about four times the work.
fn assert_linear(name: &str, work: impl Fn(&str) -> usize, unit: &str) {
    let small = page(unit, 256 * 1024);
    let large = page(unit, 1024 * 1024);
    let (w_small, w_large) = (work(&small), work(&large));
    assert!(
        w_large <= 9 * large.len() + 64 * 1024,
        "{name}: {w_large} bytes examined for {}",
        large.len()
    );
    assert!(
        w_large <= 4 * w_small + 64 * 1024,
        "{name}: {w_small} -> {w_large}"
    );
}

#[test]
fn inline_jsx_scans_are_linear() {
    for unit in ["<a x=\"", "<a b={", "{{", "<a x='y' ", "{`", "<A {...{"] {
        assert_linear(unit, |text| examined(|| inline_pieces(text, |_| {})), unit);
    }
}

#[test]
fn flow_jsx_scans_are_linear() {
    for unit in ["<a x=\"\n", "{\n", "<Card title=\"x\" {\n", "<a\n"] {
        assert_linear(unit, |text| examined(|| drop(blocks(text))), unit);
    }
}

#[test]
fn esm_scans_are_linear() {
    for unit in [
        "import {\n\n",
        "export const x = (\n\n",
        "export default [\n\n",
    ] {
        assert_linear(unit, |text| esm_read(|| drop(blocks(text))), unit);
    }
}

#[test]
fn ordinary_pages_keep_their_tags_within_the_budget() {
    // A long page with many `<` that open no tag (prose comparisons, autolinks) and expressions
    // still finds the tag at its end.
    let mut body =
        "<https://x.dev> a < b and c <= d, x<y, {props.count} <b>bold</b>\n".repeat(20_000);
    body.push_str("\n<Note>\nend\n</Note>\n");
    let found = blocks(&body)
        .iter()
        .any(|b| matches!(b, super::mdx::Block::Tag(t) if t.name == "Note"));
    assert!(found);
    let mut last_tag = "";
    inline_pieces(&body, |piece| {
        if let super::walk::InlinePiece::Tag(tag) = piece {
            last_tag = tag.name;
        }
    });
    assert_eq!(last_tag, "Note");
}
