//! The JavaScript values MDX pages declare for their text (`export const name = "Acme"`,
//! `export const plan = { name: "Pro", seats: 5 }`): string, number, boolean and null literals and
//! arrays and objects of them, read into JSON values. Anything else (calls, arrow functions,
//! template literals with `${…}`) is not a value a page's text can show, and is not read.

use serde_json::{Map, Number, Value};

/// Deepest nesting of arrays and objects read.
const MAX_DEPTH: usize = 32;

/// The literal at the start of `src` (leading whitespace and comments skipped) and the bytes it
/// took, comments and whitespace after it included.
pub fn literal(src: &str) -> Option<(Value, usize)> {
    let mut reader = Reader {
        s: src.as_bytes(),
        src,
        i: 0,
    };
    let value = reader.value(0)?;
    reader.skip_space();
    Some((value, reader.i))
}

/// The object literal that `src` holds (leading whitespace and comments skipped), its properties in
/// the order they are written, which a JSON map keeps only in builds with serde_json's
/// `preserve_order`. A property written twice appears twice, the later one last.
pub fn object_entries(src: &str) -> Option<Vec<(String, Value)>> {
    let mut reader = Reader {
        s: src.as_bytes(),
        src,
        i: 0,
    };
    reader.skip_space();
    (reader.s.get(reader.i) == Some(&b'{')).then_some(())?;
    reader.entries(0)
}

/// `value` as React shows it in text: strings and numbers as written, `true`, `false` and `null`
/// as nothing, an array as its items one after the other; `None` for an object (React refuses to
/// render one).
pub fn shown(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(number_text(n)),
        Value::Bool(_) | Value::Null => Some(String::new()),
        Value::Array(items) => items.iter().map(shown).collect(),
        Value::Object(_) => None,
    }
}

/// As JavaScript prints it: `5`, not `5.0`.
fn number_text(n: &Number) -> String {
    match n.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => format!("{}", f as i64),
        _ => n.to_string(),
    }
}

struct Reader<'a> {
    s: &'a [u8],
    src: &'a str,
    i: usize,
}

