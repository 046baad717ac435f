//! The one request-validation vocabulary: field paths, rules and the [`FieldError`] naming both.
//!
//! Every request parser (each endpoint family's API module: `search::api`, `assistant::request`,
//! `export::api`, `analytics::input`, `admin`, the MCP tools' arguments) reads its
//! `serde_json::Value` through these helpers, so that every rejection names the field it is about
//! and the rule it breaks in the same words (`messages[1].parts[0].toolInvocation.state: must be
//! one of …`); the worker turns a [`FieldError`] into a 400 `{"error","code"}` body as is.
//!
//! Only the FIRST error is reported. Callers check fields in a fixed order (the order of the
//! specification's tables, array items by index), so the same body always gives the same message,
//! and a client fixing one field at a time converges. `serde_json::Map` does not keep the key
//! order of the body, so "first" means first in that fixed order, not first in the bytes.
//!
//! Optional fields treat an explicit `null` like an absent field: JavaScript clients send `null`
//! and `undefined` interchangeably and rejecting one of them helps nobody.

use std::fmt;

use serde_json::{Map, Value};

/// The first rule a document breaks, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// `fp`, `messages[3].parts[0].text`, or `body` for the document itself.
    pub path: String,
    /// Human-readable rule, e.g. `must be a string`.
    pub rule: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.rule)
    }
}

impl std::error::Error for FieldError {}

/// A location in the document being validated, rendered as `a.b[2].c`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Path(String);

impl Path {
    pub fn root() -> Path {
        Path(String::new())
    }

    pub fn key(&self, key: &str) -> Path {
        if self.0.is_empty() {
            Path(key.to_string())
        } else {
            Path(format!("{}.{key}", self.0))
        }
    }

    pub fn index(&self, index: usize) -> Path {
        Path(format!("{}[{index}]", self.0))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn error(&self, rule: impl Into<String>) -> FieldError {
        let path = if self.0.is_empty() {
            "body".to_string()
        } else {
            self.0.clone()
        };
        FieldError {
            path,
            rule: rule.into(),
        }
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The JSON type name used in rules, so messages read "must be a string" for every type.
fn type_rule(expected: &str) -> String {
    format!("must be {expected}")
}

/// `value` as an object, or `must be an object` at `path`.
pub fn object<'a>(value: &'a Value, path: &Path) -> Result<Obj<'a>, FieldError> {
    match value {
        Value::Object(map) => Ok(Obj {
            map,
            path: path.clone(),
        }),
        _ => Err(path.error(type_rule("an object"))),
    }
}

/// `value` as a string, or `must be a string` at `path`.
pub fn string<'a>(value: &'a Value, path: &Path) -> Result<&'a str, FieldError> {
    value
        .as_str()
        .ok_or_else(|| path.error(type_rule("a string")))
}

/// A JSON object being validated, with the path of the object itself.
#[derive(Debug, Clone)]
pub struct Obj<'a> {
    map: &'a Map<String, Value>,
    path: Path,
}

impl<'a> Obj<'a> {
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn field_path(&self, key: &str) -> Path {
        self.path.key(key)
    }

