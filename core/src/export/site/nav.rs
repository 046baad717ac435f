//! The navigation of the exported site: docs.json's tree cut to one version and one language,
//! limited to exported pages that are not hidden, as tabs of (nested) groups; and its HTML.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use crate::docs::{DivisionKind, NavItem, Page, Site};

use crate::export::html::{self, attr, open};
use crate::export::page::icons;
use crate::export::render::links::Linker;

/// A tab of the header bar (anchors, dropdowns and products stand in where there are no tabs).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Tab {
    /// Empty for the pages that sit outside any tab.
    pub(crate) label: String,
    /// Link of a tab that only points elsewhere.
    pub(crate) href: Option<String>,
    /// Its `icon` in docs.json or mint.json.
    pub(crate) icon: Option<String>,
    pub(crate) items: Vec<Node>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    /// Index into `Site::pages`.
    Page(usize),
    Group {
        label: String,
        root: Option<usize>,
        items: Vec<Node>,
        icon: Option<String>,
        /// Open in every sidebar (docs.json `expanded`).
        expanded: bool,
        tag: Option<String>,
    },
}

/// Navigation of every language, in docs.json order.
pub(crate) type SiteNav = BTreeMap<String, Vec<Tab>>;

enum Raw {
    Lang(String, Vec<Raw>),
    Tab(Tab),
    Node(Node),
}

struct Cx<'a> {
    site: &'a Site,
    version: Option<&'a str>,
    /// Exported page path -> index into `Site::pages`.
    exported: &'a BTreeMap<String, usize>,
}

/// Builds the navigation of each language for the chosen version.
pub(crate) fn build(
    site: &Site,
    version: Option<&str>,
    exported: &BTreeMap<String, usize>,
    default_language: &str,
) -> SiteNav {
    let cx = Cx {
        site,
        version,
        exported,
    };
    let raws = convert(&site.config.navigation, &cx, false);
    let mut nav = SiteNav::new();
    let mut loose = Vec::new();
    for raw in raws {
        match raw {
            Raw::Lang(code, inner) => nav.entry(code).or_default().extend(tabs_of(inner)),
            other => loose.push(other),
        }
    }
    if !loose.is_empty() {
        nav.entry(default_language.to_owned())
            .or_default()
            .extend(tabs_of(loose));
    }
    nav
}

fn convert(items: &[NavItem], cx: &Cx<'_>, in_tab: bool) -> Vec<Raw> {
    let mut out = Vec::new();
    for item in items {
        match item {
            NavItem::Page(path) => {
                if let Some(index) = cx.page(path) {
                    out.push(Raw::Node(Node::Page(index)));
                }
            }
            // Planning turned every endpoint into the page it generates.
            NavItem::Endpoint(_) => {}
            NavItem::Division(d) if d.hidden => {}
            NavItem::Division(d) => match d.kind {
                DivisionKind::Language => {
                    out.push(Raw::Lang(d.label.clone(), convert(&d.items, cx, in_tab)))
                }
                DivisionKind::Version => {
                    if cx.version.is_none_or(|v| v == d.label) {
                        out.extend(convert(&d.items, cx, in_tab));
                    }
                }
                DivisionKind::Tab
                | DivisionKind::Anchor
                | DivisionKind::Dropdown
                | DivisionKind::Product
                    if !in_tab =>
                {
                    let items = nodes_only(convert(&d.items, cx, true));
                    let mut root_items = Vec::new();
                    if let Some(root) = d.root.as_deref().and_then(|p| cx.page(p)) {
                        root_items.push(Node::Page(root));
                    }
                    root_items.extend(items);
                    out.push(Raw::Tab(Tab {
                        label: d.label.clone(),
                        href: d.href.clone(),
                        icon: d.icon.clone(),
                        items: root_items,
                    }));
                }
                _ => {
                    let items = nodes_only(convert(&d.items, cx, true));
                    let root = d.root.as_deref().and_then(|p| cx.page(p));
                    if !items.is_empty() || root.is_some() {
                        out.push(Raw::Node(Node::Group {
                            label: d.label.clone(),
                            root,
                            items,
                            icon: d.icon.clone(),
                            expanded: d.expanded,
                            tag: d.tag.clone(),
                        }));
                    }
                }
            },
        }
    }
    out
}

