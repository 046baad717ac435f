//! Heading anchors as the rendered page makes them (GitHub-style slugs).

use std::collections::{HashMap, HashSet};

/// Slugs for one page: repeats of a heading get `-1`, `-2`, ... like the renderer's anchors.
#[derive(Debug, Default)]
pub struct Slugger {
    used: HashSet<String>,
    /// The next suffix to try for a slug already used: numbering resumes there instead of counting
    /// from 1 again, so n repeats of a heading cost n probes in all, not n²/2.
    next_suffix: HashMap<String, usize>,
    #[cfg(test)]
    pub(crate) probes: usize,
}

impl Slugger {
    pub fn slug(&mut self, heading: &str) -> String {
        let base = slugify(heading);
        let mut n = self.next_suffix.get(&base).copied().unwrap_or(0);
        let mut candidate = if n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        // A suffix is probed once per base: each failed probe is a slug some other heading took.
        while self.used.contains(&candidate) {
            #[cfg(test)]
            {
                self.probes += 1;
            }
            n += 1;
            candidate = format!("{base}-{n}");
        }
        self.next_suffix.insert(base, n + 1);
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
        assert_eq!(slugger.slug("Example"), "example-3");
    }

    #[test]
    fn numbering_n_repeats_takes_linear_probes() {
        let mut slugger = Slugger::default();
        let n = 5_000;
        for i in 0..n {
            // Headings that take the suffixes ahead of the repeats, then the repeats themselves.
            slugger.slug(&format!("Step {i}"));
        }
        for _ in 0..n {
            slugger.slug("Step");
        }
        assert_eq!(slugger.used.len(), 2 * n);
        // "step-1".."step-4999" were taken by the first loop: each is probed once, not once per repeat.
        assert!(slugger.probes <= 2 * n, "{} probes", slugger.probes);
    }
}
