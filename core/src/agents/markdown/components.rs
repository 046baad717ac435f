//! MDX components and inline HTML -> Markdown shapes. Components become the Markdown an author would
//! have written by hand (callouts as quotes, steps as a numbered list, fields and cards as list
//! items with their attributes spelled out); nothing with text is dropped, only scripts and styles.

use crate::docs::jsx::{is_callout, Tag, TagKind};
use crate::docs::sections::field_name;

use super::escape;

/// What a tag standing on its own line(s) becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BlockShape {
    /// Only the children are written.
    Transparent,
    /// Children are numbered as steps.
    Numbered,
    /// A container: `head` (a paragraph, may be empty) then the children, every line prefixed with
    /// `first` (the first line) or `rest`; `numbered` items take the next number as `first`;
    /// `tail` is a paragraph written when it closes.
    Container {
        first: String,
        rest: String,
        head: String,
        tail: String,
        numbered: bool,
    },
    /// One self-contained block with no children (`Tree.File`, `Color.Item`).
    Leaf(String),
    /// The tag and everything up to its close are dropped (`<script>`, `<style>`).
    Suppress,
}

/// What a tag inside a line of text becomes: markup written at its open and at its close.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct InlineShape {
    pub(crate) open: String,
    pub(crate) close: String,
    /// Nothing to close (`<br>`, `<img>`), even when written without `/>`.
    pub(crate) void: bool,
    /// Children up to the close are dropped.
    pub(crate) suppress: bool,
}

/// Where links and media point: the caller's rules (bundle-relative or absolute URLs).
pub(crate) trait Urls {
    fn href(&self, url: &str) -> String;
    fn media(&self, url: &str) -> String;
}

fn quote(title: &str) -> String {
    let label = title.trim();
    format!("> **{}**", escape::text(label))
}

fn bold(text: &str) -> String {
    if text.trim().is_empty() {
        String::new()
    } else {
        format!("**{}**", escape::text(text.trim()))
    }
}

