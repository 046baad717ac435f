//! The published site as the rest of the service sees it. Built by `docs::site`, read by `search`,
//! `assistant` and the static export renderer.

use serde::{Deserialize, Serialize};

use super::config::SiteConfig;
use super::nav::{DivisionKind, NavItem};

/// A whole docs site at one published version.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Site {
    /// `name` from docs.json.
    pub name: String,
    /// Language codes present, default language first (e.g. `["en", "es", "fr", "zh"]`).
    pub languages: Vec<String>,
    /// Version labels from docs.json, in declared order; empty when the site is unversioned.
    pub versions: Vec<String>,
    pub pages: Vec<Page>,
    /// Pages named in navigation but missing, unreadable pages, bad frontmatter: never fatal.
    pub warnings: Vec<String>,
    /// docs.json as read: name, logo, colours and the navigation tree (for the static export).
    #[serde(default)]
    pub config: SiteConfig,
}

impl Site {
    /// The version readers land on: the one docs.json marks `default: true`, else the first
    /// declared; `None` for an unversioned site.
    pub fn default_version(&self) -> Option<&str> {
        marked_default_version(&self.config.navigation)
            .or(self.versions.first().map(String::as_str))
    }
}

/// The version the navigation marks `default: true`, at any depth (under a language or a product).
fn marked_default_version(items: &[NavItem]) -> Option<&str> {
    items.iter().find_map(|item| match item {
        NavItem::Division(d) if d.kind == DivisionKind::Version && d.default => {
            Some(d.label.as_str())
        }
        NavItem::Division(d) => marked_default_version(&d.items),
        NavItem::Page(_) | NavItem::Endpoint(_) => None,
    })
}

/// One page of the site.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Page {
    /// Site path without leading slash or extension, as docs.json names it: `api/static-export/overview`,
    /// `es/quickstart`; the home page is `index`.
    pub path: String,
    pub title: String,
    pub sidebar_title: Option<String>,
    pub description: Option<String>,
    /// Language code of the page (the site's default language when docs.json names none).
    pub language: String,
    /// Version label when the site is versioned.
    pub version: Option<String>,
    pub tab: Option<String>,
    /// Group path from the navigation root to the page, outermost first.
    pub groups: Vec<String>,
    /// `openapi:` frontmatter, verbatim (e.g. `"POST /v1/static-export/jobs"` or `"file.json GET /x"`).
    pub openapi: Option<String>,
    /// Plain text of the page cut at headings; the first section holds the text before any heading
    /// and has an empty `heading`.
    pub sections: Vec<Section>,
    /// Not shown in the rendered navigation: not listed in it, listed under a hidden tab or group,
    /// or `hidden: true` in its frontmatter. Still served, as Mintlify serves hidden pages.
    #[serde(default)]
    pub hidden: bool,
    /// Listed in docs.json navigation (`false` for pages found only as files).
    #[serde(default)]
    pub in_navigation: bool,
    /// Kept out of site search and the assistant's context, as the format keeps hidden pages
    /// (unless `searchable: true` on their division or `seo.indexing: "all"`) and pages with
    /// `noindex: true` or `searchable: false`. Still served, still in the MCP server's page reads.
    #[serde(default)]
    pub unsearchable: bool,
    /// File in the uploaded tree the page was read from (`es/quickstart.mdx`); other frontmatter
    /// keys (`icon`, `mode`, ...) are there, via `docs::frontmatter`. For a page generated from an
    /// OpenAPI operation ([`Page::is_generated`]), the spec.
    #[serde(default)]
    pub source: String,
    /// `keywords:` frontmatter, extra search terms.
    #[serde(default)]
    pub keywords: Vec<String>,
    /// `icon:` frontmatter, shown before the page's sidebar entry.
    #[serde(default)]
    pub icon: Option<String>,
    /// `tag:` frontmatter (`NEW`), shown after the page's sidebar entry.
    #[serde(default)]
    pub tag: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Section {
    pub heading: String,
    /// Slug of the heading, as the rendered page's anchor (`#getting-started`); empty for the intro.
    pub anchor: String,
    /// Heading level 1-6; 0 for the intro section.
    pub level: u8,
    /// Plain text: prose, list items, table cells, code blocks and component text, one block per line.
    pub text: String,
}

impl Page {
    /// Generated from an OpenAPI operation (`openapi` names it, `source` is its spec) rather than
    /// read from a page file.
    pub fn is_generated(&self) -> bool {
        self.openapi.is_some() && !super::file_kind::is_markdown(&self.source)
    }

    /// Full plain text of the page, headings included, as the page endpoint returns it.
    pub fn full_text(&self) -> String {
        let mut out = String::new();
        for section in &self.sections {
            if !section.heading.is_empty() {
                push_heading(&mut out, section.level, &section.heading);
            }
            out.push_str(&section.text);
            if !section.text.ends_with('\n') && !section.text.is_empty() {
                out.push('\n');
            }
        }
        out
    }
}

/// A heading as page text writes it: `## Heading` on its own line, a blank line before it unless it
/// opens the text. The search index rebuilds page text with the same function, so both agree.
pub fn push_heading(out: &mut String, level: u8, heading: &str) {
    if !out.is_empty() {
        out.push('\n');
    }
    for _ in 0..level.max(1) {
        out.push('#');
    }
    out.push(' ');
    out.push_str(heading);
    out.push('\n');
}