impl Cx<'_> {
    /// A navigation path that is exported and shown.
    fn page(&self, path: &str) -> Option<usize> {
        let index = *self.exported.get(path)?;
        let page = self.site.pages.get(index)?;
        (!page.hidden).then_some(index)
    }
}

fn nodes_only(raws: Vec<Raw>) -> Vec<Node> {
    let mut out = Vec::new();
    for raw in raws {
        match raw {
            Raw::Node(node) => out.push(node),
            Raw::Tab(tab) if !tab.items.is_empty() => out.push(Node::Group {
                label: tab.label,
                root: None,
                items: tab.items,
                icon: tab.icon,
                expanded: false,
                tag: None,
            }),
            Raw::Tab(_) => {}
            Raw::Lang(_, inner) => out.extend(nodes_only(inner)),
        }
    }
    out
}

/// Tabs in order; pages and groups outside any tab gather in unnamed tabs where they stand.
fn tabs_of(raws: Vec<Raw>) -> Vec<Tab> {
    let mut tabs: Vec<Tab> = Vec::new();
    let mut loose: Vec<Node> = Vec::new();
    let flush = |loose: &mut Vec<Node>, tabs: &mut Vec<Tab>| {
        if !loose.is_empty() {
            tabs.push(Tab {
                label: String::new(),
                href: None,
                icon: None,
                items: std::mem::take(loose),
            });
        }
    };
    for raw in raws {
        match raw {
            Raw::Tab(tab) => {
                flush(&mut loose, &mut tabs);
                if !tab.items.is_empty() || tab.href.is_some() {
                    tabs.push(tab);
                }
            }
            Raw::Node(node) => loose.push(node),
            Raw::Lang(_, inner) => loose.extend(nodes_only(inner)),
        }
    }
    flush(&mut loose, &mut tabs);
    tabs
}

/// Pages of the tabs in reading order (a group's root before its pages), each once.
pub(crate) fn order(tabs: &[Tab]) -> Vec<usize> {
    fn walk(nodes: &[Node], seen: &mut BTreeSet<usize>, out: &mut Vec<usize>) {
        for node in nodes {
            match node {
                Node::Page(i) => {
                    if seen.insert(*i) {
                        out.push(*i);
                    }
                }
                Node::Group { root, items, .. } => {
                    if let Some(i) = root {
                        if seen.insert(*i) {
                            out.push(*i);
                        }
                    }
                    walk(items, seen, out);
                }
            }
        }
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for tab in tabs {
        walk(&tab.items, &mut seen, &mut out);
    }
    out
}

/// Each page the tabs list -> the first tab listing it: [`current_tab`]'s answer for every page
/// the navigation holds, found once per export rather than by a scan of the tabs per page.
pub(crate) fn tab_of_pages(tabs: &[Tab]) -> BTreeMap<usize, usize> {
    let mut tab_of = BTreeMap::new();
    for (t, tab) in tabs.iter().enumerate() {
        each_page(&tab.items, &mut |i| {
            tab_of.entry(i).or_insert(t);
        });
    }
    tab_of
}

fn contains(nodes: &[Node], page: usize) -> bool {
    nodes.iter().any(|node| match node {
        Node::Page(i) => *i == page,
        Node::Group { root, items, .. } => *root == Some(page) || contains(items, page),
    })
}

/// The tab `page` belongs to: the one holding it; for a page the navigation leaves out (hidden),
/// the one whose pages share the most leading folders with its path, when no other tab shares as
/// many; else none (a hidden home page, `en/home`, whose only folder is its language's).
pub(crate) fn current_tab(tabs: &[Tab], page: usize, site: &Site) -> Option<usize> {
    if let Some(i) = tabs.iter().position(|tab| contains(&tab.items, page)) {
        return Some(i);
    }
    let language = site.pages.get(page)?.language.as_str();
    let folders = folders(&site.pages[page].path, language);
    let shared: Vec<usize> = tabs
        .iter()
        .map(|tab| {
            let mut most = 0;
            each_page(&tab.items, &mut |i| {
                if let Some(other) = site.pages.get(i) {
                    let common = folders
                        .iter()
                        .zip(self::folders(&other.path, language))
                        .take_while(|(a, b)| **a == *b)
                        .count();
                    most = most.max(common);
                }
            });
            most
        })
        .collect();
    let best = *shared.iter().max()?;
    let alone = shared.iter().filter(|&&n| n == best).count() == 1;
    (best > 0 && alone)
        .then(|| shared.iter().position(|&n| n == best))
        .flatten()
}

/// The folders of a page path below its language's (`en/guides/a` -> `guides`): every page of a
/// language shares that one, which says nothing about its tab.
fn folders<'p>(path: &'p str, language: &str) -> Vec<&'p str> {
    let mut parts: Vec<&str> = path.split('/').collect();
    parts.pop();
    if parts.first() == Some(&language) {
        parts.remove(0);
    }
    parts
}

