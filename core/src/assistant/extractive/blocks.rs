//! Passage text -> blocks the extractive answer can quote: prose sentences, whole lists, table rows,
//! code. Cleans MDX/JSX and link syntax out of the quotable text, because the answer is rendered by
//! a chat client that knows nothing of the site's components or relative links.

use crate::docs::sections::{callout_text, fence_title};
use crate::text::is_cjk;

/// Sentences longer than this are cut at a word: a run-on table cell or a minified blob is not an
/// answer sentence.
const MAX_SENTENCE_CHARS: usize = 400;

#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// One paragraph, split into sentences.
    Prose(Vec<String>),
    /// A callout's paragraph (`> ` lines of the section text), split into sentences: quotable, but
    /// an aside, not what an answer leads with.
    Aside(Vec<String>),
    /// Consecutive list items with their markers (`- ` or `1. `), quoted whole so steps stay in order.
    List(Vec<String>),
    /// Cards, tabs or steps as `- Label: line` items, each quotable on its own (`card_items`).
    Cards(Vec<String>),
    /// A table, one rendered line per body row (`a — b — c`); the header row is dropped.
    Table(Vec<String>),
    /// A fenced code block; `lang` is the fence's first word, `title` the file or caption it names
    /// (```` ``` Shuttle.toml ```` in the index's text, where a fence keeps no language).
    Code {
        lang: String,
        title: String,
        code: String,
    },
    /// A diagram's source ([`is_diagram`]): it draws on a page and reads as noise in an answer, so
    /// it is never quoted; its words still tell what the passage is about.
    Diagram(String),
}

/// Splits a passage's text into blocks. Never fails: anything unrecognised is prose.
pub fn parse_blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut lines = text.lines().peekable();
    let mut prose: Vec<String> = Vec::new();
    let mut list: Vec<String> = Vec::new();
    let mut table: Vec<String> = Vec::new();
    let mut aside = false;

    while let Some(raw) = lines.next() {
        let line = raw.trim();
        let (in_aside, line) = match callout_text(line) {
            Some(text) => (true, text),
            None => (false, line),
        };
        if in_aside != aside {
            flush(&mut blocks, &mut prose, &mut list, &mut table, aside);
            aside = in_aside;
        }
        if let Some(fence) = fence_of(line) {
            flush(&mut blocks, &mut prose, &mut list, &mut table, aside);
            let info = &line[fence.len()..];
            let (lang, title) = match fence_title(info) {
                Some(title) => ("", title),
                None => (info.split_whitespace().next().unwrap_or(""), ""),
            };
            let title = title.to_string();
            let lang: String = lang
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '+' | '_'))
                .collect();
            let indent = raw.len() - raw.trim_start().len();
            let mut code_lines: Vec<&str> = Vec::new();
            for inner in lines.by_ref() {
                if inner.trim() == fence
                    || (inner.trim().starts_with(fence)
                        && inner.trim().chars().all(|c| c == fence_char(fence)))
                {
                    break;
                }
                code_lines.push(strip_indent(inner, indent));
            }
            let code = code_lines.join("\n");
            if !code.trim().is_empty() {
                let code = code.trim_end().to_string();
                blocks.push(match is_diagram(&lang, &code) {
                    true => Block::Diagram(code),
                    false => Block::Code { lang, title, code },
                });
            }
            continue;
        }
        if is_skippable(line) {
            continue;
        }
        // Component tags (`<Step>`, `</Note>`) and sub-headings delimit content like a blank line.
        if line.is_empty()
            || is_heading(line)
            || (line.starts_with('<') && clean_inline(line).is_empty())
        {
            flush(&mut blocks, &mut prose, &mut list, &mut table, aside);
            continue;
        }
        if let Some(item) = list_item(line) {
            // Only one of prose/list/table is ever open, so flushing all closes the other kind.
            if !prose.is_empty() || !table.is_empty() {
                flush(&mut blocks, &mut prose, &mut list, &mut table, aside);
            }
            let cleaned = clean_inline(&item.1);
            if !cleaned.is_empty() {
                list.push(format!("{}{}", item.0, cap(&cleaned)));
            }
            continue;
        }
        if line.starts_with('|') {
            if !prose.is_empty() || !list.is_empty() {
                flush(&mut blocks, &mut prose, &mut list, &mut table, aside);
            }
            table.push(line.to_string());
            continue;
        }
        if !list.is_empty() || !table.is_empty() {
            flush(&mut blocks, &mut prose, &mut list, &mut table, aside);
        }
        let cleaned = clean_inline(line);
        if !cleaned.is_empty() {
            prose.push(cleaned);
        }
    }
    flush(&mut blocks, &mut prose, &mut list, &mut table, aside);
    blocks
}

