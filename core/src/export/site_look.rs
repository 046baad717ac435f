//! The site's look from docs.json (mint.json read into the same settings): `appearance` (the
//! default theme, and `strict`: no toggle), `fonts` (family for body and headings, a local font
//! file as `@font-face`; a remote source is never fetched, so its family applies only where the
//! reader has it, after the system fallbacks' turn), `background` (colour and image per theme,
//! `decoration`). Everything lands in `site.css` as rules, or as attributes of `<html>` the theme
//! boot reads: no inline style.

use crate::docs::config::SiteConfig;
use crate::docs::settings::Pair;
use crate::docs::SourceTree;

use super::html::{attr, safe_color};
use super::links::{asset_path, relative};

/// The files of the look the bundle carries: a local font file and background images.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct LookFiles {
    pub(crate) font: Option<String>,
    pub(crate) background_light: Option<String>,
    pub(crate) background_dark: Option<String>,
}

impl LookFiles {
    pub(crate) fn new(config: &SiteConfig, tree: &SourceTree) -> Self {
        let local = |url: Option<&String>| url.and_then(|u| asset_path(tree, "index", "docs.json", u));
        let image = config.background.image.as_ref();
        Self {
            font: local(config.fonts.as_ref().and_then(|f| f.source.as_ref())),
            background_light: local(image.and_then(|p| p.light.as_ref().or(p.dark.as_ref()))),
            background_dark: local(image.and_then(|p| p.dark.as_ref().or(p.light.as_ref()))),
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &String> {
        [&self.font, &self.background_light, &self.background_dark].into_iter().flatten()
    }
}

/// `data-appearance` (`light` or `dark`: the theme before the reader picks one) and
/// `data-appearance-strict` (no toggle, the reader's choice ignored) on `<html>`.
pub(crate) fn html_attrs(out: &mut String, config: &SiteConfig) {
    if let Some(default) = config.appearance.default.as_deref().filter(|d| matches!(*d, "light" | "dark")) {
        attr(out, "data-appearance", default);
    }
    if config.appearance.strict {
        out.push_str(" data-appearance-strict");
    }
}

/// Whether pages offer the light/dark toggle.
pub(crate) fn toggle(config: &SiteConfig) -> bool {
    !config.appearance.strict
}

/// A font family name safe inside CSS quotes.
fn family(name: &str) -> Option<&str> {
    let name = name.trim();
    let plain = !name.is_empty() && name.len() <= 64 && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_'));
    plain.then_some(name)
}

/// The rules of the look, for `site.css` (at `css_file` in the bundle); empty for a site that sets
/// none of it.
/// How far down the page the `grid` decoration fades out (about the first screen).
const GRID_FADE: &str = "28rem";

pub(crate) fn stylesheet(config: &SiteConfig, files: &LookFiles, css_file: &str) -> String {
    let mut css = String::new();
    let fonts = config.fonts.as_ref();
    let body = fonts.and_then(|f| f.body.as_deref().or(f.family.as_deref())).and_then(family);
    let heading = fonts.and_then(|f| f.heading.as_deref().or(f.family.as_deref())).and_then(family);
    if let (Some(name), Some(file)) = (fonts.and_then(|f| f.family.as_deref()).and_then(family), &files.font) {
        css.push_str(&format!("@font-face {{ font-family: \"{name}\"; src: url(\"{}\"); font-display: swap; }}\n", relative(css_file, file)));
    }
    if let Some(name) = body {
        css.push_str(&format!(":root {{ --font: \"{name}\", system-ui, -apple-system, \"Segoe UI\", Roboto, Arial, sans-serif; }}\n"));
    }
    if let Some(name) = heading {
        css.push_str(&format!("h1, h2, h3, h4, h5, h6 {{ font-family: \"{name}\", var(--font); }}\n"));
    }
    let background = &config.background;
    let color = |pick: fn(&Pair) -> Option<&String>| background.color.as_ref().and_then(pick).and_then(|c| safe_color(c));
    if let Some(light) = color(|p| p.light.as_ref()) {
        css.push_str(&format!(":root {{ --bg: {light}; }}\n"));
    }
    if let Some(dark) = color(|p| p.dark.as_ref()) {
        css.push_str(&format!(":root[data-theme=\"dark\"] {{ --bg: {dark}; }}\n@media (prefers-color-scheme: dark) {{ :root:not([data-theme=\"light\"]) {{ --bg: {dark}; }} }}\n"));
    }
    let image = |file: &String| format!("url(\"{}\")", relative(css_file, file));
    if let Some(light) = &files.background_light {
        css.push_str(&format!("body {{ background-image: {}; background-size: cover; background-attachment: fixed; }}\n", image(light)));
    }
    if let Some(dark) = files.background_dark.as_ref().filter(|d| Some(*d) != files.background_light.as_ref()) {
        css.push_str(&format!(":root[data-theme=\"dark\"] body {{ background-image: {}; }}\n", image(dark)));
    }
    let decoration = match background.decoration.as_deref() {
        Some("gradient") => "radial-gradient(60rem 30rem at 50% -10rem, color-mix(in srgb, var(--primary) 18%, transparent), transparent)",
        Some("grid") => "linear-gradient(var(--border) 1px, transparent 1px), linear-gradient(90deg, var(--border) 1px, transparent 1px)",
        Some("windows") => "linear-gradient(180deg, color-mix(in srgb, var(--primary) 10%, transparent), transparent 24rem)",
        _ => "",
    };
    if decoration.is_empty() || files.background_light.is_some() {
        return css;
    }
    if background.decoration.as_deref() == Some("grid") {
        // The grid sits behind the top of the page, as on the live site: it scrolls with the page
        // and fades into the background colour over the first screen, under a layer of that colour.
        css.push_str(&format!(
            "body {{ background-image: linear-gradient(to bottom, transparent, var(--bg) {GRID_FADE}), {decoration}; \
             background-size: 100% 100%, 2.5rem 2.5rem, 2.5rem 2.5rem; background-repeat: no-repeat, repeat, repeat; }}\n"
        ));
    } else {
        css.push_str(&format!("body {{ background-image: {decoration}; background-attachment: fixed; }}\n"));
    }
    css
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::archive::tree;
    use crate::docs::config::parse_config;

    fn config(json: &str) -> SiteConfig {
        parse_config(&tree(&[("docs.json", json)]), &mut Vec::new()).unwrap()
    }

    #[test]
    fn fonts_backgrounds_and_appearance_become_rules_and_attributes() {
        let t = tree(&[("fonts/inter.woff2", "w"), ("images/bg.png", "p")]);
        let c = config(r##"{"name": "x", "navigation": {"pages": ["a"]}, "fonts": {"family": "Inter", "source": "/fonts/inter.woff2"},
            "background": {"color": {"light": "#fafafa", "dark": "#0a0a0a"}, "image": "/images/bg.png"},
            "appearance": {"default": "dark", "strict": true}}"##);
        let files = LookFiles::new(&c, &t);
        assert_eq!(files.iter().collect::<Vec<_>>(), ["fonts/inter.woff2", "images/bg.png", "images/bg.png"]);
        let css = stylesheet(&c, &files, "_static/site.css");
        assert!(css.contains("@font-face { font-family: \"Inter\"; src: url(\"../fonts/inter.woff2\")"), "{css}");
        assert!(css.contains("--font: \"Inter\", system-ui"), "{css}");
        assert!(css.contains(":root { --bg: #fafafa; }") && css.contains("--bg: #0a0a0a"), "{css}");
        assert!(css.contains("url(\"../images/bg.png\")"), "{css}");
        let mut html = String::new();
        html_attrs(&mut html, &c);
        assert_eq!(html, " data-appearance=\"dark\" data-appearance-strict");
        assert!(!toggle(&c));
    }

    #[test]
    fn remote_fonts_are_not_fetched_and_hostile_values_are_dropped() {
        let t = tree(&[]);
        let c = config(r#"{"name": "x", "navigation": {"pages": ["a"]}, "fonts": {"family": "Evil\"; } body { x", "source": "https://fonts.example.com/x.woff2"},
            "background": {"color": {"light": "red;}body{x:y"}, "image": "https://cdn.example.com/bg.png", "decoration": "grid"}}"#);
        let files = LookFiles::new(&c, &t);
        assert_eq!(files.iter().count(), 0);
        let css = stylesheet(&c, &files, "_static/site.css");
        assert!(!css.contains("font-face") && !css.contains("Evil") && !css.contains("example.com") && !css.contains("red"), "{css}");
        assert!(css.contains("background-size: 100% 100%, 2.5rem 2.5rem"), "{css}");
        assert!(css.contains(&format!("transparent, var(--bg) {GRID_FADE})")) && !css.contains("fixed"), "the grid fades out at the top: {css}");
        let remote_font = config(r#"{"name": "x", "navigation": {"pages": ["a"]}, "fonts": {"family": "Inter", "source": "https://fonts.example.com/inter.css"}}"#);
        let css = stylesheet(&remote_font, &LookFiles::new(&remote_font, &t), "_static/site.css");
        assert!(css.contains("--font: \"Inter\", system-ui") && !css.contains("font-face"), "{css}");
    }
}
