//! What readers write, masked before anything stores it: questions (and the grouping key made from
//! them), feedback comments, searches sent by exported pages. A hand-written single pass over the
//! text ([`scan`]) finds emails, phone numbers, card numbers (Luhn-checked), IBANs (mod-97-checked),
//! API keys and bearer tokens (ours, `svc_…`, too), IPv4 and IPv6 addresses, and the operator's own
//! patterns ([`Masker::new`]), and puts a label in their place: `[email]`, `[phone]`, `[card]`,
//! `[iban]`, `[secret]`, `[ip]`, `[masked]`.
//!
//! Every rule looks at a bounded window from where it starts (the longest token run is measured once
//! per run), so masking is linear in the text's length, whatever it holds: no backtracking.
//!
//! Answers quote the docs and are not masked, with one exception: where an answer repeats what the
//! reader's question held, the stored copy of the answer has those values masked too
//! ([`Masked::mask_echoes`]). The stream the reader is sent is never altered.

mod kinds;
mod scan;
#[cfg(test)]
mod tests;

use std::borrow::Cow;

pub use kinds::Kind;
use kinds::Pattern;

/// Operator patterns a deployment may set.
pub const MAX_PATTERNS: usize = 32;
/// Characters of one operator pattern.
pub const MAX_PATTERN_CHARS: usize = 64;
/// Values of one text remembered to mask where an answer repeats them.
const MAX_ECHO_VALUES: usize = 16;
/// Shorter values are not looked for in answers: too likely to be the docs' own words.
const MIN_ECHO_CHARS: usize = 6;

/// The masking rules of a deployment: on (the default) with the built-in kinds, plus its patterns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Masker {
    on: bool,
    patterns: Vec<Pattern>,
}

impl Default for Masker {
    fn default() -> Self {
        Masker {
            on: true,
            patterns: Vec::new(),
        }
    }
}

impl Masker {
    /// `on` false stores reader text as written. `patterns` are the operator's (see [`Pattern`]);
    /// a malformed one is an error naming it.
    pub fn new<'a>(
        on: bool,
        patterns: impl IntoIterator<Item = &'a str>,
    ) -> Result<Masker, String> {
        let mut parsed = Vec::new();
        for raw in patterns
            .into_iter()
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            if parsed.len() == MAX_PATTERNS {
                return Err(format!("at most {MAX_PATTERNS} patterns"));
            }
            parsed.push(parse_pattern(raw).map_err(|rule| format!("`{raw}`: {rule}"))?);
        }
        Ok(Masker {
            on,
            patterns: parsed,
        })
    }

    /// A comma-separated list of patterns, as an environment variable holds them.
    pub fn from_list(on: bool, list: Option<&str>) -> Result<Masker, String> {
        Masker::new(on, list.unwrap_or_default().split(','))
    }

    pub fn is_on(&self) -> bool {
        self.on
    }

    /// `text` with every match replaced by its label.
    pub fn mask(&self, text: &str) -> Masked {
        if !self.on {
            return Masked {
                text: text.to_string(),
                values: Vec::new(),
            };
        }
        let mut out = Masked {
            text: String::with_capacity(text.len()),
            values: Vec::new(),
        };
        let mut copied = 0;
        scan::scan(text, &self.patterns, |start, end, kind| {
            out.text.push_str(&text[copied..start]);
            out.text.push_str(kind.label());
            copied = end;
            let value = &text[start..end];
            if value.chars().count() >= MIN_ECHO_CHARS
                && out.values.len() < MAX_ECHO_VALUES
                && !out.values.iter().any(|(v, _)| v == value)
            {
                out.values.push((value.to_string(), kind));
            }
        });
        out.text.push_str(&text[copied..]);
        out
    }
}

/// Reader text as it may be stored. Only [`Masker::mask`] makes one, so whatever takes a `Masked`
/// cannot be handed the text as written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Masked {
    text: String,
    /// What was masked (the longer values, at most [`MAX_ECHO_VALUES`]), to mask where repeated.
    values: Vec<(String, Kind)>,
}

impl Masked {
    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn into_text(self) -> String {
        self.text
    }

    /// `answer` with the values this text masked masked again wherever it repeats them; the docs'
    /// own examples (keys, addresses) are left as they are unless the reader wrote the same one.
    pub fn mask_echoes<'a>(&self, answer: &'a str) -> Cow<'a, str> {
        let mut out = Cow::Borrowed(answer);
        for (value, kind) in &self.values {
            if out.contains(value.as_str()) {
                out = Cow::Owned(out.replace(value.as_str(), kind.label()));
            }
        }
        out
    }
}

fn parse_pattern(raw: &str) -> Result<Pattern, &'static str> {
    if raw.chars().count() > MAX_PATTERN_CHARS {
        return Err("longer than 64 characters");
    }
    let (fixed, tail) = match raw.strip_suffix('*') {
        Some(fixed) => (fixed, true),
        None => (raw, false),
    };
    if fixed.contains('*') {
        return Err("`*` may only end a pattern");
    }
    if fixed.chars().count() < 3 {
        return Err("needs at least 3 characters besides `*`");
    }
    if fixed.chars().any(char::is_whitespace) {
        return Err("must not hold spaces");
    }
    Ok(Pattern {
        fixed: fixed.to_ascii_lowercase().into_bytes(),
        tail,
    })
}
