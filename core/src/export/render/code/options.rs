//! A fence's info string, read the way the Mintlify format documents its code-block options:
//! ```` ```lang Title words title="t" icon=x {1,3-4} highlight={1} focus=2,4 lines wrap expandable nocopy ````.
//! Values may be bare, quoted (`""`, `''`) or in braces; unknown `key=value` options are ignored,
//! other bare words are the title.

/// Lines (1-based) named by `{1,3-4}`, `highlight=…` or `focus=…`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct LineSet(Vec<(usize, usize)>);

impl LineSet {
    /// `1,3-4`, `[1,3,4]` or `{2,4-5}`; malformed parts are skipped, reversed ranges turned round.
    fn parse(value: &str) -> Self {
        let inner = value
            .trim()
            .trim_start_matches(['{', '['])
            .trim_end_matches(['}', ']']);
        let ranges = inner
            .split(',')
            .filter_map(|part| {
                let (a, b) = part.split_once('-').unwrap_or((part, part));
                let (a, b) = (
                    a.trim().parse::<usize>().ok()?,
                    b.trim().parse::<usize>().ok()?,
                );
                Some((a.min(b), a.max(b)))
            })
            .collect();
        LineSet(ranges)
    }

    pub(crate) fn contains(&self, line: usize) -> bool {
        self.0.iter().any(|&(a, b)| (a..=b).contains(&line))
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn extend(&mut self, other: LineSet) {
        self.0.extend(other.0);
    }
}

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct CodeOptions {
    /// The grammar's name as written (`ts`, `python`), lowercased and safe as a class token; empty
    /// when the fence names none.
    pub lang: String,
    pub title: String,
    pub icon: Option<String>,
    pub highlight: LineSet,
    pub focus: LineSet,
    pub lines: bool,
    pub wrap: bool,
    pub expandable: bool,
    pub nocopy: bool,
}

/// Flags that are never title words.
const FLAGS: &[&str] = &[
    "lines",
    "wrap",
    "expandable",
    "nocopy",
    "twoslash",
    "focus",
    "copy",
];

impl CodeOptions {
    pub(crate) fn parse(info: &str) -> Self {
        let mut words = split_words(info.trim()).into_iter();
        let mut opts = CodeOptions::default();
        let first = words.next().unwrap_or_default();
        // ```js{1,3} is the language with a range attached.
        let (lang, attached) = match first.find('{') {
            Some(i) => (&first[..i], Some(&first[i..])),
            None => (first.as_str(), None),
        };
        if lang.eq_ignore_ascii_case("nocopy") {
            opts.nocopy = true;
        } else {
            opts.lang = crate::export::html::class_token(lang);
        }
        if let Some(range) = attached {
            opts.highlight.extend(LineSet::parse(range));
        }
        let mut title = Vec::new();
        for word in words {
            if word.starts_with('{') {
                opts.highlight.extend(LineSet::parse(&word));
                continue;
            }
            let Some((key, value)) = word.split_once('=') else {
                match word.as_str() {
                    "lines" => opts.lines = true,
                    "wrap" => opts.wrap = true,
                    "expandable" => opts.expandable = true,
                    "nocopy" => opts.nocopy = true,
                    w if FLAGS.contains(&w) => {}
                    _ => title.push(word),
                }
                continue;
            };
            let value = unquote(value);
            match key {
                "title" | "filename" => title = vec![value.to_owned()],
                "icon" => opts.icon = Some(value.to_owned()).filter(|v| !v.is_empty()),
                "highlight" => opts.highlight.extend(LineSet::parse(value)),
                "focus" => opts.focus.extend(LineSet::parse(value)),
                "lines" => opts.lines = truthy(value),
                "wrap" => opts.wrap = truthy(value),
                "expandable" => opts.expandable = truthy(value),
                "nocopy" => opts.nocopy = truthy(value),
                _ => {}
            }
        }
        opts.title = title.join(" ");
        opts
    }
}

/// `nocopy="false"` and `lines={false}` switch an option off; anything else leaves it on.
fn truthy(value: &str) -> bool {
    !matches!(value.trim_matches(['{', '}']), "false" | "0")
}

fn unquote(value: &str) -> &str {
    let v = value.trim();
    for (open, close) in [('"', '"'), ('\'', '\''), ('{', '}')] {
        if let Some(inner) = v.strip_prefix(open).and_then(|s| s.strip_suffix(close)) {
            return inner;
        }
    }
    v
}

/// Splits at spaces outside quotes and braces, so `title="a b"` and `{1, 3}` stay one word.
fn split_words(info: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut braces = 0usize;
    for c in info.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') if braces == 0 => quote = Some(c),
            (None, '{') => braces += 1,
            (None, '}') => braces = braces.saturating_sub(1),
            (None, c) if c.is_whitespace() && braces == 0 => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                continue;
            }
            _ => {}
        }
        word.push(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn title_words_follow_the_language_and_flags_are_not_title() {
        let o = CodeOptions::parse("java HelloWorld.java example icon=java lines theme={null}");
        assert_eq!(o.lang, "java");
        assert_eq!(o.title, "HelloWorld.java example");
        assert_eq!(o.icon.as_deref(), Some("java"));
        assert!(o.lines && !o.wrap && !o.nocopy);
    }

    #[test]
    fn quoted_title_and_icon_keep_their_spaces() {
        let o = CodeOptions::parse("text title=\"No copy example\" icon=\"square-js\" nocopy");
        assert_eq!(o.title, "No copy example");
        assert_eq!(o.icon.as_deref(), Some("square-js"));
        assert!(o.nocopy);
    }

    #[test]
    fn a_bare_nocopy_is_a_flag_not_a_language_or_title() {
        let o = CodeOptions::parse("nocopy");
        assert_eq!(
            (o.lang.as_str(), o.title.as_str(), o.nocopy),
            ("", "", true)
        );
        let o = CodeOptions::parse("bash nocopy");
        assert_eq!(
            (o.lang.as_str(), o.title.as_str(), o.nocopy),
            ("bash", "", true)
        );
        assert!(!CodeOptions::parse("bash nocopy=\"false\"").nocopy);
    }

    #[test]
    fn highlight_ranges_come_from_braces_highlight_and_an_attached_range() {
        let o = CodeOptions::parse("javascript Line highlighting example {1,2,5}");
        assert_eq!(o.title, "Line highlighting example");
        assert!(o.highlight.contains(1) && o.highlight.contains(5) && !o.highlight.contains(3));
        let o = CodeOptions::parse("js highlight={1-2, 5}");
        assert!(o.highlight.contains(2) && !o.highlight.contains(3) && o.highlight.contains(5));
        let o = CodeOptions::parse("ts{3-4}");
        assert_eq!(o.lang, "ts");
        assert!(o.highlight.contains(4) && !o.highlight.contains(1));
        assert!(CodeOptions::parse("js highlight=\"[1,3]\"")
            .highlight
            .contains(3));
    }

    #[test]
    fn focus_takes_bare_and_braced_lists() {
        let o = CodeOptions::parse("javascript Line focusing example focus=2,4,5");
        assert_eq!(o.title, "Line focusing example");
        assert!(o.focus.contains(4) && !o.focus.contains(3));
        assert!(CodeOptions::parse("js focus={2,4-5}").focus.contains(5));
    }

    #[test]
    fn titles_with_quotes_ranges_and_no_info() {
        let o = CodeOptions::parse("js title=\"a b.js\" lines");
        assert_eq!(
            (o.lang.as_str(), o.title.as_str(), o.lines),
            ("js", "a b.js", true)
        );
        let o = CodeOptions::parse("yaml values.yaml {1,3}");
        assert_eq!((o.lang.as_str(), o.title.as_str()), ("yaml", "values.yaml"));
        assert_eq!(CodeOptions::parse(""), CodeOptions::default());
    }

    #[test]
    fn wrap_and_expandable_are_flags() {
        let o = CodeOptions::parse("python Expandable example expandable wrap");
        assert!(o.expandable && o.wrap);
        assert_eq!(o.title, "Expandable example");
    }
}
