//! Authors' `style` props (`style={{ display: "flex", gap: 16 }}`, `style="color: red"`) as CSS
//! declarations that cannot leave their rule. The export's CSP (`style-src 'self'`) forbids inline
//! styles, so each distinct declaration list becomes a rule of the page's stylesheet under a class
//! named after its hash, and the element gets that class instead of the attribute.
//!
//! An allow-list, not an escaper: a property is a plain name, a value uses only the characters of
//! lengths, colours, keywords and calc-like functions, quotes in pairs. Anything else (`;`, braces,
//! `<`, backslashes, comments, `@`, `url(` and the other functions that fetch or run something)
//! drops the declaration.

use serde_json::Value;

use crate::docs::js_value;
use crate::docs::jsx::AttrValue;

/// Declarations kept from one `style` prop, at most.
const MAX_DECLARATIONS: usize = 64;
/// Longest value kept.
const MAX_VALUE: usize = 256;

/// CSS functions that fetch a resource or run code; a value naming one is dropped.
const FORBIDDEN_FUNCTIONS: &[&str] = &[
    "url(",
    "image(",
    "image-set(",
    "cross-fade(",
    "element(",
    "expression(",
    "src(",
    "paint(",
];

/// React's unitless properties: their numbers stay bare, every other number is pixels.
const UNITLESS: &[&str] = &[
    "animation-iteration-count",
    "aspect-ratio",
    "column-count",
    "columns",
    "flex",
    "flex-grow",
    "flex-shrink",
    "font-weight",
    "grid-area",
    "grid-column",
    "grid-column-end",
    "grid-column-start",
    "grid-row",
    "grid-row-end",
    "grid-row-start",
    "line-clamp",
    "line-height",
    "opacity",
    "order",
    "orphans",
    "scale",
    "tab-size",
    "widows",
    "z-index",
    "zoom",
    "fill-opacity",
    "stroke-opacity",
    "stroke-width",
];