fn each_page(nodes: &[Node], f: &mut dyn FnMut(usize)) {
    for node in nodes {
        match node {
            Node::Page(i) => f(*i),
            Node::Group { root, items, .. } => {
                if let Some(root) = root {
                    f(*root);
                }
                each_page(items, f);
            }
        }
    }
}

/// First page of a tab, where its header link goes.
fn first_page(nodes: &[Node]) -> Option<usize> {
    nodes.iter().find_map(|node| match node {
        Node::Page(i) => Some(*i),
        Node::Group { root, items, .. } => root.or_else(|| first_page(items)),
    })
}

/// The header tab bar; empty when the language has a single unnamed tab.
pub(crate) fn tabs_html(
    out: &mut String,
    tabs: &[Tab],
    current: Option<usize>,
    site: &Site,
    links: &Linker<'_>,
) {
    if tabs.len() < 2 && tabs.iter().all(|t| t.label.is_empty()) {
        return;
    }
    out.push_str("<nav class=\"tabs-bar\" aria-label=\"Sections\">");
    for (i, tab) in tabs.iter().enumerate() {
        let href = match (first_page(&tab.items), &tab.href) {
            (Some(page), _) => site.pages.get(page).map(|p| links.page(&p.path)),
            (None, Some(href)) => Some(links.href(href)),
            (None, None) => None,
        };
        let Some(href) = href else { continue };
        out.push_str("<a");
        attr(
            out,
            "class",
            if Some(i) == current {
                "tab current"
            } else {
                "tab"
            },
        );
        attr(out, "href", &href);
        out.push('>');
        if let Some(icon) = &tab.icon {
            icons::marker(out, icon, None, "icon", &site.config.file);
        }
        html::text(
            out,
            if tab.label.is_empty() {
                "Docs"
            } else {
                &tab.label
            },
        );
        out.push_str("</a>");
    }
    out.push_str("</nav>");
}

/// Top-level entries of a tab the sidebar shows at most: the current one and its neighbours. A tab
/// with more gets a contents page listing everything (see [`contents_html`]), linked from the sidebar.
pub(crate) const SECTION_WINDOW: usize = 24;

/// The top-level entries of `tab` the sidebar of `current` shows, in order.
pub(crate) fn shown_sections(tab: &Tab, current: usize) -> Range<usize> {
    let len = tab.items.len();
    if len <= SECTION_WINDOW {
        return 0..len;
    }
    let here = tab
        .items
        .iter()
        .position(|node| contains(std::slice::from_ref(node), current))
        .unwrap_or(0);
    let start = here
        .saturating_sub(SECTION_WINDOW / 2)
        .min(len - SECTION_WINDOW);
    start..start + SECTION_WINDOW
}

/// Where a collapsed group's label goes: its root page, else its first page.
fn landing(root: Option<usize>, items: &[Node]) -> Option<usize> {
    root.or_else(|| first_page(items))
}

