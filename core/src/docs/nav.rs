//! The navigation tree of docs.json, kept as a tree so the static export can render tabs, nested
//! groups and the language switch; `page_refs` flattens it for indexing.

use serde::{Deserialize, Serialize};

/// One node of the navigation: a page path or a division holding more nodes.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum NavItem {
    /// Page path as the site serves it: no leading slash, no extension (`es/quickstart`).
    Page(String),
    Division(Division),
    /// `"GET /users/{id}"` or `"openapi/spec.json GET /users"`: a page generated from an OpenAPI
    /// operation. Site planning turns each into a [`NavItem::Page`] at the path it generates.
    Endpoint(Endpoint),
}

/// An OpenAPI operation navigation names.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Endpoint {
    /// The spec named in the entry; `None` uses the nearest enclosing division's `openapi`.
    pub spec: Option<String>,
    /// Uppercase (`GET`), or `WEBHOOK`.
    pub method: String,
    pub path: String,
}

/// `openapi` on a division (or `api.openapi`): a spec path or URL, and where its pages go.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct OpenApiSource {
    pub source: String,
    /// Folder of the generated pages (`directory`); Mintlify's default is `api-reference`.
    pub directory: Option<String>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum DivisionKind {
    /// `label` is the language code (`en`, `es`).
    Language,
    Version,
    Product,
    Tab,
    Anchor,
    Dropdown,
    /// An entry of a tab's `menu`.
    MenuItem,
    Group,
}

/// A language, version, product, tab, anchor, dropdown, menu item or group.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Division {
    pub kind: DivisionKind,
    pub label: String,
    /// External or explicit link; a tab with only `href` is a link, not a section of the site.
    pub href: Option<String>,
    pub icon: Option<String>,
    pub description: Option<String>,
    pub hidden: bool,
    /// Marked `default: true` (languages and versions).
    pub default: bool,
    /// Page shown when the group itself is clicked (`root` of a group).
    pub root: Option<String>,
    /// The spec its `"GET /x"` entries (and its children's) name; a division with a spec and no
    /// pages gets one generated page per operation of the spec.
    pub openapi: Option<OpenApiSource>,
    pub items: Vec<NavItem>,
    /// `expanded: true`: a group shown open in every page's sidebar.
    #[serde(default)]
    pub expanded: bool,
    /// `tag` (`NEW`, `BETA`), shown beside the label.
    #[serde(default)]
    pub tag: Option<String>,
    /// `searchable: true` on a hidden division: its pages stay out of the navigation but in site
    /// search and the assistant's context.
    #[serde(default)]
    pub searchable: bool,
}

impl Division {
    pub fn new(kind: DivisionKind, label: impl Into<String>) -> Self {
        Self {
            kind,
            label: label.into(),
            href: None,
            icon: None,
            description: None,
            hidden: false,
            default: false,
            root: None,
            openapi: None,
            items: Vec::new(),
            expanded: false,
            tag: None,
            searchable: false,
        }
    }
}

/// A page as navigation places it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageRef<'a> {
    pub path: &'a str,
    /// Language code of the enclosing language division, if any.
    pub language: Option<&'a str>,
    pub version: Option<&'a str>,
    /// Innermost tab; anchors, dropdowns and products stand in when there is no tab.
    pub tab: Option<&'a str>,
    /// Group labels, outermost first.
    pub groups: Vec<&'a str>,
    /// Inside a hidden division (tab, group, ...).
    pub hidden: bool,
    /// Inside a division marked `searchable: true`.
    pub searchable: bool,
}

#[derive(Debug, Clone, Default)]
struct Trail<'a> {
    language: Option<&'a str>,
    version: Option<&'a str>,
    tab: Option<&'a str>,
    tab_is_real: bool,
    groups: Vec<&'a str>,
    hidden: bool,
    searchable: bool,
}

/// Every page reference in navigation order, duplicates included (the caller decides about them).
pub fn page_refs(items: &[NavItem]) -> Vec<PageRef<'_>> {
    let mut out = Vec::new();
    walk(items, &Trail::default(), &mut out);
    out
}