fn flush(
    blocks: &mut Vec<Block>,
    prose: &mut Vec<String>,
    list: &mut Vec<String>,
    table: &mut Vec<String>,
    aside: bool,
) {
    let cards = card_items(prose);
    if !prose.is_empty() {
        // Lines of one paragraph are separate source blocks; each is split on its own so a line
        // without final punctuation does not swallow the next.
        let sentences: Vec<String> = prose
            .drain(..)
            .flat_map(|l| split_sentences(&l))
            .map(|s| cap(&s))
            .collect();
        if !sentences.is_empty() {
            blocks.push(if aside {
                Block::Aside(sentences)
            } else {
                Block::Prose(sentences)
            });
        }
    }
    if !cards.is_empty() {
        blocks.push(Block::Cards(cards));
    }
    if !list.is_empty() {
        blocks.push(Block::List(std::mem::take(list)));
    }
    if !table.is_empty() {
        let rows = table_rows(&std::mem::take(table));
        if !rows.is_empty() {
            blocks.push(Block::Table(rows));
        }
    }
}

/// Cards, tabs and steps leave a run of lines alternating a label (the card's title) and one
/// line about it. Quoted as sentences they would run together ("Classic documentation theme …
/// Sophisticated fintech theme …" with no theme named); kept whole as `- Label: line` items they read
/// as the list they are on the page. Takes the trailing run of at least two such pairs out of `prose`.
fn card_items(prose: &mut Vec<String>) -> Vec<String> {
    let mut start = prose.len();
    // A label right after another label is a hero's title under its eyebrow, not a card's.
    while start >= 2
        && is_fragment(&prose[start - 2])
        && !is_fragment(&prose[start - 1])
        && (start == 2 || !is_fragment(&prose[start - 3]))
    {
        start -= 2;
    }
    if prose.len() - start < 4 {
        return Vec::new();
    }
    prose
        .drain(start..)
        .collect::<Vec<_>>()
        .chunks(2)
        .map(|pair| format!("- {}: {}", pair[0], pair[1]))
        .collect()
}

/// A line that is a label, not a sentence: a component's title or name attribute, a caption, a
/// color swatch's name ("Primary", "primary-500"). Quoted, such lines run together into nonsense
/// ("Primary primary-500 primary-600"); they still make the passage relevant.
pub(super) fn is_fragment(line: &str) -> bool {
    let ends = line.trim_end().ends_with([
        '.', '!', '?', ':', ';', ')', '。', '！', '？', '：', '；', '）', '…',
    ]);
    let cjk = line.chars().filter(|&c| is_cjk(c)).count();
    let words = line.split_whitespace().count() + cjk / 2;
    !ends && words < 4
}

fn fence_of(line: &str) -> Option<&'static str> {
    if line.starts_with("````") {
        Some("````")
    } else if line.starts_with("```") {
        Some("```")
    } else if line.starts_with("~~~") {
        Some("~~~")
    } else {
        None
    }
}

fn fence_char(fence: &str) -> char {
    fence.chars().next().unwrap_or('`')
}

/// Removes the fence's own indentation from code lines (fences inside `<Step>` are indented).
fn strip_indent(line: &str, indent: usize) -> &str {
    let leading = line.len() - line.trim_start().len();
    let cut = leading.min(indent);
    line.get(cut..).unwrap_or(line)
}

fn is_heading(line: &str) -> bool {
    line.starts_with('#') && line.trim_start_matches('#').starts_with(' ')
}

/// Lines that are markup, not content: MDX imports/exports and comments.
fn is_skippable(line: &str) -> bool {
    if (line.starts_with("import ") && line.contains(" from "))
        || line.starts_with("export const ")
        || line.starts_with("export default ")
    {
        return true;
    }
    line.starts_with("{/*") || line.starts_with("<!--")
}

