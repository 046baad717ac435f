//! What retrieval hands to generation: one ranked section of a page.

use serde::{Deserialize, Serialize};

/// One retrieved section. Retrieval fills it from a `docs::Section` and its page; the caller computes
/// `url` because only it knows the public origin and the site's base path.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Passage {
    /// Site path of the page (`api/static-export/overview`).
    pub path: String,
    /// Public URL of the page, without the section anchor.
    pub url: String,
    /// Page title.
    pub title: String,
    /// Section heading; empty for the text before the first heading.
    pub heading: String,
    /// Section anchor slug without `#`; empty for the intro section.
    pub anchor: String,
    /// Section plain text, one block per line; fenced code blocks keep their fences.
    pub text: String,
    /// Retrieval score; only compared between passages of one query.
    pub score: f32,
    /// The IDF-weighted share of the query's terms the section contains (`search::Hit::coverage`);
    /// a passage serialized without it counts as covering the query, so nothing refuses on its account.
    #[serde(default = "whole")]
    pub coverage: f32,
}

fn whole() -> f32 {
    1.0
}

impl Passage {
    /// Link to the section itself, so a citation lands where the quoted text is.
    pub fn link(&self) -> String {
        if self.anchor.is_empty() || self.url.contains('#') {
            return self.url.clone();
        }
        format!("{}#{}", self.url, self.anchor)
    }

    /// Human label for citations: `Title › Heading`, or just the title for an intro section.
    pub fn label(&self) -> String {
        let title = self.title.trim();
        let heading = self.heading.trim();
        match (title.is_empty(), heading.is_empty() || heading == title) {
            (true, true) => self.path.clone(),
            (true, false) => heading.to_string(),
            (false, true) => title.to_string(),
            (false, false) => format!("{title} › {heading}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_appends_anchor_once() {
        let mut p = Passage {
            url: "https://d.example/a".into(),
            anchor: "b".into(),
            ..Default::default()
        };
        assert_eq!(p.link(), "https://d.example/a#b");
        p.url = "https://d.example/a#x".into();
        assert_eq!(p.link(), "https://d.example/a#x");
    }

    #[test]
    fn label_skips_empty_and_duplicate_heading() {
        let p = Passage {
            path: "x".into(),
            title: "Static export".into(),
            heading: "Static export".into(),
            ..Default::default()
        };
        assert_eq!(p.label(), "Static export");
        let q = Passage {
            title: "T".into(),
            heading: "H".into(),
            ..Default::default()
        };
        assert_eq!(q.label(), "T › H");
    }
}
