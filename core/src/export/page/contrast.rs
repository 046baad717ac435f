//! Text colours readable on the export's theme backgrounds: WCAG contrast, and the docs.json
//! colours moved just far enough to reach it for links. A leaf: the chrome, the page styles and
//! the plan read it.

/// Backgrounds of the light and dark themes (`site.css` `--bg`), which link text must stand out on.
pub(crate) const LIGHT_BG: [f64; 3] = [255.0, 255.0, 255.0];
pub(crate) const DARK_BG: [f64; 3] = [11.0, 13.0, 16.0];

/// Code backgrounds of the light and dark themes (`site.css` `--code-bg`): accent text sits on them
/// too (a parameter's name, a link around inline code), with less contrast than on the page.
const LIGHT_CODE_BG: [f64; 3] = [243.0, 244.0, 246.0];
const DARK_CODE_BG: [f64; 3] = [23.0, 26.0, 32.0];

/// `--link-light` and `--link-dark`: the docs.json colours for each theme, darkened or lightened
/// just enough for text to reach WCAG AA contrast (4.5:1) on that theme's page and code
/// backgrounds, since real sites pick pale brand colours (`#a9bed4`) that are fine for borders but
/// not for text.
pub(crate) fn link_colors(light_theme: &str, dark_theme: &str) -> String {
    let pick = |color: &str, bgs: [[f64; 3]; 2], toward: [f64; 3], fallback: &str| match parse_hex(
        color,
    ) {
        Some(rgb) => hex(readable(rgb, &bgs, toward)),
        None => fallback.to_owned(),
    };
    format!(
        "--link-light:{};--link-dark:{}",
        pick(light_theme, [LIGHT_BG, LIGHT_CODE_BG], [0.0; 3], "#1d4ed8"),
        pick(dark_theme, [DARK_BG, DARK_CODE_BG], [255.0; 3], "#93c5fd")
    )
}

fn parse_hex(color: &str) -> Option<[f64; 3]> {
    let h = color.trim().strip_prefix('#')?;
    let digits: Vec<u8> = match h.len() {
        3 => h
            .chars()
            .map(|c| c.to_digit(16).map(|d| (d * 17) as u8))
            .collect::<Option<_>>()?,
        6 => (0..3)
            .map(|i| u8::from_str_radix(h.get(2 * i..2 * i + 2)?, 16).ok())
            .collect::<Option<_>>()?,
        _ => return None,
    };
    Some([
        f64::from(digits[0]),
        f64::from(digits[1]),
        f64::from(digits[2]),
    ])
}

fn luminance(rgb: [f64; 3]) -> f64 {
    let channel = |c: f64| {
        let c = c / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2])
}

pub(crate) fn contrast(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// `rgb` mixed toward `toward` in 5% steps until it reaches 4.7:1 on every one of `bgs` (a margin over 4.5).
fn readable(rgb: [f64; 3], bgs: &[[f64; 3]], toward: [f64; 3]) -> [f64; 3] {
    (0..=20)
        .map(|step| {
            let t = f64::from(step) / 20.0;
            [0, 1, 2].map(|i| (rgb[i] + (toward[i] - rgb[i]) * t).round())
        })
        .find(|c| bgs.iter().all(|bg| contrast(*c, *bg) >= 4.7))
        .unwrap_or(toward)
}

fn hex(rgb: [f64; 3]) -> String {
    format!(
        "#{:02x}{:02x}{:02x}",
        rgb[0] as u8, rgb[1] as u8, rgb[2] as u8
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pale_brand_colours_become_readable_link_colours() {
        // AgentOps' primary (#a9bed4, 1.9:1 on white) darkens; a readable one stays.
        let colors = |vars: String| -> Vec<[f64; 3]> {
            vars.split(';')
                .map(|v| parse_hex(v.split_once(':').unwrap().1).unwrap())
                .collect()
        };
        let vars = link_colors("#a9bed4", "#D1E5F7");
        let light = colors(vars.clone())[0];
        assert!(
            contrast(light, LIGHT_BG) >= 4.5 && light != parse_hex("#a9bed4").unwrap(),
            "{vars}"
        );
        assert_eq!(
            link_colors("#1d4ed8", "#93c5fd"),
            "--link-light:#1d4ed8;--link-dark:#93c5fd"
        );
        assert_eq!(
            link_colors("red; x", "?"),
            "--link-light:#1d4ed8;--link-dark:#93c5fd"
        );
        let dark = colors(link_colors("#000", "#0034FF"))[1];
        assert!(contrast(dark, DARK_BG) >= 4.5, "{dark:?}");
        // Readable on the code background too, where a parameter's name sits (#2563eb lightened for the
        // dark page alone reached 4.4:1 there).
        let dark = colors(link_colors("#2563eb", "#2563eb"))[1];
        assert!(contrast(dark, DARK_CODE_BG) >= 4.5, "{dark:?}");
    }
}