/// `("- ", text)` or `("1. ", text)` for a list line.
fn list_item(line: &str) -> Option<(String, String)> {
    for marker in ["- ", "* ", "+ ", "• "] {
        if let Some(rest) = line.strip_prefix(marker) {
            return Some(("- ".to_string(), rest.trim().to_string()));
        }
    }
    let digits: String = line.chars().take_while(|c| c.is_ascii_digit()).collect();
    if !digits.is_empty() && digits.len() <= 3 {
        let rest = &line[digits.len()..];
        if let Some(rest) = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")) {
            return Some((format!("{digits}. "), rest.trim().to_string()));
        }
    }
    None
}

fn table_rows(lines: &[String]) -> Vec<String> {
    let parsed: Vec<Vec<String>> = lines
        .iter()
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(|c| clean_inline(c.trim()))
                .collect()
        })
        .collect();
    let is_separator = |row: &Vec<String>| {
        row.iter()
            .all(|c| c.chars().all(|ch| matches!(ch, '-' | ':' | ' ')))
    };
    let has_header = parsed.get(1).map(is_separator).unwrap_or(false);
    parsed
        .iter()
        .enumerate()
        .filter(|(i, row)| (!has_header || *i != 0) && !is_separator(row))
        .map(|(_, row)| {
            row.iter()
                .filter(|c| !c.is_empty())
                .cloned()
                .collect::<Vec<_>>()
                .join(" — ")
        })
        .filter(|r| !r.is_empty())
        .map(|r| format!("- {}", cap(&r)))
        .collect()
}