/// The sidebar of one tab. The section (top-level group) holding the current page is open with
/// every entry, the current page marked and its nested groups open; every other section shows only
/// its label, a link to its first page, where it opens in turn. So a page's size depends on its own
/// section and the number of sections, never on the number of pages; past [`SECTION_WINDOW`]
/// sections only the neighbours of the current one are listed, with a link to `contents`.
pub(crate) fn sidebar_html(
    out: &mut String,
    tab: Option<&Tab>,
    current: usize,
    site: &Site,
    links: &Linker<'_>,
    contents: Option<&str>,
) {
    out.push_str("<nav class=\"sidebar-nav\" aria-label=\"Pages\"><ul class=\"nav-tree\">");
    if let Some(tab) = tab {
        let shown = shown_sections(tab, current);
        if shown.start > 0 {
            contents_link(out, contents, shown.start);
        }
        let after = tab.items.len() - shown.end;
        for node in &tab.items[shown] {
            match node {
                Node::Page(i) => page_item(out, *i, current, site, links),
                Node::Group {
                    label,
                    root,
                    items,
                    icon,
                    expanded,
                    tag,
                } if *expanded || *root == Some(current) || contains(items, current) => {
                    out.push_str("<li class=\"nav-section\">");
                    open(out, "p", "nav-section-label");
                    section_icon(out, icon.as_deref(), site);
                    match root {
                        Some(r) => page_link(out, *r, current, site, links, Some(label)),
                        None => html::text(out, label),
                    }
                    nav_tag(out, tag.as_deref());
                    out.push_str("</p>");
                    out.push_str("<ul>");
                    group_items(out, items, current, site, links);
                    out.push_str("</ul></li>");
                }
                Node::Group {
                    label,
                    root,
                    items,
                    icon,
                    ..
                } => {
                    out.push_str("<li class=\"nav-section collapsed\">");
                    open(out, "p", "nav-section-label");
                    section_icon(out, icon.as_deref(), site);
                    match landing(*root, items) {
                        Some(page) => page_link(out, page, current, site, links, Some(label)),
                        None => html::text(out, label),
                    }
                    out.push_str("</p></li>");
                }
            }
        }
        if after > 0 {
            contents_link(out, contents, after);
        }
    }
    out.push_str("</ul></nav>");
}

/// A section's icon before its label, a marker the host fills in (pages in their batch, the
/// contents pages with the finishing files).
fn section_icon(out: &mut String, icon: Option<&str>, site: &Site) {
    if let Some(icon) = icon {
        icons::marker(out, icon, None, "icon", &site.config.file);
    }
}

fn contents_link(out: &mut String, contents: Option<&str>, hidden: usize) {
    let Some(href) = contents else { return };
    out.push_str("<li class=\"nav-more\"><a");
    attr(out, "href", href);
    out.push('>');
    html::text(out, &format!("All sections ({hidden} more)"));
    out.push_str("</a></li>");
}

/// The whole navigation of one tab as nested lists, every page linked: the body of the tab's
/// contents page, which readers reach from any sidebar that cannot list all sections.
pub(crate) fn contents_html(out: &mut String, tab: &Tab, site: &Site, links: &Linker<'_>) {
    fn nodes(out: &mut String, items: &[Node], site: &Site, links: &Linker<'_>) {
        out.push_str("<ul>");
        for node in items {
            match node {
                Node::Page(i) => page_item(out, *i, usize::MAX, site, links),
                Node::Group {
                    label,
                    root,
                    items,
                    icon,
                    ..
                } => {
                    out.push_str("<li>");
                    open(out, "p", "nav-section-label");
                    section_icon(out, icon.as_deref(), site);
                    match root {
                        Some(r) => page_link(out, *r, usize::MAX, site, links, Some(label)),
                        None => html::text(out, label),
                    }
                    out.push_str("</p>");
                    nodes(out, items, site, links);
                    out.push_str("</li>");
                }
            }
        }
        out.push_str("</ul>");
    }
    out.push_str("<nav class=\"contents\" aria-label=\"All pages\">");
    nodes(out, &tab.items, site, links);
    out.push_str("</nav>");
}

fn group_items(out: &mut String, items: &[Node], current: usize, site: &Site, links: &Linker<'_>) {
    for node in items {
        match node {
            Node::Page(i) => page_item(out, *i, current, site, links),
            Node::Group {
                label,
                root,
                items,
                icon,
                expanded,
                tag,
            } => {
                let here = *root == Some(current) || contains(items, current);
                let root_page = root.and_then(|r| site.pages.get(r).map(|page| (r, page)));
                out.push_str("<li class=\"nav-group\">");
                // A group with a page: its link stands before the disclosure (a link inside a
                // summary is nested interactive content, which assistive technology may not
                // reach), drawn on the summary's row by the stylesheet.
                if let Some((r, _)) = root_page {
                    out.push_str("<div class=\"nav-group-page\">");
                    section_icon(out, icon.as_deref(), site);
                    page_link(out, r, current, site, links, Some(label));
                    nav_tag(out, tag.as_deref());
                    out.push_str("</div>");
                }
                out.push_str("<details");
                if here || *expanded {
                    out.push_str(" open");
                }
                out.push_str("><summary>");
                match root_page {
                    Some((_, page)) => {
                        open(out, "span", "visually-hidden");
                        html::text(out, group_name(label, page));
                        out.push_str("</span>");
                    }
                    None => {
                        section_icon(out, icon.as_deref(), site);
                        html::text(out, label);
                        nav_tag(out, tag.as_deref());
                    }
                }
                out.push_str("</summary><ul>");
                group_items(out, items, current, site, links);
                out.push_str("</ul></details></li>");
            }
        }
    }
}

