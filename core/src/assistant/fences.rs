//! A retrieved piece of a long section may start or end inside a code block: the index cuts a
//! section whose code runs past a chunk's size wherever it must (`search::chunk`), and stores the
//! pieces as they are, so that they concatenate back to the section. Read alone, such a piece pairs
//! its fences the wrong way: the code before its first fence reads as prose and the prose after it
//! as code. A piece with an unmatched fence gets the fence it lacks, at the end where the text reads
//! as code.

use std::borrow::Cow;

use crate::docs::sections::is_fence_line;

/// `piece` with its fences paired: unchanged when they already pair.
pub fn balance_fences(piece: &str) -> Cow<'_, str> {
    let lines: Vec<&str> = piece.lines().collect();
    let fences: Vec<usize> = (0..lines.len())
        .filter(|&i| is_fence_line(lines[i]))
        .collect();
    let (Some(&first), Some(&last)) = (fences.first(), fences.last()) else {
        return Cow::Borrowed(piece);
    };
    if fences.len().is_multiple_of(2) {
        return Cow::Borrowed(piece);
    }
    let before = code_likeness(&lines[..first]);
    let after = code_likeness(&lines[last + 1..]);
    if before > after {
        Cow::Owned(format!("```\n{piece}"))
    } else {
        Cow::Owned(format!("{}\n```", piece.trim_end_matches('\n')))
    }
}

/// Lines that read as code count up, lines that read as sentences count down.
fn code_likeness(lines: &[&str]) -> i32 {
    lines.iter().map(|line| line_kind(line.trim())).sum()
}

fn line_kind(line: &str) -> i32 {
    if line.is_empty() {
        return 0;
    }
    let words = line.split_whitespace().count();
    let sentence = words >= 4
        && line.chars().next().is_some_and(char::is_alphabetic)
        && line.ends_with(['.', '!', '?', ':', '。', '：']);
    let code = line.ends_with(['{', '}', ';', ',', '(', ')', '[', ']'])
        || line.starts_with(['{', '}', '[', ']', '<', '#', '/', '$', '"', '\''])
        || line.contains(" = ")
        || line.contains("=>")
        || line.contains("\": ")
        || (words == 1 && line.ends_with(':'))
        || line.contains("();");
    match (code, sentence) {
        (true, false) => 1,
        (false, true) => -1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_starting_inside_a_block_gets_its_opening_fence() {
        let piece = "  postgres:\n    image: postgres:17\n    ports:\n      - \"5432:5432\"\n```\n\
                     You can create API keys with the gateway binary and the `--create-api-key` flag.";
        let fixed = balance_fences(piece);
        assert!(fixed.starts_with("```\n  postgres:"), "{fixed}");
        assert!(fixed.ends_with("flag."), "{fixed}");
    }

    #[test]
    fn a_piece_ending_inside_a_block_gets_its_closing_fence() {
        let piece = "Create the configuration file first, then start the server:\n```\n\
                     server {\n  listen 80;";
        let fixed = balance_fences(piece);
        assert!(fixed.starts_with("Create"), "{fixed}");
        assert!(fixed.ends_with("listen 80;\n```"), "{fixed}");
    }

    #[test]
    fn paired_fences_and_plain_prose_are_left_alone() {
        for piece in [
            "Run this:\n```\nnpm start\n```\nThen open the page.",
            "No code here.",
        ] {
            assert!(matches!(balance_fences(piece), Cow::Borrowed(_)));
        }
    }
}
