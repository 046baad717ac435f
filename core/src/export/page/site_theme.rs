//! docs.json `theme` in the export: each of the format's themes (mint, maple, palm, willow, linden,
//! almond, aspen, sequoia, luma) as the rules that give it its character, as the format's own theme
//! page describes each one ("retro terminal vibes with monospace fonts", "card-based organization",
//! "stripped-back essentials", ...). The hosted themes' stylesheets are not public, so these are the
//! hallmarks, not copies: type, corners, borders, the sidebar's current page and the content's
//! frame. They come first in `site.css`'s site rules, so docs.json `fonts` and `background` still
//! override them.

/// The rules of `theme`; empty for `mint` (the export's own look is the classic one), for no theme
/// and for a name the format does not have.
pub(crate) fn rules(theme: Option<&str>) -> &'static str {
    match theme.map(str::trim) {
        Some("maple") => MAPLE,
        Some("palm") => PALM,
        Some("willow") => WILLOW,
        Some("linden") => LINDEN,
        Some("almond") => ALMOND,
        Some("aspen") => ASPEN,
        Some("sequoia") => SEQUOIA,
        Some("luma") => LUMA,
        _ => "",
    }
}

/// Modern and clean: rounder corners, a header without a rule, the current page as a tinted pill.
const MAPLE: &str = "\
:root { --radius: 14px; }
.topbar { border-bottom-color: transparent; box-shadow: 0 1px 12px rgba(0,0,0,.06); }
.nav-tree a { border-radius: 999px; padding-left: .75rem; }
.nav-tree a.current { background: color-mix(in srgb, var(--accent) 12%, transparent); }
.page-header h1 { letter-spacing: -.02em; }
";

/// Sophisticated, for enterprise docs: a shaded sidebar set off by a rule, firm headings, tight corners.
const PALM: &str = "\
:root { --radius: 6px; }
.sidebar { background: var(--soft); border-right: 1px solid var(--border); }
.nav-tree a.current { background: var(--bg); box-shadow: inset 2px 0 0 var(--accent); border-radius: 0 6px 6px 0; }
.page-header h1 { font-weight: 750; letter-spacing: -.01em; }
";

/// Stripped-back essentials: no rules around the header, footer or nested lists; small corners.
const WILLOW: &str = "\
:root { --radius: 4px; }
.topbar { border-bottom-color: transparent; }
.nav-tree ul ul { border-left-color: transparent; }
.nav-tree a.current { background: none; }
.site-footer { border-top-color: transparent; }
";

/// Retro terminal: monospace type throughout, square corners, upper-case section labels.
const LINDEN: &str = "\
:root { --font: var(--mono); --radius: 0; }
body { font-size: 15px; }
.nav-tree a, .search-input, .theme-toggle, .menu-toggle, .lang-switch summary { border-radius: 0; }
.nav-section-label { text-transform: uppercase; letter-spacing: .06em; }
";

/// Cards and minimalism: the page sits on a card, sidebar entries are rounded tiles.
const ALMOND: &str = "\
:root { --radius: 16px; }
.content { margin: 1rem 1rem 2rem 0; border: 1px solid var(--border); border-radius: var(--radius); background: var(--bg); }
.sidebar { background: var(--soft); }
.nav-tree a { border-radius: 10px; }
.nav-tree a.current { background: var(--bg); box-shadow: 0 0 0 1px var(--border); }
";

/// For deep navigation: small upper-case group labels, nested levels set off by the accent.
const ASPEN: &str = "\
:root { --radius: 12px; }
.nav-section-label { text-transform: uppercase; letter-spacing: .05em; font-size: .72rem; color: var(--muted); }
.nav-tree ul ul { border-left-color: color-mix(in srgb, var(--accent) 30%, var(--border)); }
.nav-tree a.current { background: color-mix(in srgb, var(--accent) 10%, transparent); }
";

/// Content first and elegant: lighter, larger headings and roomier text.
const SEQUOIA: &str = "\
:root { --radius: 8px; }
body { line-height: 1.75; }
.page-header h1 { font-size: 2.3rem; font-weight: 550; letter-spacing: -.02em; }
.prose :is(h2, h3) { font-weight: 550; }
.nav-tree a.current { background: none; }
";

/// Clean and polished: soft corners, no rule under the header, a quiet current page.
const LUMA: &str = "\
:root { --radius: 12px; }
.topbar { border-bottom-color: transparent; }
.nav-tree a { border-radius: 8px; }
.nav-tree a.current { background: color-mix(in srgb, var(--accent) 8%, transparent); }
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_theme_of_the_format_has_rules_of_its_own_and_others_none() {
        let themes = [
            "maple", "palm", "willow", "linden", "almond", "aspen", "sequoia", "luma",
        ];
        let all: Vec<&str> = themes.iter().map(|t| rules(Some(t))).collect();
        for (theme, css) in themes.iter().zip(&all) {
            assert!(!css.is_empty(), "{theme}");
            assert_eq!(
                all.iter().filter(|c| *c == css).count(),
                1,
                "{theme} shares its rules"
            );
            // No rule may reach outside the page: no url(), no @import.
            assert!(!css.contains("url(") && !css.contains("@import"), "{theme}");
        }
        assert!(rules(Some("linden")).contains("--font: var(--mono)"));
        for none in [
            None,
            Some("mint"),
            Some("evil; } body { display: none"),
            Some(""),
        ] {
            assert_eq!(rules(none), "", "{none:?}");
        }
    }
}