fn page_item(out: &mut String, index: usize, current: usize, site: &Site, links: &Linker<'_>) {
    out.push_str("<li>");
    page_link(out, index, current, site, links, None);
    out.push_str("</li>");
}

fn page_link(
    out: &mut String,
    index: usize,
    current: usize,
    site: &Site,
    links: &Linker<'_>,
    label: Option<&str>,
) {
    let Some(page) = site.pages.get(index) else {
        return;
    };
    let text = match label {
        Some(label) => group_name(label, page),
        None => page.sidebar_title.as_deref().unwrap_or(&page.title),
    };
    out.push_str("<a");
    attr(out, "href", &links.page(&page.path));
    if index == current {
        out.push_str(" class=\"current\" aria-current=\"page\"");
    }
    out.push('>');
    // A group's root link is labelled by the group, whose icon and tag stand beside it already.
    if label.is_none() {
        if let Some(icon) = page
            .icon
            .as_deref()
            .map(str::trim)
            .filter(|i| !i.is_empty())
        {
            match icon.contains(['/', '.']) {
                true => icons::component_icon(out, Some(icon), None, links),
                false => icons::marker(out, icon, None, "icon", &page.source),
            }
        }
    }
    html::text(out, text);
    if label.is_none() {
        nav_tag(out, page.tag.as_deref());
    }
    out.push_str("</a>");
}

/// A group's name: its label, or (mint.json allows none) its page's, never empty.
fn group_name<'a>(label: &'a str, page: &'a Page) -> &'a str {
    Some(label)
        .filter(|l| !l.trim().is_empty())
        .or(page.sidebar_title.as_deref())
        .unwrap_or(&page.title)
}