/// The declarations of a `style` attribute (`prop:value` pairs joined by `;`), or `None` when
/// nothing safe is left. Both a string and an object keep the order they are written in: React
/// sets an object's properties in that order, so a later `margin` overrides an earlier `marginTop`
/// as it does in the browser.
pub(crate) fn from_attr(value: &AttrValue<'_>) -> Option<String> {
    let pairs: Vec<(String, String)> = match value {
        AttrValue::Str(text) => text
            .split(';')
            .filter_map(|d| d.split_once(':'))
            .map(|(p, v)| (p.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect(),
        AttrValue::Expr(expr) => match js_value::object_entries(expr) {
            Some(entries) => entries
                .into_iter()
                .filter_map(|(key, value)| {
                    let property = kebab(&key);
                    let value = match value {
                        Value::String(s) => s,
                        Value::Number(n) => {
                            let number = number_text(n.as_f64()?);
                            let unprefixed = property
                                .trim_start_matches("-webkit-")
                                .trim_start_matches("-ms-")
                                .trim_start_matches("-moz-");
                            match UNITLESS.contains(&unprefixed) || number == "0" {
                                true => number,
                                false => format!("{number}px"),
                            }
                        }
                        _ => return None,
                    };
                    Some((property, value))
                })
                .collect(),
            None => Vec::new(),
        },
        AttrValue::Flag => Vec::new(),
    };
    let kept: Vec<String> = pairs
        .into_iter()
        .filter(|(p, v)| safe_property(p) && safe_value(v))
        .take(MAX_DECLARATIONS)
        .map(|(p, v)| format!("{p}:{}", v.trim()))
        .collect();
    (!kept.is_empty()).then(|| kept.join(";"))
}

/// `16`, not `16.0`; non-finite numbers are not CSS.
fn number_text(n: f64) -> String {
    match n.fract() == 0.0 && n.abs() < 1e15 {
        true => format!("{}", n as i64),
        false => format!("{n}"),
    }
}

/// `backgroundColor` -> `background-color`, `WebkitLineClamp` -> `-webkit-line-clamp`; CSS custom
/// properties (`--x`) are kept as written.
fn kebab(key: &str) -> String {
    if key.starts_with("--") {
        return key.to_owned();
    }
    let mut out = String::with_capacity(key.len() + 4);
    for (i, c) in key.chars().enumerate() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else if i == 0
            && key.starts_with("ms")
            && key[2..].starts_with(|c: char| c.is_ascii_uppercase())
        {
            out.push_str("-m");
        } else {
            out.push(c);
        }
    }
    out
}

fn safe_property(name: &str) -> bool {
    let body = name
        .strip_prefix("--")
        .or_else(|| name.strip_prefix('-'))
        .unwrap_or(name);
    !body.is_empty()
        && body.len() <= 64
        && body.starts_with(|c: char| c.is_ascii_lowercase())
        && body.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        // Old engines' script hooks.
        && !matches!(name, "behavior" | "-moz-binding")
}

/// A value made only of the characters of lengths, colours, keywords, numbers and functions like
/// `calc()`/`rgb()`/`var()`, with its quotes and parentheses in pairs and no function that fetches.
pub(crate) fn safe_value(value: &str) -> bool {
    let value = value.trim();
    if value.is_empty() || value.len() > MAX_VALUE {
        return false;
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || " #%.,()+-*/_!'\"".contains(c);
    if !value.chars().all(allowed) || value.contains("/*") {
        return false;
    }
    let lower = value.to_ascii_lowercase();
    let squeezed: String = lower.chars().filter(|c| *c != ' ').collect();
    if FORBIDDEN_FUNCTIONS.iter().any(|f| squeezed.contains(f)) || squeezed.contains("javascript") {
        return false;
    }
    let mut depth = 0i32;
    for c in value.chars() {
        depth += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        if depth < 0 {
            return false;
        }
    }
    depth == 0
        && value.matches('"').count().is_multiple_of(2)
        && value.matches('\'').count().is_multiple_of(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expr(src: &str) -> Option<String> {
        from_attr(&AttrValue::Expr(src))
    }

    #[test]
    fn objects_become_declarations_with_react_units() {
        assert_eq!(
            expr("{ display: 'flex', gap: 16, flexGrow: 1, marginTop: 0, backgroundColor: \"#fff\" }").as_deref(),
            Some("display:flex;gap:16px;flex-grow:1;margin-top:0;background-color:#fff")
        );
        assert_eq!(
            expr("{ WebkitLineClamp: 2, msFlex: 1, '--accent': 'red' }").as_deref(),
            Some("-webkit-line-clamp:2;-ms-flex:1;--accent:red")
        );
        assert_eq!(
            expr("{ marginTop: 8, margin: 0 }").as_deref(),
            Some("margin-top:8px;margin:0"),
            "React's order: the later one wins"
        );
        assert_eq!(
            from_attr(&AttrValue::Str(
                "color: Red; font-family: \"Inter\", sans-serif"
            ))
            .as_deref(),
            Some("color:Red;font-family:\"Inter\", sans-serif")
        );
        assert_eq!(expr("someVariable"), None);
    }

    #[test]
    fn hostile_values_never_leave_the_rule() {
        for hostile in [
            "{ color: 'red;}body{display:none' }",
            "{ color: 'red}' }",
            "{ background: 'url(javascript:alert(1))' }",
            "{ background: 'URL (https://evil.example/x.png)' }",
            "{ backgroundImage: 'image-set(\"x.png\" 1x)' }",
            "{ color: '</style><script>alert(1)</script>' }",
            "{ color: 'red\\\\3b x' }",
            "{ width: 'expression(alert(1))' }",
            "{ color: '\"unclosed' }",
            "{ color: 'a /* comment' }",
            "{ color: 'calc(1px' }",
            "{ fontFamily: '@import x' }",
            "{ behavior: 'x.htc' }",
            "{ 'color;}x{': 'red' }",
        ] {
            assert_eq!(expr(hostile), None, "{hostile}");
        }
        assert_eq!(
            from_attr(&AttrValue::Str("color:red;}body{x:y;background:url(x)")).as_deref(),
            Some("color:red")
        );
        assert_eq!(
            from_attr(&AttrValue::Str("@import 'x'; color: blue")).as_deref(),
            Some("color:blue")
        );
    }
}
