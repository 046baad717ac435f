//! Authors' Tailwind text colours just under WCAG AA on the export's page background
//! (`dark:text-zinc-500` is 4.0:1 on the dark theme) moved just far enough to reach it: lighter in
//! the dark theme, darker in the light one, hue and chroma kept. Only colours within reach
//! (3:1 and up) are moved; a colour far under AA is meant for a background of the author's own
//! (`bg-black text-white`), which this cannot see. A colour without `dark:` shows in both themes,
//! so it is checked on both backgrounds.

use crate::export::page::contrast::{contrast, DARK_BG, LIGHT_BG};

/// The contrast colours are moved to, a margin over 4.5:1.
const TARGET: f64 = 4.6;
/// Under this, a colour is taken to sit on a background of its own.
const WITHIN_REACH: f64 = 3.0;

/// `css` (encre-css output: one declaration a line) with its `color: oklch(…)` declarations readable
/// on the theme their rule is scoped to (`dark` marks the dark theme's selector).
pub(crate) fn text_colours(css: &str, dark: &str) -> String {
    let mut out = String::with_capacity(css.len());
    // A colour without `dark:` shows in both themes: where it is under AA on the dark background
    // only, a rule for the dark theme follows, no more specific than the class itself, so an
    // author's `dark:` colour still wins over it.
    let mut dark_overrides = String::new();
    let mut in_dark = false;
    let mut selector = "";
    for line in css.split_inclusive('\n') {
        if let Some((before, _)) = line.split_once('{') {
            in_dark = line.contains(dark);
            selector = before.trim();
        }
        match line
            .trim_start()
            .strip_prefix("color: oklch(")
            .and_then(|rest| rest.split_once(')'))
        {
            Some((args, tail)) => {
                let colour = parse(args);
                if let Some([l, c, h]) = colour
                    .filter(|_| !in_dark && plain_class(selector))
                    .and_then(|c| readable(c, true))
                {
                    dark_overrides.push_str(&format!(
                        ":where({dark}) {selector} {{ color: oklch({:.1}% {c} {h}); }}\n",
                        l * 100.0
                    ));
                }
                match colour.map(|c| readable(c, in_dark)) {
                    Some(Some([l, c, h])) => {
                        let indent = &line[..line.len() - line.trim_start().len()];
                        out.push_str(&format!(
                            "{indent}color: oklch({:.1}% {c} {h}){tail}",
                            l * 100.0
                        ));
                    }
                    _ => out.push_str(line),
                }
            }
            None => out.push_str(line),
        }
    }
    out.push_str(&dark_overrides);
    out
}

/// A selector of one plain utility class (`.text-gray-500`): variants (`sm:`, `hover:`) sit in
/// media queries or states the dark rule would escape.
fn plain_class(selector: &str) -> bool {
    selector.starts_with('.') && !selector.contains(['\\', ':', ' ', ','])
}

fn parse(args: &str) -> Option<[f64; 3]> {
    let mut parts = args.split_whitespace();
    let l = parts.next()?;
    let l = match l.strip_suffix('%') {
        Some(p) => p.parse::<f64>().ok()? / 100.0,
        None => l.parse().ok()?,
    };
    let c = parts.next()?.parse().ok()?;
    let h = parts.next()?.parse().ok()?;
    parts.next().is_none().then_some([l, c, h])
}

/// The colour moved in lightness to reach [`TARGET`] on the theme's background; `None` when it
/// reaches it already or is out of reach.
fn readable([l, c, h]: [f64; 3], dark: bool) -> Option<[f64; 3]> {
    let bg = if dark { DARK_BG } else { LIGHT_BG };
    let start = contrast(srgb(l, c, h), bg);
    if !(WITHIN_REACH..4.5).contains(&start) {
        return None;
    }
    let step = if dark { 0.005 } else { -0.005 };
    (1..=100)
        .map(|i| (l + step * f64::from(i)).clamp(0.0, 1.0))
        .find(|&l| contrast(srgb(l, c, h), bg) >= TARGET)
        .map(|l| [l, c, h])
}