pub(crate) fn block(tag: &Tag<'_>, urls: &dyn Urls) -> BlockShape {
    if tag.name.starts_with(|c: char| c.is_ascii_lowercase()) {
        return match tag.name.to_ascii_lowercase().as_str() {
            "script" | "style" | "template" => BlockShape::Suppress,
            _ => BlockShape::Transparent,
        };
    }
    let text = |name: &str| tag.text_attr(name).map(str::trim).filter(|t| !t.is_empty());
    let container = |first: &str, rest: &str, head: String| BlockShape::Container {
        first: first.to_owned(),
        rest: rest.to_owned(),
        head,
        tail: String::new(),
        numbered: false,
    };
    match tag.name {
        name if is_callout(name) => {
            let kind = if tag.name == "Callout" {
                "Note"
            } else {
                tag.name
            };
            let head = match text("title") {
                Some(title) => format!("{kind}: {title}"),
                None => kind.to_owned(),
            };
            // The head carries its own `> `; the container adds it to every later line.
            let head = quote(&head);
            BlockShape::Container {
                first: String::new(),
                rest: "> ".to_owned(),
                head,
                tail: String::new(),
                numbered: false,
            }
        }
        "Card" | "Tile" | "HeroCard" | "FeatureCard" | "ThemeCard" => {
            let title = text("title");
            let head = match (text("href"), title) {
                (Some(href), title) => link(title.unwrap_or("Open"), &urls.href(href)),
                (None, Some(title)) => bold(title),
                (None, None) => String::new(),
            };
            let mut shape = container("- ", "  ", head);
            if let (BlockShape::Container { tail, .. }, Some(cta)) = (&mut shape, text("cta")) {
                *tail = escape::text(cta);
            }
            shape
        }
        "Steps" => BlockShape::Numbered,
        "Step" => BlockShape::Container {
            first: String::new(),
            rest: "   ".to_owned(),
            head: bold(text("title").unwrap_or("")),
            tail: String::new(),
            numbered: true,
        },
        "Tab" => container("", "", bold(text("title").unwrap_or("Tab"))),
        "View" => container("", "", bold(text("title").unwrap_or("View"))),
        // Web-only content; `for="agents"` content is for this output (its children, as written).
        "Visibility" if text("for").is_some_and(|f| f.eq_ignore_ascii_case("humans")) => {
            BlockShape::Suppress
        }
        "RequestExample" => container("", "", bold("Request example")),
        "ResponseExample" => container("", "", bold("Response example")),
        "Accordion" | "Expandable" => {
            let fallback = if tag.name == "Accordion" {
                "Details"
            } else {
                "Properties"
            };
            let mut head = bold(text("title").unwrap_or(fallback));
            if let Some(description) = text("description") {
                head.push_str(" — ");
                head.push_str(&escape::text(description));
            }
            container("", "", head)
        }
        "Update" => {
            let mut head = bold(text("label").unwrap_or(""));
            if let Some(description) = text("description") {
                if !head.is_empty() {
                    head.push_str(" — ");
                }
                head.push_str(&escape::text(description));
            }
            container("", "", head)
        }
        "Prompt" => container("", "", bold(text("description").unwrap_or(""))),
        "Color.Row" => container("", "", bold(text("title").unwrap_or(""))),
        "Frame" => {
            let tail = [text("caption"), text("hint")]
                .into_iter()
                .flatten()
                .map(|t| format!("*{}*", escape::text(t)))
                .collect::<Vec<_>>()
                .join(" ");
            BlockShape::Container {
                first: String::new(),
                rest: String::new(),
                head: String::new(),
                tail,
                numbered: false,
            }
        }
        "ParamField" | "ResponseField" => container("- ", "  ", field_head(tag)),
        "Tree.Folder" => container(
            "- ",
            "  ",
            format!("{}/", escape::text(text("name").unwrap_or(""))),
        ),
        "Tree.File" => BlockShape::Leaf(format!("- {}", escape::text(text("name").unwrap_or("")))),
        "Color.Item" => {
            let value = text("value").unwrap_or("");
            let name = text("name")
                .map(|n| format!("{}: ", escape::text(n)))
                .unwrap_or_default();
            BlockShape::Leaf(format!("- {name}{}", code_span(value)))
        }
        // Layout only (CardGroup, Columns, Tabs, CodeGroup, AccordionGroup, Panel, Tree, ...) and
        // unknown components: their children are the content.
        _ => BlockShape::Transparent,
    }
}

/// `` `name` (type, query, required, default: `10`) `` for `ParamField` and `ResponseField`.
fn field_head(tag: &Tag<'_>) -> String {
    let (name, location) = field_name(tag);
    let mut notes: Vec<String> = Vec::new();
    if let Some(kind) = tag.text_attr("type").filter(|t| !t.trim().is_empty()) {
        notes.push(escape::text(kind.trim()));
    }
    notes.extend(location.map(str::to_owned));
    notes.extend(
        ["required", "deprecated"]
            .into_iter()
            .filter(|f| tag.flag(f))
            .map(str::to_owned),
    );
    if let Some(default) = tag.shown_value("default") {
        notes.push(format!("default: {}", code_span(default)));
    }
    let mut head = code_span(name);
    if !notes.is_empty() {
        head.push_str(&format!(" ({})", notes.join(", ")));
    }
    head
}

