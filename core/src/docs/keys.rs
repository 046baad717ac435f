//! The documented keys of docs.json and mint.json: any other key is ignored with a warning, so a
//! typo (`"tabss"`) is seen and a key from a newer schema never fails a publish.

/// docs.json's top-level keys (Mintlify's docs.json schema reference).
pub const DOCS_JSON_ROOT: &[&str] = &[
    "$schema",
    "$ref",
    "theme",
    "name",
    "colors",
    "navigation",
    "description",
    "logo",
    "favicon",
    "appearance",
    "fonts",
    "icons",
    "background",
    "styling",
    "thumbnails",
    "navbar",
    "footer",
    "banner",
    "interaction",
    "contextual",
    "redirects",
    "variables",
    "metadata",
    "errors",
    "api",
    "markdown",
    "seo",
    "search",
    "integrations",
    // This project's own keys, under one object (`super::own_keys`).
    "x-docs-edge",
];

/// Keys of any navigation node of docs.json (the navigation object, languages, versions, products,
/// tabs, anchors, dropdowns, menu items and groups), and of mint.json's groups. One list for all
/// kinds: a key documented for one kind of node is not an authoring mistake on another.
pub const NAVIGATION_NODE: &[&str] = &[
    "$ref",
    "language",
    "version",
    "product",
    "tab",
    "anchor",
    "dropdown",
    "item",
    "group",
    "languages",
    "versions",
    "products",
    "tabs",
    "anchors",
    "dropdowns",
    "menu",
    "groups",
    "pages",
    "global",
    "icon",
    "iconType",
    "href",
    "hidden",
    "default",
    "root",
    "description",
    "tag",
    "expanded",
    "openapi",
    "asyncapi",
    "color",
    "directory",
    "boost",
    "banner",
    "footer",
    "navbar",
    "drilldown",
    "public",
    "sdk",
    "searchable",
];

/// mint.json's top-level keys (the legacy schema, `https://mintlify.com/schema.json`).
pub const MINT_JSON_ROOT: &[&str] = &[
    "$schema",
    "mintlify",
    "name",
    "logo",
    "favicon",
    "openapi",
    "api",
    "modeToggle",
    "versions",
    "metadata",
    "colors",
    "topbarCtaButton",
    "topbarLinks",
    "navigation",
    "primaryTab",
    "topAnchor",
    "anchors",
    "tabs",
    "footerSocials",
    "backgroundImage",
    "feedback",
    "analytics",
    "integrations",
    "isWhiteLabeled",
    "search",
    "redirects",
    "seo",
    "font",
    "layout",
    "sidebar",
    "rounded",
    "topbar",
    "codeBlock",
    "background",
    "theme",
    "banner",
    "description",
];

/// mint.json `tabs` and `anchors` entries.
pub const MINT_SECTION: &[&str] = &[
    "name",
    "url",
    "icon",
    "iconType",
    "color",
    "isDefaultHidden",
    "version",
    "openapi",
];

/// The 1-based line of the first `"key":` in `text`, so a warning can point at it.
pub fn line_of_key(text: &str, key: &str) -> Option<usize> {
    offset_of_key(text, key).map(|at| text[..at].matches('\n').count() + 1)
}

/// The byte offset of the first `"key":` in JSON `text` (a string value equal to it is skipped).
pub fn offset_of_key(text: &str, key: &str) -> Option<usize> {
    let quoted = serde_json::to_string(key).ok()?;
    let mut from = 0;
    while let Some(found) = text[from..].find(&quoted) {
        let at = from + found;
        if text[at + quoted.len()..].trim_start().starts_with(':') {
            return Some(at);
        }
        from = at + quoted.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::line_of_key;

    #[test]
    fn finds_the_line_of_a_key_not_of_a_value_equal_to_it() {
        let text = "{\n  \"name\": \"tabss\",\n  \"tabss\" : []\n}";
        assert_eq!(line_of_key(text, "tabss"), Some(3));
        assert_eq!(line_of_key(text, "name"), Some(2));
        assert_eq!(line_of_key(text, "gone"), None);
    }
}