/// OKLCH -> sRGB (0–255, clamped), by Björn Ottosson's OKLab matrices.
fn srgb(l: f64, c: f64, h: f64) -> [f64; 3] {
    let (a, b) = (c * h.to_radians().cos(), c * h.to_radians().sin());
    let l_ = (l + 0.396_337_777_4 * a + 0.215_803_757_3 * b).powi(3);
    let m_ = (l - 0.105_561_345_8 * a - 0.063_854_172_8 * b).powi(3);
    let s_ = (l - 0.089_484_177_5 * a - 1.291_485_548 * b).powi(3);
    let linear = [
        4.076_741_662_1 * l_ - 3.307_711_591_3 * m_ + 0.230_969_929_2 * s_,
        -1.268_438_004_6 * l_ + 2.609_757_401_1 * m_ - 0.341_319_396_5 * s_,
        -0.004_196_086_3 * l_ - 0.703_418_614_7 * m_ + 1.707_614_701 * s_,
    ];
    linear.map(|x| {
        let x = x.clamp(0.0, 1.0);
        let v = if x <= 0.003_130_8 {
            12.92 * x
        } else {
            1.055 * x.powf(1.0 / 2.4) - 0.055
        };
        (v * 255.0).round()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DARK: &str = ":root[data-theme=\"dark\"]";

    #[test]
    fn oklch_converts_as_css_does() {
        // Tailwind v4's zinc-500 and gray-500, as Chromium computes them.
        assert_eq!(srgb(0.552, 0.016, 285.938), [113.0, 113.0, 123.0]);
        assert_eq!(srgb(0.551, 0.027, 264.364), [106.0, 114.0, 130.0]);
    }

    #[test]
    fn text_just_under_aa_moves_to_it_and_only_that() {
        let css = ".text-gray-500 {\n  color: oklch(55.1% .027 264.364);\n}\n\n\
                   :root[data-theme=\"dark\"] .dark\\:text-zinc-500 {\n  color: oklch(55.2% .016 285.938);\n}\n\n\
                   :root[data-theme=\"dark\"] .dark\\:text-white {\n  color: oklch(100% 0 0);\n}\n\n\
                   .text-white {\n  color: oklch(100% 0 0);\n}\n\n\
                   .bg-zinc-500 {\n  background-color: oklch(55.2% .016 285.938);\n}\n";
        let out = text_colours(css, DARK);
        let dark_zinc = out.lines().nth(5).unwrap();
        let [l, c, h] = parse(
            dark_zinc
                .trim()
                .strip_prefix("color: oklch(")
                .unwrap()
                .trim_end_matches(");"),
        )
        .unwrap();
        assert!(
            l > 0.552 && l < 0.62 && c == 0.016 && h == 285.938,
            "{dark_zinc}"
        );
        assert!(contrast(srgb(l, c, h), DARK_BG) >= 4.5, "{dark_zinc}");
        // Readable already, far out of reach (white on the author's own dark box), or a background: as written.
        // `text-gray-500` (4.1:1 on the dark background, 4.8:1 on the light) gets a rule for the dark
        // theme only, as specific as the class, after everything else.
        let (body, overrides) = out.split_at(out.find(":where(").unwrap());
        assert_eq!(
            body.replace(dark_zinc, "  color: oklch(55.2% .016 285.938);"),
            css
        );
        assert_eq!(overrides.lines().count(), 1, "{overrides}");
        assert!(
            overrides
                .starts_with(":where(:root[data-theme=\"dark\"]) .text-gray-500 { color: oklch("),
            "{overrides}"
        );
        let args = overrides
            .split("oklch(")
            .nth(1)
            .unwrap()
            .split(')')
            .next()
            .unwrap();
        let [l, c, h] = parse(args).unwrap();
        assert!(
            l > 0.551 && contrast(srgb(l, c, h), DARK_BG) >= 4.5,
            "{overrides}"
        );
    }
}
