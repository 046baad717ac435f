//! The site's look from docs.json (mint.json read into the same settings): `appearance` (the
//! default theme, and `strict`: no toggle), `fonts` (family and weight for body and headings; each
//! local font file as an `@font-face` with its weight and format; a remote source is never fetched,
//! so its family applies only where the reader has it), `background` (colour and image per theme,
//! `decoration`). Everything lands in `site.css` as rules, or as attributes of `<html>` the theme
//! boot reads: no inline style.

use crate::docs::config::SiteConfig;
use crate::docs::settings::{Fonts, Pair};
use crate::docs::SourceTree;

use crate::export::html::{attr, safe_color};
use crate::export::render::links::{asset_path, relative};

/// The files of the look the bundle carries: local font files and background images.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct LookFiles {
    /// The file of each of [`Fonts::parts`] whose source is in the repository.
    pub(crate) fonts: [Option<String>; 3],
    pub(crate) background_light: Option<String>,
    pub(crate) background_dark: Option<String>,
}

impl LookFiles {
    pub(crate) fn new(config: &SiteConfig, tree: &SourceTree) -> Self {
        let local =
            |url: Option<&String>| url.and_then(|u| asset_path(tree, "index", "docs.json", u));
        let image = config.background.image.as_ref();
        let fonts = config
            .fonts
            .as_ref()
            .map(|f| f.parts().map(|part| local(part.source.as_ref())))
            .unwrap_or_default();
        Self {
            fonts,
            background_light: local(image.and_then(|p| p.light.as_ref().or(p.dark.as_ref()))),
            background_dark: local(image.and_then(|p| p.dark.as_ref().or(p.light.as_ref()))),
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &String> {
        self.fonts
            .iter()
            .chain([&self.background_light, &self.background_dark])
            .flatten()
    }
}

/// `data-appearance` (`light` or `dark`: the theme before the reader picks one) and
/// `data-appearance-strict` (no toggle, the reader's choice ignored) on `<html>`.
pub(crate) fn html_attrs(out: &mut String, config: &SiteConfig) {
    if let Some(default) = config
        .appearance
        .default
        .as_deref()
        .filter(|d| matches!(*d, "light" | "dark"))
    {
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
    let plain = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_'));
    plain.then_some(name)
}

/// How far down the page the `grid` decoration fades out (about the first screen).
const GRID_FADE: &str = "28rem";

/// The `format()` hint of a font file: the author's `format`, else the file's extension; none for
/// anything else (the browser then reads the file to tell).
fn font_format(format: Option<&str>, file: &str) -> Option<&'static str> {
    let name = format.unwrap_or_else(|| file.rsplit('.').next().unwrap_or(""));
    match name.trim().to_ascii_lowercase().as_str() {
        "woff2" => Some("woff2"),
        "woff" => Some("woff"),
        "ttf" | "truetype" => Some("truetype"),
        "otf" | "opentype" => Some("opentype"),
        _ => None,
    }
}

/// An `@font-face` for each font written with a family and a file in the repository (its own weight
/// and format), then the family and weight of body text and of headings.
fn font_rules(css: &mut String, fonts: &Fonts, files: &LookFiles, css_file: &str) {
    let mut declared = Vec::new();
    for (part, file) in fonts.parts().into_iter().zip(&files.fonts) {
        let (Some(name), Some(file)) = (part.family.as_deref().and_then(family), file) else {
            continue;
        };
        let face = (name, file, part.weight);
        if declared.contains(&face) {
            continue;
        }
        declared.push(face);
        css.push_str(&format!(
            "@font-face {{ font-family: \"{name}\"; src: url(\"{}\")",
            relative(css_file, file)
        ));
        if let Some(format) = font_format(part.format.as_deref(), file) {
            css.push_str(&format!(" format(\"{format}\")"));
        }
        if let Some(weight) = part.weight {
            css.push_str(&format!("; font-weight: {weight}"));
        }
        css.push_str("; font-display: swap; }\n");
    }
    let body = fonts.for_body();
    if let Some(name) = body.family.as_deref().and_then(family) {
        css.push_str(&format!(":root {{ --font: \"{name}\", system-ui, -apple-system, \"Segoe UI\", Roboto, Arial, sans-serif; }}\n"));
    }
    if let Some(weight) = body.weight {
        css.push_str(&format!("body {{ font-weight: {weight}; }}\n"));
    }
    let heading = fonts.for_headings();
    let heading_rules: Vec<String> = [
        heading
            .family
            .as_deref()
            .and_then(family)
            .map(|name| format!("font-family: \"{name}\", var(--font)")),
        heading
            .weight
            .map(|weight| format!("font-weight: {weight}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !heading_rules.is_empty() {
        css.push_str(&format!(
            "h1, h2, h3, h4, h5, h6 {{ {}; }}\n",
            heading_rules.join("; ")
        ));
    }
}

/// The rules of the look, for `site.css` (at `css_file` in the bundle): the theme's first, then
/// fonts and background, which override it; empty for a site that sets none of it.
pub(crate) fn stylesheet(config: &SiteConfig, files: &LookFiles, css_file: &str) -> String {
    let mut css = String::from(crate::export::page::site_theme::rules(
        config.theme.as_deref(),
    ));
    if let Some(fonts) = &config.fonts {
        font_rules(&mut css, fonts, files, css_file);
    }
    let background = &config.background;
    let color = |pick: fn(&Pair) -> Option<&String>| {
        background
            .color
            .as_ref()
            .and_then(pick)
            .and_then(|c| safe_color(c))
    };
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
    if let Some(dark) = files
        .background_dark
        .as_ref()
        .filter(|d| Some(*d) != files.background_light.as_ref())
    {
        css.push_str(&format!(
            ":root[data-theme=\"dark\"] body {{ background-image: {}; }}\n",
            image(dark)
        ));
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
        css.push_str(&format!(
            "body {{ background-image: {decoration}; background-attachment: fixed; }}\n"
        ));
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
        let c = config(
            r##"{"name": "x", "navigation": {"pages": ["a"]}, "fonts": {"family": "Inter", "source": "/fonts/inter.woff2"},
            "background": {"color": {"light": "#fafafa", "dark": "#0a0a0a"}, "image": "/images/bg.png"},
            "appearance": {"default": "dark", "strict": true}}"##,
        );
        let files = LookFiles::new(&c, &t);
        assert_eq!(
            files.iter().collect::<Vec<_>>(),
            ["fonts/inter.woff2", "images/bg.png", "images/bg.png"]
        );
        let css = stylesheet(&c, &files, "_static/site.css");
        assert!(css.contains("@font-face { font-family: \"Inter\"; src: url(\"../fonts/inter.woff2\") format(\"woff2\"); font-display: swap; }"), "{css}");
        assert!(css.contains("--font: \"Inter\", system-ui"), "{css}");
        assert!(
            css.contains(":root { --bg: #fafafa; }") && css.contains("--bg: #0a0a0a"),
            "{css}"
        );
        assert!(css.contains("url(\"../images/bg.png\")"), "{css}");
        let mut html = String::new();
        html_attrs(&mut html, &c);
        assert_eq!(html, " data-appearance=\"dark\" data-appearance-strict");
        assert!(!toggle(&c));
    }

    #[test]
    fn heading_and_body_fonts_get_their_faces_weights_and_formats() {
        let t = tree(&[
            ("fonts/Display-Bold.woff2", "b"),
            ("fonts/Display-Regular.woff2", "r"),
            ("fonts/text.ttf", "t"),
        ]);
        let c = config(
            r#"{"name": "x", "navigation": {"pages": ["a"]}, "fonts": {
            "heading": {"family": "Display", "weight": 700, "source": "/fonts/Display-Bold.woff2", "format": "woff2"},
            "body": {"family": "Display", "weight": 400, "source": "fonts/Display-Regular.woff2", "format": "woff2"}}}"#,
        );
        let files = LookFiles::new(&c, &t);
        assert_eq!(
            files.iter().collect::<Vec<_>>(),
            ["fonts/Display-Bold.woff2", "fonts/Display-Regular.woff2"]
        );
        let css = stylesheet(&c, &files, "_static/site.css");
        let faces: Vec<&str> = css
            .lines()
            .filter(|l| l.starts_with("@font-face"))
            .collect();
        assert_eq!(faces, [
            "@font-face { font-family: \"Display\"; src: url(\"../fonts/Display-Bold.woff2\") format(\"woff2\"); font-weight: 700; font-display: swap; }",
            "@font-face { font-family: \"Display\"; src: url(\"../fonts/Display-Regular.woff2\") format(\"woff2\"); font-weight: 400; font-display: swap; }",
        ]);
        assert!(
            css.contains("--font: \"Display\", system-ui")
                && css.contains("body { font-weight: 400; }"),
            "{css}"
        );
        assert!(css.contains("h1, h2, h3, h4, h5, h6 { font-family: \"Display\", var(--font); font-weight: 700; }"), "{css}");

        // One site font with a weight: one face, the weight on body text, headings keep their bold;
        // the format from the file's name when not given, and none for a name nobody knows.
        let c = config(
            r#"{"name": "x", "navigation": {"pages": ["a"]}, "fonts": {"family": "Text", "weight": 350, "source": "/fonts/text.ttf", "heading": {"weight": 800}}}"#,
        );
        let css = stylesheet(&c, &LookFiles::new(&c, &t), "_static/site.css");
        assert_eq!(css.matches("@font-face").count(), 1, "{css}");
        assert!(
            css.contains("url(\"../fonts/text.ttf\") format(\"truetype\"); font-weight: 350;"),
            "{css}"
        );
        assert!(css.contains("body { font-weight: 350; }") && css.contains("h1, h2, h3, h4, h5, h6 { font-family: \"Text\", var(--font); font-weight: 800; }"), "{css}");
        assert_eq!(
            font_format(Some("embedded-opentype\"); x"), "a.woff2"),
            None
        );
        assert_eq!(font_format(None, "a.OTF"), Some("opentype"));
    }

    #[test]
    fn remote_fonts_are_not_fetched_and_hostile_values_are_dropped() {
        let t = tree(&[]);
        let c = config(
            r#"{"name": "x", "navigation": {"pages": ["a"]}, "fonts": {"family": "Evil\"; } body { x", "source": "https://fonts.example.com/x.woff2"},
            "background": {"color": {"light": "red;}body{x:y"}, "image": "https://cdn.example.com/bg.png", "decoration": "grid"}}"#,
        );
        let files = LookFiles::new(&c, &t);
        assert_eq!(files.iter().count(), 0);
        let css = stylesheet(&c, &files, "_static/site.css");
        assert!(
            !css.contains("font-face")
                && !css.contains("Evil")
                && !css.contains("example.com")
                && !css.contains("red"),
            "{css}"
        );
        assert!(
            css.contains("background-size: 100% 100%, 2.5rem 2.5rem"),
            "{css}"
        );
        assert!(
            css.contains(&format!("transparent, var(--bg) {GRID_FADE})")) && !css.contains("fixed"),
            "the grid fades out at the top: {css}"
        );
        let remote_font = config(
            r#"{"name": "x", "navigation": {"pages": ["a"]}, "fonts": {"family": "Inter", "source": "https://fonts.example.com/inter.css",
            "heading": {"family": "Lora", "weight": 600, "source": "https://fonts.example.com/lora.woff2", "format": "woff2"}}}"#,
        );
        let css = stylesheet(
            &remote_font,
            &LookFiles::new(&remote_font, &t),
            "_static/site.css",
        );
        assert!(
            css.contains("--font: \"Inter\", system-ui")
                && !css.contains("font-face")
                && !css.contains("example.com"),
            "{css}"
        );
        assert!(
            css.contains(
                "h1, h2, h3, h4, h5, h6 { font-family: \"Lora\", var(--font); font-weight: 600; }"
            ),
            "{css}"
        );
    }
}
