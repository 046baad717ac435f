//! Tailwind utility classes written in pages (`className="grid grid-cols-2 gap-4"`) -> the CSS
//! for exactly those classes, by encre-css (a maintained Tailwind v4-compatible generator), so
//! landing pages keep their layout in the export.
//!
//! encre-css copies arbitrary values (`w-[…]`, `[prop:value]`) into the rule as written, so a class
//! like `w-[1px;}body{display:none]` would close its rule: such classes are refused here before
//! generation, by the same value allow-list as authors' `style` props. `dark:` follows the export's
//! theme attribute (`<html data-theme="dark">`, set by the theme boot from the toggle, the
//! site's `appearance` or the reader's preference).

use encre_css::config::DarkMode;
use encre_css::{Config, Preflight};

use super::declarations::safe_value;

/// Longest class token generated for.
const MAX_CLASS: usize = 128;

/// The selector of the dark theme the `dark:` variant is scoped to.
const DARK_SELECTOR: &str = ":root[data-theme=\"dark\"]";

/// Whether `class` may be handed to the generator: a plain utility, or one whose bracketed
/// arbitrary value passes [`safe_value`] (with Tailwind's `_` for spaces and `:` inside
/// `[prop:value]`).
pub(crate) fn generatable(class: &str) -> bool {
    if class.is_empty() || class.len() > MAX_CLASS {
        return false;
    }
    let plain = |c: char| {
        c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '/' | '.' | '!' | '@' | '*')
    };
    let Some(open) = class.find('[') else {
        return class.chars().all(plain) && !class.contains('@') || container_query(class);
    };
    let Some(close) = class.rfind(']').filter(|&c| c > open) else {
        return false;
    };
    let (prefix, inner, suffix) = (&class[..open], &class[open + 1..close], &class[close + 1..]);
    if !prefix.chars().all(plain)
        || prefix.contains('@')
        || !suffix.chars().all(|c| plain(c) && c != '@')
    {
        return false;
    }
    // `[mask-type:luminance]`: a property and its value.
    let value = match inner.split_once(':') {
        Some((property, value)) if prefix.is_empty() || prefix.ends_with(':') => {
            if !property.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
                return false;
            }
            value
        }
        _ => inner,
    };
    !value.contains(':') && !value.contains('[') && safe_value(&value.replace('_', " "))
}

/// `@container` and `@md:flex`: the generator's container queries, names only.
fn container_query(class: &str) -> bool {
    class.starts_with('@')
        && class[1..]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | ':' | '/'))
}

/// The CSS of the generatable `classes`, without Tailwind's preflight (the site's stylesheet is the
/// base); empty when none is a utility.
pub(crate) fn generate<'a>(classes: impl IntoIterator<Item = &'a str>) -> String {
    let mut config = Config::default();
    config.preflight = Preflight::None;
    config.theme.dark_mode = DarkMode::new_class(DARK_SELECTOR);
    let kept: Vec<&str> = classes.into_iter().filter(|c| generatable(c)).collect();
    if kept.is_empty() {
        return String::new();
    }
    super::readable::text_colours(&encre_css::generate(kept, &config), DARK_SELECTOR)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_responsive_dark_and_arbitrary_classes_are_generated() {
        let css = generate([
            "grid",
            "grid-cols-2",
            "md:grid-cols-3",
            "gap-4",
            "dark:bg-zinc-900",
            "w-[350px]",
            "grid-cols-[1fr_2fr]",
            "bg-[#123456]",
            "card",
        ]);
        assert!(css.contains(".grid {\n  display: grid;"), "{css}");
        assert!(
            css.contains("grid-template-columns: repeat(2, minmax(0, 1fr))"),
            "{css}"
        );
        assert!(
            css.contains("@media (width >= 48rem)") && css.contains(".md\\:grid-cols-3"),
            "{css}"
        );
        assert!(
            css.contains(":root[data-theme=\"dark\"] .dark\\:bg-zinc-900"),
            "{css}"
        );
        assert!(
            css.contains("width: 350px")
                && css.contains("grid-template-columns: 1fr 2fr")
                && css.contains("#123456"),
            "{css}"
        );
        assert!(!css.contains(".card"), "not a utility: {css}");
    }

    #[test]
    fn arbitrary_values_that_would_escape_or_fetch_are_refused() {
        for hostile in [
            "w-[1px;}body{display:none]",
            "bg-[url(javascript:alert(1))]",
            "bg-[url(https://evil.example/x.png)]",
            "[background:url(x)]",
            "content-['</style>']",
            "w-[calc(1px]",
            "[color:red;x:y]",
            "w-[1px\\}]",
            "before:content-['@import_x']",
            "w-[1px]{}",
        ] {
            assert!(!generatable(hostile), "{hostile}");
        }
        let css = generate([
            "w-[1px;}body{display:none]",
            "bg-[url(javascript:alert(1))]",
            "[color:red]",
            "p-2.5",
            "w-1/2",
            "!mt-4",
        ]);
        assert!(
            !css.contains("javascript") && !css.contains("body{") && !css.contains("url("),
            "{css}"
        );
        assert!(
            css.contains("color: red")
                && css.contains("padding: 0.625rem")
                && css.contains("width: 50%"),
            "{css}"
        );
        assert_eq!(css.matches('{').count(), css.matches('}').count(), "{css}");
    }
}