impl Reader<'_> {
    fn skip_space(&mut self) {
        loop {
            while self.s.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
                self.i += 1;
            }
            let rest = &self.src[self.i..];
            if rest.starts_with("//") {
                self.i += rest.find('\n').unwrap_or(rest.len());
            } else if let Some(body) = rest.strip_prefix("/*") {
                match body.find("*/") {
                    Some(end) => self.i += end + 4,
                    None => self.i = self.s.len(),
                }
            } else {
                return;
            }
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.skip_space();
        let found = self.s.get(self.i) == Some(&c);
        if found {
            self.i += 1;
        }
        found
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        self.skip_space();
        match *self.s.get(self.i)? {
            q @ (b'"' | b'\'' | b'`') => self.string(q).map(Value::String),
            b'[' if depth < MAX_DEPTH => {
                self.i += 1;
                let mut items = Vec::new();
                while !self.eat(b']') {
                    items.push(self.value(depth + 1)?);
                    if !self.eat(b',') {
                        self.eat(b']').then_some(())?;
                        break;
                    }
                }
                Some(Value::Array(items))
            }
            b'{' if depth < MAX_DEPTH => self
                .entries(depth)
                .map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
            b'-' | b'+' | b'.' | b'0'..=b'9' => self.number(),
            _ => match self.word() {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                "null" | "undefined" => Some(Value::Null),
                _ => None,
            },
        }
    }

    /// An object literal's properties in the order they are written (at `{`).
    fn entries(&mut self, depth: usize) -> Option<Vec<(String, Value)>> {
        self.i += 1;
        let mut entries = Vec::new();
        while !self.eat(b'}') {
            let key = self.key()?;
            self.eat(b':').then_some(())?;
            entries.push((key, self.value(depth + 1)?));
            if !self.eat(b',') {
                self.eat(b'}').then_some(())?;
                break;
            }
        }
        Some(entries)
    }

    fn word(&mut self) -> &str {
        let start = self.i;
        while self
            .s
            .get(self.i)
            .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$')
        {
            self.i += 1;
        }
        &self.src[start..self.i]
    }

    fn key(&mut self) -> Option<String> {
        self.skip_space();
        match *self.s.get(self.i)? {
            q @ (b'"' | b'\'') => self.string(q),
            b'0'..=b'9' => self.number().map(|n| shown(&n).unwrap_or_default()),
            _ => Some(self.word().to_owned()).filter(|w| !w.is_empty()),
        }
    }

    fn number(&mut self) -> Option<Value> {
        let start = self.i;
        while self
            .s
            .get(self.i)
            .is_some_and(|&c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-' | b'+' | b'_'))
        {
            self.i += 1;
        }
        let text = self.src[start..self.i].replace('_', "");
        let f: f64 = text.strip_prefix('+').unwrap_or(&text).parse().ok()?;
        Number::from_f64(f).map(Value::Number)
    }

    /// A quoted string with its escapes decoded; a template literal only without `${`.
    fn string(&mut self, quote: u8) -> Option<String> {
        let mut out = String::new();
        let mut i = self.i + 1;
        loop {
            let rest = &self.src[i..];
            let at = rest.find([quote as char, '\\', '\n'])?;
            out.push_str(&rest[..at]);
            i += at;
            match self.s[i] {
                b'\n' if quote != b'`' => return None,
                b'\n' => {
                    out.push('\n');
                    i += 1;
                }
                b'\\' => {
                    let escaped = self.src[i + 1..].chars().next()?;
                    i += 1 + escaped.len_utf8();
                    match escaped {
                        'n' => out.push('\n'),
                        't' => out.push('\t'),
                        'r' => out.push('\r'),
                        '0' => out.push('\0'),
                        'u' => {
                            let hex = self.src.get(i..i + 4)?;
                            out.push(char::from_u32(u32::from_str_radix(hex, 16).ok()?)?);
                            i += 4;
                        }
                        '\n' => {}
                        other => out.push(other),
                    }
                }
                _ => {
                    self.i = i + 1;
                    let interpolates = quote == b'`' && out.contains("${");
                    return (!interpolates).then_some(out);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(src: &str) -> Option<Value> {
        literal(src).map(|(v, _)| v)
    }

    #[test]
    fn reads_strings_numbers_and_keywords() {
        assert_eq!(read(" 'it\\'s' ;"), Some(json!("it's")));
        assert_eq!(read("\"a\\u0041\\n\""), Some(json!("aA\n")));
        assert_eq!(read("`multi\nline`"), Some(json!("multi\nline")));
        assert_eq!(read("-1.5e3"), Some(json!(-1500.0)));
        assert_eq!(read("1_000"), Some(json!(1000.0)));
        assert_eq!(
            (read("true"), read("null")),
            (Some(json!(true)), Some(json!(null)))
        );
    }

    #[test]
    fn reads_objects_and_arrays_with_trailing_commas_and_comments() {
        let src = "{ fruit: 'strawberries', \"n\": 2, list: [1, 'two',], // note\n nested: { deep: /* c */ true }, }\nrest";
        let (value, len) = literal(src).unwrap();
        assert_eq!(
            value,
            json!({"fruit": "strawberries", "n": 2.0, "list": [1.0, "two"], "nested": {"deep": true}})
        );
        assert_eq!(&src[len..], "rest");
    }

    #[test]
    fn object_entries_keep_the_written_order() {
        let entries = object_entries(" { zIndex: 2, 'a-b': 'x', margin: 0, zIndex: 3 } ").unwrap();
        let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["zIndex", "a-b", "margin", "zIndex"]);
        assert_eq!(entries[3].1, json!(3.0));
        assert_eq!(object_entries("[1]"), None);
        assert_eq!(object_entries("{ a: b }"), None);
    }

    #[test]
    fn code_is_not_a_value() {
        for src in [
            "() => <div />",
            "`a ${b}`",
            "fetch('x')",
            "{ a: b }",
            "'unclosed",
            "[1, 2",
            "{a: 1 b: 2}",
        ] {
            assert_eq!(read(src), None, "{src}");
        }
        let deep = "[".repeat(MAX_DEPTH + 5) + &"]".repeat(MAX_DEPTH + 5);
        assert_eq!(read(&deep), None);
    }

    #[test]
    fn values_show_as_react_renders_them() {
        assert_eq!(shown(&json!(5.0)).as_deref(), Some("5"));
        assert_eq!(shown(&json!(2.5)).as_deref(), Some("2.5"));
        assert_eq!(shown(&json!(["a", 1.0, true])).as_deref(), Some("a1"));
        assert_eq!(shown(&json!({"a": 1})), None);
    }
}
