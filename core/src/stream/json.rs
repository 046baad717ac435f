//! Accepts or refuses one part's JSON without building it: strict JSON syntax (RFC 8259, with
//! serde_json's nesting limit) plus the shape of the part's type, described by a [`Shape`].
//!
//! Why not serde: the SDK decodes every part in wasm, and serde's derived code for every part type
//! was most of the package (docs/engineering/decisions.mdx, "The SDK parser checks shapes without
//! building values"). The shapes sit next to the serde types in
//! `data_stream.rs` and `ui_stream.rs`, and `shape_tests.rs` checks that both accept exactly the
//! same values, with serde_json reading a `Value` first, as the typed decoders do.

use std::borrow::Cow;

/// What a value must be.
#[derive(Debug)]
pub(crate) enum Shape {
    Any,
    Str,
    U64,
    Bool,
    /// An array of anything.
    Array,
    /// A unit-only enum: one of these names (any name when `open`, as with `#[serde(other)]`).
    Enum {
        names: &'static [&'static str],
        open: bool,
    },
    Struct(&'static Struct),
}

#[derive(Debug)]
pub(crate) struct Struct {
    pub fields: &'static [Field],
    /// serde also reads a struct from an array of its fields in order, except with `flatten`.
    pub from_array: bool,
}

#[derive(Debug)]
pub(crate) struct Field {
    pub name: &'static str,
    pub shape: Shape,
    /// `Option<T>`: `null` is accepted, and a missing field in an object.
    pub optional: bool,
    /// `#[serde(default)]`: may be missing, from an object or the end of an array.
    pub default: bool,
}

impl Field {
    pub const fn required(name: &'static str, shape: Shape) -> Field {
        Field {
            name,
            shape,
            optional: false,
            default: false,
        }
    }

    /// `Option<T>` with `#[serde(default)]`.
    pub const fn optional(name: &'static str, shape: Shape) -> Field {
        Field {
            name,
            shape,
            optional: true,
            default: true,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Problem {
    Syntax(String),
    Shape(String),
}

/// serde_json refuses the 128th level of nesting.
const MAX_DEPTH: u32 = 127;

pub(crate) fn check(json: &str, shape: &Shape) -> Result<(), Problem> {
    let mut scanner = Scanner::new(json);
    let mut mismatch = None;
    scanner
        .value(shape, &mut mismatch)
        .map_err(Problem::Syntax)?;
    scanner.whitespace();
    if scanner.at < scanner.bytes.len() {
        return Err(Problem::Syntax(scanner.error("trailing characters")));
    }
    mismatch.map_or(Ok(()), |m| Err(Problem::Shape(m)))
}

/// The value of a top-level string field `name` of a JSON object (the last one when repeated), if
/// `json` is valid JSON. `Err` carries the syntax error.
pub(crate) fn string_field<'a>(json: &'a str, name: &str) -> Result<Option<Cow<'a, str>>, String> {
    let mut scanner = Scanner::new(json);
    let mut found = None;
    scanner.whitespace();
    if scanner.peek() == Some(b'{') {
        scanner.object(|scanner, key| {
            if key == name {
                scanner.whitespace();
                found = if scanner.peek() == Some(b'"') {
                    Some(scanner.string()?)
                } else {
                    scanner.value(&Shape::Any, &mut None)?;
                    None
                };
                Ok(())
            } else {
                scanner.value(&Shape::Any, &mut None)
            }
        })?;
    } else {
        scanner.value(&Shape::Any, &mut None)?;
    }
    scanner.whitespace();
    if scanner.at < scanner.bytes.len() {
        return Err(scanner.error("trailing characters"));
    }
    Ok(found)
}

/// The text of a JSON string (`"…"` with nothing around it), or `None` when `json` is anything else.
pub(crate) fn string_value(json: &str) -> Option<Cow<'_, str>> {
    let mut scanner = Scanner::new(json);
    if scanner.peek() != Some(b'"') {
        return None;
    }
    let text = scanner.string().ok()?;
    (scanner.at == json.len()).then_some(text)
}

struct Scanner<'a> {
    text: &'a str,
    /// `text` as bytes.
    bytes: &'a [u8],
    at: usize,
    depth: u32,
}