fn walk<'a>(items: &'a [NavItem], trail: &Trail<'a>, out: &mut Vec<PageRef<'a>>) {
    for item in items {
        match item {
            NavItem::Page(path) => out.push(page_ref(path, trail)),
            // Planning replaces endpoints with the pages they generate.
            NavItem::Endpoint(_) => {}
            NavItem::Division(division) => {
                let mut inner = trail.clone();
                inner.hidden |= division.hidden;
                inner.searchable |= division.searchable;
                let label = division.label.as_str();
                match division.kind {
                    DivisionKind::Language => inner.language = Some(label),
                    DivisionKind::Version => inner.version = Some(label),
                    DivisionKind::Tab => {
                        inner.tab = Some(label);
                        inner.tab_is_real = true;
                    }
                    DivisionKind::Anchor | DivisionKind::Dropdown | DivisionKind::Product => {
                        if !inner.tab_is_real {
                            inner.tab = Some(label);
                        }
                    }
                    DivisionKind::MenuItem => {}
                    DivisionKind::Group => inner.groups.push(label),
                }
                if let Some(root) = &division.root {
                    out.push(page_ref(root, &inner));
                }
                walk(&division.items, &inner, out);
            }
        }
    }
}

fn page_ref<'a>(path: &'a str, trail: &Trail<'a>) -> PageRef<'a> {
    PageRef {
        path,
        language: trail.language,
        version: trail.version,
        tab: trail.tab,
        groups: trail.groups.clone(),
        hidden: trail.hidden,
        searchable: trail.searchable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn division(kind: DivisionKind, label: &str, items: Vec<NavItem>) -> NavItem {
        let mut d = Division::new(kind, label);
        d.items = items;
        NavItem::Division(d)
    }

    fn page(path: &str) -> NavItem {
        NavItem::Page(path.into())
    }

    #[test]
    fn page_refs_carry_language_tab_and_nested_groups() {
        let nav = vec![division(
            DivisionKind::Language,
            "es",
            vec![division(
                DivisionKind::Tab,
                "Docs",
                vec![division(
                    DivisionKind::Group,
                    "Outer",
                    vec![
                        page("es/a"),
                        division(DivisionKind::Group, "Inner", vec![page("es/b")]),
                    ],
                )],
            )],
        )];
        let refs = page_refs(&nav);
        assert_eq!(refs.len(), 2);
        assert_eq!(refs[1].path, "es/b");
        assert_eq!(refs[1].language, Some("es"));
        assert_eq!(refs[1].tab, Some("Docs"));
        assert_eq!(refs[1].groups, ["Outer", "Inner"]);
    }

    #[test]
    fn group_root_page_comes_before_its_pages_and_belongs_to_the_group() {
        let mut group = Division::new(DivisionKind::Group, "CLI");
        group.root = Some("cli/index".into());
        group.items = vec![page("cli/install")];
        let nav = [NavItem::Division(group)];
        let refs = page_refs(&nav);
        assert_eq!(refs[0].path, "cli/index");
        assert_eq!(refs[0].groups, ["CLI"]);
    }

    #[test]
    fn hidden_tab_hides_its_pages() {
        let mut tab = Division::new(DivisionKind::Tab, "Help");
        tab.hidden = true;
        tab.items = vec![page("help/a")];
        let nav = [NavItem::Division(tab)];
        assert!(page_refs(&nav)[0].hidden);
    }

    #[test]
    fn anchor_stands_in_for_a_missing_tab_but_not_over_a_real_one() {
        let nav = vec![
            division(DivisionKind::Anchor, "SDKs", vec![page("sdk")]),
            division(
                DivisionKind::Tab,
                "Learn",
                vec![division(DivisionKind::Dropdown, "Guides", vec![page("g")])],
            ),
        ];
        let refs = page_refs(&nav);
        assert_eq!(refs[0].tab, Some("SDKs"));
        assert_eq!(refs[1].tab, Some("Learn"));
    }
}