    /// The field, with `null` read as absent.
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    /// Present at all, `null` included: for fields whose value may be any JSON (tool `args`).
    pub fn present(&self, key: &str) -> Result<&'a Value, FieldError> {
        self.map.get(key).ok_or_else(|| self.missing(key))
    }

    fn missing(&self, key: &str) -> FieldError {
        self.field_path(key).error("is required")
    }

    fn required(&self, key: &str) -> Result<&'a Value, FieldError> {
        // A required field sent as `null` is reported as missing: that is what the client did.
        self.get(key).ok_or_else(|| self.missing(key))
    }

    pub fn req_str(&self, key: &str) -> Result<&'a str, FieldError> {
        string(self.required(key)?, &self.field_path(key))
    }

    pub fn opt_str(&self, key: &str) -> Result<Option<&'a str>, FieldError> {
        self.get(key)
            .map(|v| string(v, &self.field_path(key)))
            .transpose()
    }

    pub fn req_number(&self, key: &str) -> Result<f64, FieldError> {
        number(self.required(key)?, &self.field_path(key))
    }

    pub fn opt_number(&self, key: &str) -> Result<Option<f64>, FieldError> {
        self.get(key)
            .map(|v| number(v, &self.field_path(key)))
            .transpose()
    }

    /// An optional boolean; `null` reads as absent.
    pub fn opt_bool(&self, key: &str) -> Result<Option<bool>, FieldError> {
        self.get(key)
            .map(|v| {
                v.as_bool()
                    .ok_or_else(|| self.field_path(key).error("must be a boolean"))
            })
            .transpose()
    }

    pub fn req_array(&self, key: &str) -> Result<&'a [Value], FieldError> {
        array(self.required(key)?, &self.field_path(key))
    }

    pub fn opt_array(&self, key: &str) -> Result<Option<&'a [Value]>, FieldError> {
        self.get(key)
            .map(|v| array(v, &self.field_path(key)))
            .transpose()
    }

    pub fn req_object(&self, key: &str) -> Result<Obj<'a>, FieldError> {
        object(self.required(key)?, &self.field_path(key))
    }

    pub fn opt_object(&self, key: &str) -> Result<Option<Obj<'a>>, FieldError> {
        self.get(key)
            .map(|v| object(v, &self.field_path(key)))
            .transpose()
    }

    /// A required string that must be one of `allowed`.
    pub fn req_enum(&self, key: &str, allowed: &[&str]) -> Result<&'a str, FieldError> {
        let value = self.req_str(key)?;
        one_of(value, allowed, &self.field_path(key))
    }

    /// An optional string of at most `max` characters.
    pub fn opt_str_max(&self, key: &str, max: usize) -> Result<Option<&'a str>, FieldError> {
        let value = self.opt_str(key)?;
        if let Some(s) = value {
            max_chars(s, max, &self.field_path(key))?;
        }
        Ok(value)
    }

    /// A required string of at most `max` characters.
    pub fn req_str_max(&self, key: &str, max: usize) -> Result<&'a str, FieldError> {
        let value = self.req_str(key)?;
        max_chars(value, max, &self.field_path(key))?;
        Ok(value)
    }

    /// An optional list of strings: at most `max` items of at most `max_chars` characters each.
    pub fn opt_str_list(
        &self,
        key: &str,
        max: usize,
        max_chars_each: usize,
    ) -> Result<Vec<&'a str>, FieldError> {
        let Some(items) = self.opt_array(key)? else {
            return Ok(Vec::new());
        };
        let path = self.field_path(key);
        max_items(items, max, &path)?;
        items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let item_path = path.index(i);
                let value = string(item, &item_path)?;
                max_chars(value, max_chars_each, &item_path)?;
                Ok(value)
            })
            .collect()
    }

    /// An optional string in ISO 8601 / RFC 3339 date-time form.
    pub fn opt_date_time(&self, key: &str) -> Result<Option<&'a str>, FieldError> {
        let value = self.opt_str(key)?;
        if let Some(s) = value {
            if !is_date_time(s) {
                return Err(self
                    .field_path(key)
                    .error("must be an ISO 8601 date-time such as 2025-01-31T09:30:00.000Z"));
            }
        }
        Ok(value)
    }
}

pub fn number(value: &Value, path: &Path) -> Result<f64, FieldError> {
    value
        .as_f64()
        .ok_or_else(|| path.error(type_rule("a number")))
}

pub fn array<'a>(value: &'a Value, path: &Path) -> Result<&'a [Value], FieldError> {
    value
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| path.error(type_rule("an array")))
}

pub fn one_of<'v>(value: &'v str, allowed: &[&str], path: &Path) -> Result<&'v str, FieldError> {
    if allowed.contains(&value) {
        Ok(value)
    } else {
        Err(path.error(format!("must be one of {}", allowed.join(", "))))
    }
}

/// Lengths count Unicode scalar values, which is what a person means by "characters"; a
/// JavaScript client counting UTF-16 units sees the same number except for astral characters.
pub fn max_chars(value: &str, max: usize, path: &Path) -> Result<(), FieldError> {
    // Every character takes at least one byte, so short byte strings need no counting.
    if value.len() <= max || value.chars().nth(max).is_none() {
        Ok(())
    } else {
        Err(path.error(format!("must be at most {max} characters")))
    }
}