/// Strips JSX/HTML tags, MDX comments and link syntax outside inline code; collapses whitespace.
pub fn clean_inline(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut in_code = false;
    while let Some(&c) = chars.get(i) {
        if c == '`' {
            in_code = !in_code;
            out.push(c);
            i += 1;
            continue;
        }
        if in_code {
            out.push(c);
            i += 1;
            continue;
        }
        if c == '{' && chars.get(i + 1) == Some(&'/') && chars.get(i + 2) == Some(&'*') {
            i = find_after(&chars, i, "*/}").unwrap_or(chars.len());
            continue;
        }
        if c == '<' && chars.get(i + 1) == Some(&'!') {
            i = find_after(&chars, i, "-->").unwrap_or(chars.len());
            continue;
        }
        if c == '<'
            && chars
                .get(i + 1)
                .is_some_and(|n| n.is_ascii_alphabetic() || *n == '/')
        {
            if let Some(end) = tag_end(&chars, i) {
                i = end;
                out.push(' ');
                continue;
            }
        }
        if c == '!' && chars.get(i + 1) == Some(&'[') {
            if let Some((_, end)) = link_at(&chars, i + 1) {
                i = end;
                continue;
            }
        }
        if c == '[' {
            if let Some((label, end)) = link_at(&chars, i) {
                out.push_str(&label);
                i = end;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("{' '}", " ")
        .trim()
        .to_string()
}

/// Index just past the `>` closing a tag that starts at `start`, honouring quoted attributes.
fn tag_end(chars: &[char], start: usize) -> Option<usize> {
    let mut quote: Option<char> = None;
    let mut depth = 0usize;
    for (offset, &c) in chars.get(start + 1..)?.iter().enumerate() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '{') => depth += 1,
            (None, '}') => depth = depth.saturating_sub(1),
            (None, '>') if depth == 0 => return Some(start + 1 + offset + 1),
            (None, '<') if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// `[label](target)` at `start`: the label and the index past `)`.
fn link_at(chars: &[char], start: usize) -> Option<(String, usize)> {
    let close = start + chars.get(start..)?.iter().position(|&c| c == ']')?;
    if chars.get(close + 1) != Some(&'(') {
        return None;
    }
    let end = close + 1 + chars.get(close + 1..)?.iter().position(|&c| c == ')')?;
    let label: String = chars.get(start + 1..close)?.iter().collect();
    Some((label, end + 1))
}

fn find_after(chars: &[char], start: usize, pat: &str) -> Option<usize> {
    let pat: Vec<char> = pat.chars().collect();
    chars
        .get(start..)?
        .windows(pat.len())
        .position(|w| w == pat.as_slice())
        .map(|p| start + p + pat.len())
}

/// Splits prose into sentences at `.`/`!`/`?` followed by space, and right after CJK full stops,
/// never inside inline code and not after common abbreviations.
pub fn split_sentences(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut current = String::new();
    let mut in_code = false;
    for (i, &c) in chars.iter().enumerate() {
        current.push(c);
        if c == '`' {
            in_code = !in_code;
        }
        if in_code {
            continue;
        }
        let cut = match c {
            '。' | '！' | '？' => true,
            '.' | '!' | '?' => {
                chars.get(i + 1).is_none_or(|n| n.is_whitespace())
                    && !ends_with_abbreviation(&current)
                    && chars.get(i + 2).is_none_or(|n| !n.is_lowercase())
            }
            _ => false,
        };
        if cut {
            let s = current.trim();
            if !s.is_empty() {
                out.push(s.to_string());
            }
            current.clear();
        }
    }
    let rest = current.trim();
    if !rest.is_empty() {
        out.push(rest.to_string());
    }
    out
}

fn ends_with_abbreviation(sentence: &str) -> bool {
    let last = sentence
        .split_whitespace()
        .last()
        .unwrap_or("")
        .to_lowercase();
    [
        "e.g.", "i.e.", "etc.", "vs.", "approx.", "ex.", "p.ej.", "cf.",
    ]
    .contains(&last.as_str())
}

fn cap(text: &str) -> String {
    if text.chars().count() <= MAX_SENTENCE_CHARS {
        return text.to_string();
    }
    let cut: String = text.chars().take(MAX_SENTENCE_CHARS).collect();
    let cut = match cut.rfind(' ') {
        Some(at) if at > MAX_SENTENCE_CHARS / 2 => cut.get(..at).unwrap_or(&cut).to_string(),
        _ => cut,
    };
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_english_and_chinese_sentences() {
        assert_eq!(
            split_sentences("Run `mint export`. It builds e.g. pages. Done? Yes!"),
            vec![
                "Run `mint export`.",
                "It builds e.g. pages.",
                "Done?",
                "Yes!"
            ]
        );
        assert_eq!(
            split_sentences("启动导出任务。然后轮询状态！完成"),
            vec!["启动导出任务。", "然后轮询状态！", "完成"]
        );
        assert_eq!(
            split_sentences("Version v1.2 is out."),
            vec!["Version v1.2 is out."]
        );
    }

    #[test]
    fn cleans_jsx_links_and_comments_but_not_inline_code() {
        assert_eq!(
            clean_inline(
                r##"<Icon icon="check" color="#16a" /> See [Start job](/api/start) {/* x */} and `--output <path>`."##
            ),
            "See Start job and `--output <path>`."
        );
        assert_eq!(
            clean_inline("![diagram](/img.png) Text <Note>inside</Note>"),
            "Text inside"
        );
        assert_eq!(clean_inline("a < b and c > d"), "a < b and c > d");
    }

    #[test]
    fn callout_lines_are_asides_apart_from_the_prose_around_them() {
        let blocks = parse_blocks("Hidden pages stay reachable.\n> Not private. Anyone can read them.\n> - a list in the note\nBack to prose.");
        assert_eq!(
            blocks,
            vec![
                Block::Prose(vec!["Hidden pages stay reachable.".into()]),
                Block::Aside(vec!["Not private.".into(), "Anyone can read them.".into()]),
                Block::List(vec!["- a list in the note".into()]),
                Block::Prose(vec!["Back to prose.".into()]),
            ]
        );
        // A `>` that is not the line's quote marker is text.
        assert_eq!(
            parse_blocks(">= 2 replicas."),
            vec![Block::Prose(vec![">= 2 replicas.".into()])]
        );
    }

    #[test]
    fn parses_prose_lists_tables_and_code() {
        let text = "Intro sentence. Second one.\n\
            <Steps>\n\
            1. Unzip the archive.\n\
            2. Run `node serve.js`.\n\
            </Steps>\n\
            | Flag | Description |\n|---|---|\n| `--output` | Output path. |\n\
            ```bash title\n  mint export\n```\n\
            import X from '/snippets/x.mdx'\n\
            ## Heading\n\
            Tail.";
        let blocks = parse_blocks(text);
        assert_eq!(
            blocks,
            vec![
                Block::Prose(vec!["Intro sentence.".into(), "Second one.".into()]),
                Block::List(vec![
                    "1. Unzip the archive.".into(),
                    "2. Run `node serve.js`.".into()
                ]),
                Block::Table(vec!["- `--output` — Output path.".into()]),
                Block::Code {
                    lang: "bash".into(),
                    title: String::new(),
                    code: "  mint export".into()
                },
                Block::Prose(vec!["Tail.".into()]),
            ]
        );
    }

    #[test]
    fn a_run_of_card_titles_and_their_lines_is_a_list_of_cards() {
        let text = "Core Concepts\nThemes\nConfigure the theme in docs.json.\nMint\nClassic theme.\nMaple\nModern, clean aesthetics.";
        assert_eq!(
            parse_blocks(text),
            vec![
                Block::Prose(vec![
                    "Core Concepts".into(),
                    "Themes".into(),
                    "Configure the theme in docs.json.".into()
                ]),
                Block::Cards(vec![
                    "- Mint: Classic theme.".into(),
                    "- Maple: Modern, clean aesthetics.".into()
                ]),
            ]
        );
        // One label and its line is a field, not a grid.
        assert!(matches!(
            parse_blocks("Intro.\ndismissible\nWhether it can be closed.")[..],
            [Block::Prose(_)]
        ));
    }

    #[test]
    fn indented_fence_is_dedented_and_unclosed_fence_is_kept() {
        let blocks =
            parse_blocks("    ``` values.yaml\n    a: 1\n      b: 2\n    ```\n```sh\nnever closed");
        assert_eq!(
            blocks,
            vec![
                // The index's text names a block's file after its fence and a space.
                Block::Code {
                    lang: String::new(),
                    title: "values.yaml".into(),
                    code: "a: 1\n  b: 2".into()
                },
                Block::Code {
                    lang: "sh".into(),
                    title: String::new(),
                    code: "never closed".into()
                },
            ]
        );
    }

    #[test]
    fn long_sentences_are_capped_on_char_boundaries() {
        let s = "长".repeat(1000);
        let blocks = parse_blocks(&s);
        let Block::Prose(sentences) = &blocks[0] else {
            panic!("{blocks:?}")
        };
        assert_eq!(sentences[0].chars().count(), MAX_SENTENCE_CHARS + 1);
    }
}

/// The diagram types a Mermaid source opens with (mermaid.js.org, "Diagram Syntax"); section text
/// may have lost the fence's `mermaid`, so the first line is read too.
const MERMAID_DIAGRAMS: [&str; 22] = [
    "graph",
    "flowchart",
    "sequenceDiagram",
    "classDiagram",
    "stateDiagram",
    "stateDiagram-v2",
    "erDiagram",
    "journey",
    "gantt",
    "pie",
    "quadrantChart",
    "requirementDiagram",
    "gitGraph",
    "C4Context",
    "mindmap",
    "timeline",
    "sankey-beta",
    "xychart-beta",
    "block-beta",
    "packet-beta",
    "architecture-beta",
    "kanban",
];

fn is_diagram(lang: &str, code: &str) -> bool {
    if lang.eq_ignore_ascii_case("mermaid") {
        return true;
    }
    let Some(first) = code
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("%%"))
    else {
        return false;
    };
    let mut words = first.split_whitespace();
    // `graph = build()` or `pie(chart)` is code that names a variable so; a diagram's first line
    // is its type and at most a direction or a title.
    let typed = words.next().is_some_and(|w| MERMAID_DIAGRAMS.contains(&w));
    typed && !first.contains(['=', '(', ')', '{', ';', ':', '.'])
}

#[cfg(test)]
mod diagram_tests {
    use super::is_diagram;

    #[test]
    fn a_diagram_is_told_by_its_fence_or_its_first_line() {
        assert!(is_diagram("mermaid", "a --> b"));
        assert!(is_diagram("", "%% a comment\nflowchart LR\n  A --> B"));
        assert!(is_diagram("", "sequenceDiagram\n  A->>B: hi"));
        assert!(!is_diagram("python", "graph = build_graph()\npie(chart)"));
        assert!(!is_diagram("", "pie(chart)"));
        assert!(!is_diagram("", "npm install"));
    }
}