fn describe(shape: &Shape) -> &'static str {
    match shape {
        Shape::Any => "any value",
        Shape::Str => "a string",
        Shape::U64 => "u64",
        Shape::Bool => "a boolean",
        Shape::Array => "a sequence",
        Shape::Enum { .. } => "variant identifier",
        Shape::Struct(_) => "struct",
    }
}

fn invalid_type(found: &str, shape: &Shape) -> String {
    format!("invalid type: {found}, expected {}", describe(shape))
}

fn note(mismatch: &mut Option<String>, message: impl FnOnce() -> String) {
    if mismatch.is_none() {
        *mismatch = Some(message());
    }
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Scanner {
            text,
            bytes: text.as_bytes(),
            at: 0,
            depth: 0,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.peek() {
            self.at += 1;
        }
    }

    fn error(&self, what: &str) -> String {
        format!("{what} at byte {}", self.at + 1)
    }

    fn expect(&mut self, byte: u8, what: &str) -> Result<(), String> {
        self.whitespace();
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(what))
        }
    }

    /// Scans one value; a shape mismatch goes to `mismatch` (the first one is kept) and scanning
    /// goes on, so that broken JSON is reported as such wherever it is.
    fn value(&mut self, shape: &Shape, mismatch: &mut Option<String>) -> Result<(), String> {
        self.whitespace();
        match self.peek() {
            None => Err(self.error("EOF while parsing a value")),
            Some(b'"') => {
                let text = self.string()?;
                match shape {
                    Shape::Any | Shape::Str => {}
                    Shape::Enum { names, open } => {
                        if !open && !names.contains(&text.as_ref()) {
                            note(mismatch, || {
                                format!(
                                    "unknown variant `{text}`, expected `{}`",
                                    names.join("` or `")
                                )
                            });
                        }
                    }
                    other => note(mismatch, || invalid_type("string", other)),
                }
                Ok(())
            }
            Some(b'{') => self.object_value(shape, mismatch),
            Some(b'[') => self.array_value(shape, mismatch),
            Some(b't') => self.literal("true", shape, mismatch),
            Some(b'f') => self.literal("false", shape, mismatch),
            Some(b'n') => self.literal("null", shape, mismatch),
            Some(b'-' | b'0'..=b'9') => self.number(shape, mismatch),
            Some(_) => Err(self.error("expected value")),
        }
    }

    fn literal(
        &mut self,
        word: &str,
        shape: &Shape,
        mismatch: &mut Option<String>,
    ) -> Result<(), String> {
        if !self.bytes[self.at..].starts_with(word.as_bytes()) {
            return Err(self.error("expected ident"));
        }
        self.at += word.len();
        match (word, shape) {
            (_, Shape::Any) | ("true" | "false", Shape::Bool) => {}
            ("null", other) => note(mismatch, || invalid_type("null", other)),
            (_, other) => note(mismatch, || invalid_type("boolean", other)),
        }
        Ok(())
    }

    fn number(&mut self, shape: &Shape, mismatch: &mut Option<String>) -> Result<(), String> {
        let start = self.at;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.at += 1;
        }
        // Significant digits as serde_json keeps them (at most 19 in a u64) and the power of ten
        // of the rest, to refuse what it refuses as out of range.
        let mut significand: u64 = 0;
        let mut exponent: i64 = 0;
        let mut digits = |scanner: &mut Self, fraction: bool| -> usize {
            let from = scanner.at;
            while let Some(d @ b'0'..=b'9') = scanner.peek() {
                scanner.at += 1;
                match significand
                    .checked_mul(10)
                    .and_then(|s| s.checked_add(u64::from(d - b'0')))
                {
                    Some(s) => {
                        significand = s;
                        if fraction {
                            exponent -= 1;
                        }
                    }
                    None if !fraction => exponent += 1,
                    None => {}
                }
            }
            scanner.at - from
        };
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                digits(self, false);
            }
            _ => return Err(self.error("invalid number")),
        }
        let integer_end = self.at;
        let mut integral = true;
        if self.peek() == Some(b'.') {
            integral = false;
            self.at += 1;
            if digits(self, true) == 0 {
                return Err(self.error("invalid number"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            integral = false;
            self.at += 1;
            let minus = match self.peek() {
                Some(b'-') => {
                    self.at += 1;
                    true
                }
                Some(b'+') => {
                    self.at += 1;
                    false
                }
                _ => false,
            };
            let from = self.at;
            let mut e: i64 = 0;
            while let Some(d @ b'0'..=b'9') = self.peek() {
                self.at += 1;
                e = (e * 10 + i64::from(d - b'0')).min(1 << 40);
            }
            if self.at == from {
                return Err(self.error("invalid number"));
            }
            exponent += if minus { -e } else { e };
        }
        let fits_u64 = integral && !negative && {
            let text = &self.bytes[start..integer_end];
            text.len() < 20 || (text.len() == 20 && text <= b"18446744073709551615".as_slice())
        };
        if !fits_u64 && significand != 0 && exponent > 0 {
            // What serde_json computes: significand × 10^exponent, refused when infinite.
            let value = significand as f64 * 10f64.powi(exponent.min(400) as i32);
            if value.is_infinite() {
                return Err(self.error("number out of range"));
            }
        }
        match shape {
            Shape::Any => {}
            Shape::U64 if fits_u64 => {}
            Shape::U64 if integral && negative && significand != 0 => {
                note(mismatch, || "invalid value: integer, expected u64".into())
            }
            other if integral && (fits_u64 || significand != 0) => {
                note(mismatch, || invalid_type("integer", other))
            }
            other => note(mismatch, || invalid_type("floating point", other)),
        }
        Ok(())
    }

    /// A string, the scanner standing on its opening quote.
    fn string(&mut self) -> Result<Cow<'a, str>, String> {
        self.at += 1;
        let start = self.at;
        let mut owned: Option<String> = None;
        let bytes = self.bytes;
        loop {
            let run = self.at;
            while let Some(&b) = bytes.get(self.at) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // The run starts and stops at ASCII bytes, so on character boundaries.
            let text = self.text.get(run..self.at).unwrap_or_default();
            match bytes.get(self.at) {
                None => return Err(self.error("EOF while parsing a string")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(match owned {
                        Some(mut s) => {
                            s.push_str(text);
                            Cow::Owned(s)
                        }
                        None => {
                            Cow::Borrowed(self.text.get(start..self.at - 1).unwrap_or_default())
                        }
                    });
                }
                Some(b'\\') => {
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(text);
                    self.at += 1;
                    let c = self.escape()?;
                    s.push(c);
                }
                Some(_) => {
                    return Err(self
                        .error("control character (\\u0000-\\u001F) found while parsing a string"))
                }
            }
        }
    }

    /// One escape, the scanner standing after its backslash.
    fn escape(&mut self) -> Result<char, String> {
        let Some(b) = self.peek() else {
            return Err(self.error("EOF while parsing a string"));
        };
        self.at += 1;
        Ok(match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let first = self.hex4()?;
                match first {
                    0xDC00..=0xDFFF => {
                        return Err(self.error("lone leading surrogate in hex escape"))
                    }
                    0xD800..=0xDBFF => {
                        if !self.bytes[self.at..].starts_with(b"\\u") {
                            return Err(self.error("unexpected end of hex escape"));
                        }
                        self.at += 2;
                        let second = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&second) {
                            return Err(self.error("lone leading surrogate in hex escape"));
                        }
                        let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                        char::from_u32(code)
                            .ok_or_else(|| self.error("invalid unicode code point"))?
                    }
                    code => char::from_u32(code)
                        .ok_or_else(|| self.error("invalid unicode code point"))?,
                }
            }
            _ => return Err(self.error("invalid escape")),
        })
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let mut code = 0;
        for _ in 0..4 {
            let digit = self
                .peek()
                .and_then(|b| (b as char).to_digit(16))
                .ok_or_else(|| self.error("invalid escape"))?;
            self.at += 1;
            code = code * 16 + digit;
        }
        Ok(code)
    }

    fn nest(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error("recursion limit exceeded"));
        }
        self.at += 1;
        Ok(())
    }

    /// Scans an object, the scanner standing on `{`, handing each key to `member` to scan its value.
    fn object(
        &mut self,
        mut member: impl FnMut(&mut Self, &str) -> Result<(), String>,
    ) -> Result<(), String> {
        self.nest()?;
        self.whitespace();
        if self.peek() == Some(b'}') {
            self.at += 1;
            self.depth -= 1;
            return Ok(());
        }
        loop {
            self.whitespace();
            if self.peek() != Some(b'"') {
                return Err(self.error("key must be a string"));
            }
            let key = self.string()?;
            self.expect(b':', "expected `:`")?;
            member(self, &key)?;
            self.whitespace();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    self.depth -= 1;
                    return Ok(());
                }
                _ => return Err(self.error("expected `,` or `}`")),
            }
        }
    }

    /// Scans an array, the scanner standing on `[`, handing each element's index to `element`.
    fn array(
        &mut self,
        mut element: impl FnMut(&mut Self, usize) -> Result<(), String>,
    ) -> Result<usize, String> {
        self.nest()?;
        self.whitespace();
        let mut count = 0;
        if self.peek() == Some(b']') {
            self.at += 1;
            self.depth -= 1;
            return Ok(0);
        }
        loop {
            element(self, count)?;
            count += 1;
            self.whitespace();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    self.depth -= 1;
                    return Ok(count);
                }
                _ => return Err(self.error("expected `,` or `]`")),
            }
        }
    }

    /// A field's value: `null` passes an `Option`.
    fn field(&mut self, field: &Field, mismatch: &mut Option<String>) -> Result<(), String> {
        self.whitespace();
        let shape = if field.optional && self.bytes[self.at..].starts_with(b"null") {
            &Shape::Any
        } else {
            &field.shape
        };
        self.value(shape, mismatch)
    }

    fn object_value(&mut self, shape: &Shape, mismatch: &mut Option<String>) -> Result<(), String> {
        match shape {
            Shape::Struct(shape) => {
                // Per field, what its last occurrence gave: serde_json's map keeps the last value.
                let mut seen: Vec<Option<Option<String>>> = vec![None; shape.fields.len()];
                self.object(|scanner, key| {
                    match shape.fields.iter().position(|f| f.name == key) {
                        Some(i) => {
                            let mut problem = None;
                            scanner.field(&shape.fields[i], &mut problem)?;
                            seen[i] = Some(problem);
                        }
                        None => scanner.value(&Shape::Any, &mut None)?,
                    }
                    Ok(())
                })?;
                for (field, seen) in shape.fields.iter().zip(seen) {
                    match seen {
                        None if !field.optional && !field.default => {
                            note(mismatch, || format!("missing field `{}`", field.name))
                        }
                        Some(Some(problem)) => note(mismatch, || problem),
                        _ => {}
                    }
                }
                Ok(())
            }
            Shape::Enum { names, open } => {
                // serde_json reads `{"name": null}` as the unit variant `name`.
                let mut members = 0;
                let mut unit = true;
                self.object(|scanner, key| {
                    members += 1;
                    unit &= *open || names.contains(&key);
                    scanner.whitespace();
                    unit &= scanner.bytes[scanner.at..].starts_with(b"null");
                    scanner.value(&Shape::Any, &mut None)
                })?;
                if members != 1 || !unit {
                    note(mismatch, || invalid_type("map", shape));
                }
                Ok(())
            }
            Shape::Any => self.object(|scanner, _| scanner.value(&Shape::Any, &mut None)),
            other => {
                note(mismatch, || invalid_type("map", other));
                self.object(|scanner, _| scanner.value(&Shape::Any, &mut None))
            }
        }
    }

    fn array_value(&mut self, shape: &Shape, mismatch: &mut Option<String>) -> Result<(), String> {
        match shape {
            Shape::Struct(shape) if shape.from_array => {
                let fields = shape.fields;
                let count = self.array(|scanner, i| match fields.get(i) {
                    Some(field) => scanner.field(field, mismatch),
                    None => scanner.value(&Shape::Any, &mut None),
                })?;
                if count > fields.len() {
                    note(mismatch, || {
                        "invalid length, expected fewer elements in array".into()
                    });
                } else if let Some(missing) = fields[count..].iter().find(|f| !f.default) {
                    note(mismatch, || {
                        format!(
                            "invalid length {count}, expected struct with {} elements (no `{}`)",
                            fields.len(),
                            missing.name
                        )
                    });
                }
                Ok(())
            }
            Shape::Any | Shape::Array => self
                .array(|scanner, _| scanner.value(&Shape::Any, &mut None))
                .map(drop),
            other => {
                note(mismatch, || invalid_type("sequence", other));
                self.array(|scanner, _| scanner.value(&Shape::Any, &mut None))
                    .map(drop)
            }
        }
    }
}