pub(crate) fn inline(tag: &Tag<'_>, urls: &dyn Urls) -> InlineShape {
    let pair = |open: &str, close: &str| InlineShape {
        open: open.to_owned(),
        close: close.to_owned(),
        ..InlineShape::default()
    };
    let name = tag.name;
    if name.starts_with(|c: char| c.is_ascii_lowercase()) {
        return match name.to_ascii_lowercase().as_str() {
            "script" | "style" | "template" => InlineShape {
                suppress: tag.kind == TagKind::Open,
                ..InlineShape::default()
            },
            "br" => InlineShape {
                open: "\n".into(),
                void: true,
                ..InlineShape::default()
            },
            "hr" | "source" | "wbr" => InlineShape {
                void: true,
                ..InlineShape::default()
            },
            "img" => {
                let src = tag.text_attr("src").unwrap_or("");
                let alt = tag.text_attr("alt").unwrap_or("");
                InlineShape {
                    open: if src.trim().is_empty() {
                        String::new()
                    } else {
                        image(alt, &urls.media(src))
                    },
                    void: true,
                    ..InlineShape::default()
                }
            }
            "iframe" | "video" | "audio" | "embed" | "object" => {
                let src = tag
                    .text_attr("src")
                    .or_else(|| tag.text_attr("data"))
                    .unwrap_or("");
                if src.trim().is_empty() {
                    return InlineShape::default();
                }
                let label = tag
                    .text_attr("title")
                    .filter(|t| !t.trim().is_empty())
                    .unwrap_or("Embedded media");
                InlineShape {
                    open: link(label, &urls.href(src)),
                    void: name == "embed",
                    suppress: name != "embed" && tag.kind == TagKind::Open,
                    ..InlineShape::default()
                }
            }
            "a" => match tag.text_attr("href") {
                Some(href) => pair("[", &format!("]({})", destination(&urls.href(href)))),
                None => InlineShape::default(),
            },
            "b" | "strong" => pair("**", "**"),
            "i" | "em" => pair("*", "*"),
            "del" | "s" => pair("~~", "~~"),
            "code" | "kbd" | "samp" => pair("`", "`"),
            _ => InlineShape::default(),
        };
    }
    match name {
        // A callout written on one line with its text: a labelled paragraph.
        name if is_callout(name) => {
            let kind = if name == "Callout" { "Note" } else { name };
            InlineShape {
                open: format!("**{kind}:** "),
                ..InlineShape::default()
            }
        }
        "Tooltip" => {
            let tip = [tag.text_attr("headline"), tag.text_attr("tip")]
                .into_iter()
                .flatten()
                .filter(|t| !t.trim().is_empty())
                .collect::<Vec<_>>()
                .join(": ");
            if tip.is_empty() {
                InlineShape::default()
            } else {
                pair("", &format!(" ({})", escape::text(&tip)))
            }
        }
        "Card" | "Tile" => {
            let title = tag.text_attr("title").unwrap_or("");
            let open = match tag.text_attr("href") {
                Some(href) => format!(
                    "{} ",
                    link(
                        if title.is_empty() { "Open" } else { title },
                        &urls.href(href)
                    )
                ),
                None if !title.trim().is_empty() => format!("{} ", bold(title)),
                None => String::new(),
            };
            InlineShape {
                open,
                ..InlineShape::default()
            }
        }
        // Icons are pictures; other components (and block ones inside a line) keep their children.
        _ => InlineShape::default(),
    }
}

/// `[label](url)`.
pub(crate) fn link(label: &str, url: &str) -> String {
    format!("[{}]({})", escape::text(label.trim()), destination(url))
}

pub(crate) fn image(alt: &str, url: &str) -> String {
    format!("![{}]({})", escape::text(alt.trim()), destination(url))
}

/// A link destination that survives any characters: `<…>` when it has spaces or parentheses.
pub(crate) fn destination(url: &str) -> String {
    if url.is_empty() {
        return "<>".to_owned();
    }
    if url.contains([' ', '(', ')', '<', '>']) || url.contains(char::is_control) {
        let cleaned: String = url
            .chars()
            .filter(|c| !matches!(c, '<' | '>') && !c.is_control())
            .collect();
        format!("<{cleaned}>")
    } else {
        url.to_owned()
    }
}

/// A code span holding `text` whatever backticks it contains.
pub(crate) fn code_span(text: &str) -> String {
    let text = text.replace('\n', " ");
    let longest = longest_run(&text, '`');
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

pub(crate) fn longest_run(text: &str, c: char) -> usize {
    let mut longest = 0;
    let mut run = 0;
    for ch in text.chars() {
        if ch == c {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}