/// Text with something in it besides whitespace.
pub fn not_blank(value: &str, path: &Path) -> Result<(), FieldError> {
    if value.trim().is_empty() {
        Err(path.error("must not be empty"))
    } else {
        Ok(())
    }
}

/// A number within `min..=max`.
pub fn number_in(value: f64, min: f64, max: f64, path: &Path) -> Result<f64, FieldError> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(path.error(format!("must be a number from {min} to {max}")))
    }
}

pub fn max_items(items: &[Value], max: usize, path: &Path) -> Result<(), FieldError> {
    if items.len() <= max {
        Ok(())
    } else {
        Err(path.error(format!("must have at most {max} items")))
    }
}

/// A whole number within `min..=max`; JSON `5.0` counts as whole.
pub fn integer_in(value: f64, min: u32, max: u32, path: &Path) -> Result<u32, FieldError> {
    if value.fract() == 0.0 && value >= f64::from(min) && value <= f64::from(max) {
        // In range and whole, so the conversion is exact.
        Ok(value as u32)
    } else {
        Err(path.error(format!("must be an integer from {min} to {max}")))
    }
}

/// RFC 3339 date-time, the ISO 8601 profile that JSON clients send (`Date.prototype.toJSON`
/// gives `2025-01-31T09:30:00.000Z`): `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, with calendar
/// ranges checked (leap years, leap second 60). Lowercase `t`/`z` are accepted as RFC 3339 allows.
pub fn is_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |from: usize, len: usize| -> Option<u32> {
        let slice = b.get(from..from + len)?;
        slice.iter().try_fold(0u32, |acc, &c| {
            c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0'))
        })
    };
    let at = |i: usize, expected: &[u8]| b.get(i).is_some_and(|c| expected.contains(c));

    let (Some(year), Some(month), Some(day)) = (digits(0, 4), digits(5, 2), digits(8, 2)) else {
        return false;
    };
    let (Some(hour), Some(minute), Some(second)) = (digits(11, 2), digits(14, 2), digits(17, 2))
    else {
        return false;
    };
    if !(at(4, b"-") && at(7, b"-") && at(10, b"Tt") && at(13, b":") && at(16, b":")) {
        return false;
    }
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return false;
    }
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }

    let mut i = 19;
    if at(i, b".") {
        let fraction = b.get(i + 1..).unwrap_or_default();
        let len = fraction.iter().take_while(|c| c.is_ascii_digit()).count();
        if len == 0 {
            return false;
        }
        i += 1 + len;
    }
    match b.get(i) {
        Some(b'Z' | b'z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            let (Some(oh), Some(om)) = (digits(i + 1, 2), digits(i + 4, 2)) else {
                return false;
            };
            at(i + 3, b":") && oh <= 23 && om <= 59 && i + 6 == b.len()
        }
        _ => false,
    }
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn error_displays_path_then_rule() {
        let path = Path::root().key("messages").index(1).key("parts").index(0);
        let err = path
            .key("toolInvocation")
            .key("state")
            .error("must be one of a, b");
        assert_eq!(
            err.to_string(),
            "messages[1].parts[0].toolInvocation.state: must be one of a, b"
        );
    }

    #[test]
    fn root_errors_name_the_body() {
        let err = object(&json!([1]), &Path::root()).unwrap_err();
        assert_eq!(err.to_string(), "body: must be an object");
    }

    #[test]
    fn missing_and_null_required_fields_are_required() {
        let doc = json!({"a": null});
        let obj = object(&doc, &Path::root()).unwrap();
        assert_eq!(obj.req_str("a").unwrap_err().rule, "is required");
        assert_eq!(obj.req_str("b").unwrap_err().rule, "is required");
        assert_eq!(obj.opt_str("a").unwrap(), None);
    }

    #[test]
    fn wrong_types_name_the_expected_type() {
        let doc = json!({"s": 1, "n": "1", "a": {}, "o": []});
        let obj = object(&doc, &Path::root()).unwrap();
        assert_eq!(
            obj.req_str("s").unwrap_err().to_string(),
            "s: must be a string"
        );
        assert_eq!(
            obj.req_number("n").unwrap_err().to_string(),
            "n: must be a number"
        );
        assert_eq!(
            obj.req_array("a").unwrap_err().to_string(),
            "a: must be an array"
        );
        assert_eq!(
            obj.req_object("o").unwrap_err().to_string(),
            "o: must be an object"
        );
    }

    #[test]
    fn present_accepts_null_but_not_absence() {
        let doc = json!({"args": null});
        let obj = object(&doc, &Path::root()).unwrap();
        assert_eq!(obj.present("args").unwrap(), &Value::Null);
        assert_eq!(obj.present("result").unwrap_err().rule, "is required");
    }

    #[test]
    fn max_chars_counts_characters_not_bytes() {
        let path = Path::root().key("x");
        assert!(max_chars("中文中文", 4, &path).is_ok());
        assert_eq!(
            max_chars("中文中文中", 4, &path).unwrap_err().to_string(),
            "x: must be at most 4 characters"
        );
    }

    #[test]
    fn integer_range_rejects_fractions_and_out_of_range() {
        let path = Path::root().key("n");
        assert_eq!(integer_in(5.0, 1, 20, &path).unwrap(), 5);
        assert!(integer_in(2.5, 1, 20, &path).is_err());
        assert!(integer_in(0.0, 1, 20, &path).is_err());
        assert!(integer_in(21.0, 1, 20, &path).is_err());
    }

    #[test]
    fn string_lists_are_capped_in_length_and_items() {
        let doc =
            json!({"g": ["a", "bb"], "long": ["a", "b", "c"], "wide": ["abc"], "mixed": ["a", 1]});
        let obj = object(&doc, &Path::root()).unwrap();
        assert_eq!(obj.opt_str_list("g", 2, 2).unwrap(), ["a", "bb"]);
        assert_eq!(obj.opt_str_list("none", 2, 2).unwrap(), Vec::<&str>::new());
        assert_eq!(
            obj.opt_str_list("long", 2, 2).unwrap_err().to_string(),
            "long: must have at most 2 items"
        );
        assert_eq!(
            obj.opt_str_list("wide", 2, 2).unwrap_err().to_string(),
            "wide[0]: must be at most 2 characters"
        );
        assert_eq!(
            obj.opt_str_list("mixed", 2, 2).unwrap_err().to_string(),
            "mixed[1]: must be a string"
        );
    }

    #[test]
    fn blank_text_and_out_of_range_numbers_are_named() {
        let path = Path::root().key("q");
        assert_eq!(
            not_blank(" \n", &path).unwrap_err().to_string(),
            "q: must not be empty"
        );
        assert!(not_blank(" x ", &path).is_ok());
        assert_eq!(number_in(0.5, 0.0, 1.0, &path).unwrap(), 0.5);
        assert_eq!(
            number_in(1.5, 0.0, 1.0, &path).unwrap_err().to_string(),
            "q: must be a number from 0 to 1"
        );
    }

    #[test]
    fn date_time_accepts_rfc3339_forms() {
        for ok in [
            "2025-01-31T09:30:00Z",
            "2025-01-31T09:30:00.000Z",
            "2024-02-29t23:59:60.123456z",
            "2025-01-31T09:30:00+05:30",
            "2025-01-31T09:30:00-00:00",
        ] {
            assert!(is_date_time(ok), "{ok}");
        }
    }

    #[test]
    fn date_time_rejects_other_shapes() {
        for bad in [
            "",
            "2025-01-31",
            "2025-01-31 09:30:00Z",
            "2025-01-31T09:30:00",
            "2025-13-01T00:00:00Z",
            "2023-02-29T00:00:00Z",
            "2025-01-31T24:00:00Z",
            "2025-01-31T09:30:00.Z",
            "2025-01-31T09:30:00+0530",
            "2025-01-31T09:30:00Zjunk",
            "Fri Jan 31 2025",
            "2025-01-31T09:30:00+05:30:00",
        ] {
            assert!(!is_date_time(bad), "{bad}");
        }
    }
}
