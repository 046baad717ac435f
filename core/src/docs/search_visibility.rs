//! Which pages site search and the assistant read, as the format decides it: hidden pages (not
//! listed in navigation, under a hidden tab or group, or `hidden: true`) stay out unless their
//! division says `searchable: true` or docs.json says `"seo": {"indexing": "all"}` (mint.json:
//! `"seo": {"indexHiddenPages": true}`); `noindex: true` and `searchable: false` keep a listed page
//! out. Such pages are still served and read whole by the MCP server's page reads.

use serde_json::Value;

use super::archive::SourceTree;
use super::frontmatter::Frontmatter;
use super::site_config::{CONFIG_FILE, LEGACY_CONFIG_FILE};

/// Whether the site's config puts hidden pages in search.
pub fn indexes_hidden_pages(config_tree: &SourceTree) -> bool {
    let seo = |file: &str| -> Option<Value> {
        let root: Value = serde_json::from_slice(config_tree.get(file)?).ok()?;
        root.get("seo").cloned()
    };
    if let Some(seo) = seo(CONFIG_FILE) {
        return seo.get("indexing").and_then(Value::as_str) == Some("all");
    }
    seo(LEGACY_CONFIG_FILE)
        .and_then(|seo| seo.get("indexHiddenPages").and_then(Value::as_bool))
        .unwrap_or(false)
}

/// Whether the page's own frontmatter keeps it out of search (`noindex: true`, `searchable: false`).
pub fn frontmatter_excludes(fm: &Frontmatter) -> bool {
    let flag = |key: &str| fm.extra.get(key).and_then(Value::as_bool);
    flag("noindex") == Some(true) || flag("searchable") == Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> SourceTree {
        files
            .iter()
            .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn hidden_pages_are_searched_only_when_the_config_says_so() {
        assert!(!indexes_hidden_pages(&tree(&[("docs.json", "{}")])));
        assert!(indexes_hidden_pages(&tree(&[(
            "docs.json",
            r#"{"seo": {"indexing": "all"}}"#
        )])));
        assert!(!indexes_hidden_pages(&tree(&[(
            "docs.json",
            r#"{"seo": {"indexing": "navigable"}}"#
        )])));
        assert!(indexes_hidden_pages(&tree(&[(
            "mint.json",
            r#"{"seo": {"indexHiddenPages": true}}"#
        )])));
    }

    #[test]
    fn noindex_and_searchable_false_keep_a_page_out() {
        let fm = |yaml: &str| crate::docs::frontmatter::parse(yaml).unwrap();
        assert!(frontmatter_excludes(&fm("noindex: true")));
        assert!(frontmatter_excludes(&fm("searchable: false")));
        assert!(!frontmatter_excludes(&fm(
            "searchable: true\nnoindex: false"
        )));
        assert!(!frontmatter_excludes(&fm("title: A")));
    }
}