/// A group's or page's `tag` (`NEW`) after its label.
fn nav_tag(out: &mut String, tag: Option<&str>) {
    if let Some(tag) = tag.map(str::trim).filter(|t| !t.is_empty()) {
        html::element(out, "span", "nav-tag", tag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::archive::tree;
    use crate::docs::build_site;

    fn site() -> Site {
        build_site(&tree(&[
            (
                "docs.json",
                r#"{"navigation": {"languages": [
                {"language": "en", "tabs": [
                    {"tab": "Guides", "groups": [{"group": "Start", "pages": ["index", {"group": "Deep", "root": "deep", "pages": ["deep/a"]}]}]},
                    {"tab": "Blog", "href": "https://blog.example"},
                    {"tab": "API", "icon": "code", "groups": [{"group": "Ref", "icon": "book", "pages": ["api/x", "secret"]}]}]},
                {"language": "es", "groups": [{"group": "Inicio", "pages": ["es/index"]}]}]}}"#,
            ),
            ("index.mdx", "---\ntitle: Home\n---\n"),
            ("deep.mdx", "---\ntitle: Deep\n---\n"),
            ("deep/a.mdx", "---\ntitle: Deep A\nsidebarTitle: A\n---\n"),
            ("api/x.mdx", "---\ntitle: X\n---\n"),
            ("secret.mdx", "---\ntitle: S\nhidden: true\n---\n"),
            ("es/index.mdx", "---\ntitle: Inicio\n---\n"),
        ]))
        .unwrap()
    }

    fn exported(site: &Site) -> BTreeMap<String, usize> {
        site.pages
            .iter()
            .enumerate()
            .map(|(i, p)| (p.path.clone(), i))
            .collect()
    }

    /// A hidden page marks the tab of its folder, or none when several tabs share it as much
    /// (dify's hidden `en/home` beside tabs all under `en/`), never the first tab for want of one.
    #[test]
    fn a_hidden_page_marks_the_tab_of_its_folder_or_none() {
        let site = build_site(&tree(&[
            (
                "docs.json",
                r#"{"navigation": {"tabs": [
                    {"tab": "Guides", "pages": ["en/guides/a"]},
                    {"tab": "API", "pages": ["en/api/x"]}]}}"#,
            ),
            ("en/guides/a.mdx", "A"),
            ("en/api/x.mdx", "X"),
            ("en/api/hidden.mdx", "---\nhidden: true\n---\n"),
            ("en/home.mdx", "---\nhidden: true\n---\n"),
            ("other.mdx", "---\nhidden: true\n---\n"),
        ]))
        .unwrap();
        let nav = build(&site, None, &exported(&site), "en");
        let tab = |path: &str| {
            current_tab(
                &nav["en"],
                site.pages.iter().position(|p| p.path == path).unwrap(),
                &site,
            )
        };
        assert_eq!(tab("en/api/x"), Some(1));
        assert_eq!(tab("en/api/hidden"), Some(1));
        assert_eq!(tab("en/home"), None);
        assert_eq!(tab("other"), None);
        let t = tree(&[]);
        let pages = BTreeMap::new();
        let links = Linker::new("en/home", "en/home.mdx", &pages, &t, "d.io");
        let mut bar = String::new();
        tabs_html(&mut bar, &nav["en"], tab("en/home"), &site, &links);
        assert!(bar.contains("Guides") && !bar.contains("current"), "{bar}");
    }

    #[test]
    fn languages_tabs_groups_and_order() {
        let site = site();
        let nav = build(&site, None, &exported(&site), "en");
        let en = &nav["en"];
        assert_eq!(
            en.iter().map(|t| t.label.as_str()).collect::<Vec<_>>(),
            ["Guides", "Blog", "API"]
        );
        let paths: Vec<&str> = order(en)
            .iter()
            .map(|&i| site.pages[i].path.as_str())
            .collect();
        assert_eq!(
            paths,
            ["index", "deep", "deep/a", "api/x"],
            "hidden pages are not listed"
        );
        assert_eq!(nav["es"].len(), 1);
        assert_eq!(nav["es"][0].label, "");
    }

    #[test]
    fn expanded_groups_stay_open_and_pages_show_their_icon_and_tag() {
        let t = tree(&[
            (
                "docs.json",
                r#"{"navigation": {"groups": [
                    {"group": "One", "pages": ["a"]},
                    {"group": "Two", "expanded": true, "tag": "BETA", "pages": ["b", {"group": "Inner", "expanded": true, "pages": ["c"]}]},
                    {"group": "Three", "pages": ["d"]}]}}"#,
            ),
            ("a.mdx", "---\ntitle: A\n---\n"),
            ("b.mdx", "---\ntitle: B\nicon: rocket\ntag: NEW\n---\n"),
            ("c.mdx", "---\ntitle: C\n---\n"),
            ("d.mdx", "---\ntitle: D\n---\n"),
        ]);
        let site = build_site(&t).unwrap();
        let nav = build(&site, None, &exported(&site), "en");
        let tab = &nav["en"][0];
        let a = site.pages.iter().position(|p| p.path == "a").unwrap();
        let mut side = String::new();
        sidebar_html(
            &mut side,
            Some(tab),
            a,
            &site,
            &Linker::new("a", "a.mdx", &BTreeMap::new(), &t, "d.io"),
            None,
        );
        assert!(side.contains("<li class=\"nav-section\"><p class=\"nav-section-label\">Two<span class=\"nav-tag\">BETA</span></p>"), "{side}");
        assert!(
            side.contains("<details open><summary>Inner</summary>"),
            "{side}"
        );
        assert!(side.contains("<svg data-icon=\"rocket\" data-type=\"\" data-class=\"icon\" data-src=\"b.mdx\"></svg>B<span class=\"nav-tag\">NEW</span></a>"), "{side}");
        assert!(side.contains("<li class=\"nav-section collapsed\"><p class=\"nav-section-label\"><a href=\"d.html\">Three</a>"), "not expanded: {side}");
    }

    #[test]
    fn sidebar_marks_the_current_page_and_opens_its_groups() {
        let site = site();
        let pages: BTreeMap<String, String> = site
            .pages
            .iter()
            .map(|p| (p.path.clone(), format!("{}.html", p.path)))
            .collect();
        let t = tree(&[]);
        let links = Linker::new("deep/a", "deep/a.mdx", &pages, &t, "d.io");
        let nav = build(&site, None, &exported(&site), "en");
        let current = site.pages.iter().position(|p| p.path == "deep/a").unwrap();
        let tab = current_tab(&nav["en"], current, &site);
        let mut out = String::new();
        sidebar_html(
            &mut out,
            tab.and_then(|t| nav["en"].get(t)),
            current,
            &site,
            &links,
            None,
        );
        assert!(
            out.contains(
                "<li class=\"nav-group\"><div class=\"nav-group-page\"><a href=\"../deep.html\">Deep</a></div>\
                 <details open><summary><span class=\"visually-hidden\">Deep</span></summary>"
            ),
            "{out}"
        );
        assert!(
            out.contains("<a href=\"a.html\" class=\"current\" aria-current=\"page\">A</a>"),
            "{out}"
        );
        let mut bar = String::new();
        tabs_html(&mut bar, &nav["en"], tab, &site, &links);
        assert!(
            bar.contains("<a class=\"tab current\" href=\"../index.html\">Guides</a>"),
            "{bar}"
        );
        assert!(
            bar.contains("href=\"https://blog.example\">Blog</a>"),
            "{bar}"
        );
        // Tab and section icons, as markers the batch fills in, named for docs.json's warnings.
        assert!(bar.contains("<a class=\"tab\" href=\"../api/x.html\"><svg data-icon=\"code\" data-type=\"\" data-class=\"icon\" data-src=\"docs.json\"></svg>API</a>"), "{bar}");
        let api = site.pages.iter().position(|p| p.path == "api/x").unwrap();
        let mut side = String::new();
        sidebar_html(
            &mut side,
            current_tab(&nav["en"], api, &site).and_then(|t| nav["en"].get(t)),
            api,
            &site,
            &links,
            None,
        );
        assert!(
            side.contains("<p class=\"nav-section-label\"><svg data-icon=\"book\""),
            "{side}"
        );
    }

    #[test]
    fn other_sections_are_label_links_and_large_tabs_show_a_window() {
        let groups: Vec<String> = (0..30)
            .map(|g| format!(r#"{{"group": "G{g}", "pages": ["g{g}/a", "g{g}/b"]}}"#))
            .collect();
        let config = format!(r#"{{"navigation": {{"groups": [{}]}}}}"#, groups.join(","));
        let mut files = vec![("docs.json".to_owned(), config)];
        for g in 0..30 {
            for p in ["a", "b"] {
                files.push((
                    format!("g{g}/{p}.mdx"),
                    format!("---\ntitle: G{g} {p}\n---\n"),
                ));
            }
        }
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let t = tree(&refs);
        let site = build_site(&t).unwrap();
        let pages: BTreeMap<String, String> = site
            .pages
            .iter()
            .map(|p| (p.path.clone(), format!("{}.html", p.path)))
            .collect();
        let links = Linker::new("g20/b", "g20/b.mdx", &pages, &t, "d.io");
        let nav = build(&site, None, &exported(&site), "en");
        let tab = &nav["en"][0];
        let current = site.pages.iter().position(|p| p.path == "g20/b").unwrap();
        assert_eq!(shown_sections(tab, current), 6..30);
        let mut out = String::new();
        sidebar_html(
            &mut out,
            Some(tab),
            current,
            &site,
            &links,
            Some("../all.html"),
        );
        assert!(
            out.contains("<a href=\"a.html\">G20 a</a>"),
            "its section lists every page: {out}"
        );
        assert!(out.contains("aria-current=\"page\">G20 b</a>"), "{out}");
        assert!(
            out.contains("<li class=\"nav-section collapsed\"><p class=\"nav-section-label\"><a href=\"../g21/a.html\">G21</a></p></li>"),
            "{out}"
        );
        assert!(
            !out.contains("g21/b.html"),
            "collapsed sections carry no entries"
        );
        assert!(
            !out.contains("G5<") && out.contains(">G6<"),
            "sections before the window are left out"
        );
        assert!(
            out.contains("<a href=\"../all.html\">All sections (6 more)</a>"),
            "{out}"
        );
        assert_eq!(out.matches("<li class=\"nav-section").count(), 24);
        let mut contents = String::new();
        contents_html(&mut contents, tab, &site, &links);
        assert_eq!(
            contents.matches("<a href").count(),
            60,
            "the contents page links every page"
        );
    }

    #[test]
    fn only_exported_pages_appear() {
        let site = site();
        let mut only = exported(&site);
        only.retain(|path, _| path == "api/x");
        let nav = build(&site, None, &only, "en");
        let en = &nav["en"];
        assert_eq!(order(en).len(), 1);
        assert!(
            en.iter().all(|t| t.label != "Guides"),
            "empty tabs are dropped"
        );
    }
}
