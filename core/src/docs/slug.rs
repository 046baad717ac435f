//! Heading anchors as the rendered page makes them (GitHub-style slugs).

use std::collections::HashSet;

/// Slugs for one page: repeats of a heading get `-1`, `-2`, ... like the renderer's anchors.
#[derive(Debug, Default)]
pub struct Slugger {
    used: HashSet<String>,
}

impl Slugger {
    pub fn slug(&mut self, heading: &str) -> String {
        let base = slugify(heading);
        let mut candidate = base.clone();
        let mut n = 0;
        while self.used.contains(&candidate) {
            n += 1;
            candidate = format!("{base}-{n}");
        }
        self.used.insert(candidate.clone());
        candidate
    }
}

/// Lowercase; whitespace to `-`; letters (any script), digits, `-` and `_` kept; the rest dropped.
pub fn slugify(heading: &str) -> String {
    let mut out = String::with_capacity(heading.len());
    for c in heading.trim().chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() || c == '-' || c == '_' {
            out.push(c);
        } else if c.is_whitespace() {
            out.push('-');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slug_lowercases_and_turns_spaces_into_dashes() {
        assert_eq!(slugify("Getting Started"), "getting-started");
        assert_eq!(slugify("What's new in v2.0?"), "whats-new-in-v20");
        assert_eq!(
            slugify("Use `docs.json` (required)"),
            "use-docsjson-required"
        );
        assert_eq!(slugify("A & B"), "a--b");
    }

    #[test]
    fn slug_keeps_unicode_letters() {
        assert_eq!(slugify("Instalación rápida"), "instalación-rápida");
        assert_eq!(slugify("快速开始 指南"), "快速开始-指南");
        assert_eq!(slugify("Éditeur"), "éditeur");
    }

    #[test]
    fn repeated_headings_get_numbered_suffixes() {
        let mut slugger = Slugger::default();
        assert_eq!(slugger.slug("Example"), "example");
        assert_eq!(slugger.slug("Example"), "example-1");
        assert_eq!(slugger.slug("Example"), "example-2");
        assert_eq!(slugger.slug("Example 1"), "example-1-1");
    }
}
