//! Mintlify's legacy mint.json, read into the same [`SiteConfig`] as docs.json, so an owner never
//! converts it.
//!
//! mint.json lists its navigation as a flat array of groups; `versions`, `tabs` and `anchors` are
//! declared beside it and select pages rather than hold them:
//! - a group with a `version` key belongs to that version; a group without one to every version;
//! - a page belongs to the tab (and, inside it, the anchor) whose `url` is the longest prefix of its
//!   path (`api-reference` holds `api-reference/users/get`); pages under no tab form the primary tab
//!   (`primaryTab.name`, default "Documentation"), pages under no anchor the top anchor
//!   (`topAnchor.name`, same default);
//! - a tab or anchor whose `url` is external (`https://…`, `mailto:`) is a link, kept in
//!   [`SiteConfig::global`].
//!
//! The tree built is the docs.json tree for the same site: versions, then tabs, then anchors, then
//! the groups, so everything downstream reads one shape.

use serde_json::{Map, Value};

use super::keys;
use super::nav::{Division, DivisionKind, NavItem};
use super::settings::{self, as_string, str_field, Navbar};
use super::site_config::{
    parse_colors, parse_favicon, parse_json, parse_logo, ConfigError, NavReader, SiteConfig,
    LEGACY_CONFIG_FILE,
};

const FILE: &str = LEGACY_CONFIG_FILE;
/// The label of the tab and the anchor holding pages under no other (Mintlify's default).
const DEFAULT_SECTION: &str = "Documentation";

/// A tab or an anchor of mint.json that holds pages (its `url` is a path prefix).
#[derive(Debug)]
struct Section {
    name: String,
    prefix: String,
    icon: Option<String>,
    version: Option<String>,
    hidden: bool,
    openapi: Option<super::nav::OpenApiSource>,
}

pub(super) fn parse_mint_json(
    bytes: &[u8],
    warnings: &mut Vec<String>,
) -> Result<SiteConfig, ConfigError> {
    let Value::Object(root) = parse_json(FILE, bytes)? else {
        return Err(ConfigError::NotAnObject { file: FILE.into() });
    };
    let text = String::from_utf8_lossy(bytes);
    let mut reader = NavReader {
        file: FILE,
        text: &text,
        warnings: Vec::new(),
    };
    reader.unknown_keys(&root, keys::MINT_JSON_ROOT, "");

    let mut groups: Vec<(Option<String>, NavItem)> = Vec::new();
    match root.get("navigation") {
        Some(Value::Array(entries)) => {
            for (i, entry) in entries.iter().enumerate() {
                let field = format!("navigation[{i}]");
                let item = match entry {
                    Value::String(page) => reader.page_entry(page, &field)?,
                    _ => reader
                        .division(entry, DivisionKind::Group, "group", &field)?
                        .map(NavItem::Division),
                };
                let version = entry.get("version").and_then(as_string);
                groups.extend(item.map(|item| (version, item)));
            }
        }
        Some(_) => reader
            .warnings
            .push(format!("{FILE}: `navigation` is not a list of groups")),
        None => reader.warnings.push(format!("{FILE}: no navigation")),
    }

    let mut global = Vec::new();
    let tabs = sections(&mut reader, &root, "tabs", DivisionKind::Tab, &mut global);
    let anchors = sections(
        &mut reader,
        &root,
        "anchors",
        DivisionKind::Anchor,
        &mut global,
    );
    let layout = Layout {
        tabs,
        anchors,
        primary_tab: root
            .get("primaryTab")
            .and_then(|t| t.get("name"))
            .and_then(as_string),
        top_anchor: root.get("topAnchor").and_then(Value::as_object),
    };
    let navigation = versioned(&mut reader, &root, groups, &layout);

    let null = Value::Null;
    let get = |key: &str| root.get(key).unwrap_or(&null);
    let colors = get("colors");
    warnings.append(&mut reader.warnings);
    Ok(SiteConfig {
        name: str_field(&root, "name").unwrap_or_default(),
        description: str_field(&root, "description"),
        theme: str_field(&root, "theme"),
        logo: parse_logo(get("logo")),
        favicon: parse_favicon(get("favicon")),
        colors: parse_colors(colors),
        navigation,
        global,
        file: FILE.to_owned(),
        navbar: Navbar {
            links: get("topbarLinks")
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(settings::mint_link)
                .collect(),
            primary: settings::mint_link(get("topbarCtaButton")),
        },
        footer: settings::Footer {
            socials: settings::socials(get("footerSocials")),
            columns: Vec::new(),
        },
        redirects: settings::redirects(get("redirects")),
        api: settings::mint_api(get("api"), get("openapi")),
        appearance: settings::mode_toggle(get("modeToggle")),
        background: settings::mint_background(colors, get("backgroundImage")),
        fonts: settings::fonts(get("font")),
        banner: settings::banner(get("banner")),
        feedback: settings::feedback(get("feedback")),
        icon_library: None,
    })
}

/// `tabs` or `anchors`: the ones holding pages, in order; the external links go to `global`.
fn sections(
    reader: &mut NavReader<'_>,
    root: &Map<String, Value>,
    key: &str,
    kind: DivisionKind,
    global: &mut Vec<NavItem>,
) -> Vec<Section> {
    let mut out = Vec::new();
    let entries = root
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    for (i, entry) in entries.enumerate() {
        let Some(map) = entry.as_object() else {
            continue;
        };
        let field = format!("{key}[{i}]");
        reader.unknown_keys(map, keys::MINT_SECTION, &field);
        let (Some(name), Some(url)) = (str_field(map, "name"), str_field(map, "url")) else {
            reader.warnings.push(format!(
                "{FILE}: {field} needs a `name` and a `url`; ignored"
            ));
            continue;
        };
        let icon = str_field(map, "icon");
        if is_external(&url) {
            let mut link = Division::new(kind, name);
            link.href = Some(url);
            link.icon = icon;
            global.push(NavItem::Division(link));
            continue;
        }
        out.push(Section {
            name,
            prefix: url.trim().trim_matches('/').to_owned(),
            icon,
            version: str_field(map, "version"),
            hidden: map
                .get("isDefaultHidden")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            openapi: map
                .get("openapi")
                .and_then(|o| settings::openapi_sources(o).into_iter().next()),
        });
    }
    out
}

fn is_external(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    lower.contains("://") || lower.starts_with("mailto:") || lower.starts_with("//")
}

struct Layout<'r> {
    tabs: Vec<Section>,
    anchors: Vec<Section>,
    primary_tab: Option<String>,
    top_anchor: Option<&'r Map<String, Value>>,
}

/// The navigation per version (`versions`: names, or `{name, url}` where a url makes it a link), or
/// the sections alone when the site is unversioned.
fn versioned(
    reader: &mut NavReader<'_>,
    root: &Map<String, Value>,
    groups: Vec<(Option<String>, NavItem)>,
    layout: &Layout<'_>,
) -> Vec<NavItem> {
    let mut versions: Vec<(String, Option<String>)> = Vec::new();
    for entry in root
        .get("versions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let version = match entry {
            Value::Object(map) => str_field(map, "name").map(|name| (name, str_field(map, "url"))),
            other => as_string(other).map(|name| (name, None)),
        };
        versions.extend(version);
    }
    if versions.is_empty() {
        let items: Vec<NavItem> = groups.into_iter().map(|(_, item)| item).collect();
        return sectioned(&items, None, layout);
    }
    for (version, _) in &groups {
        if let Some(version) = version
            .as_deref()
            .filter(|v| !versions.iter().any(|(name, _)| name == v))
        {
            reader.warnings.push(format!(
                "{FILE}: a group names version `{version}`, which `versions` does not list"
            ));
            versions.push((version.to_owned(), None));
        }
    }
    let mut out = Vec::new();
    for (i, (name, url)) in versions.iter().enumerate() {
        let mut division = Division::new(DivisionKind::Version, name.clone());
        // The first version is the one shown first (the latest, by Mintlify's convention).
        division.default = i == 0;
        division.href = url.clone().filter(|u| is_external(u));
        let items: Vec<NavItem> = groups
            .iter()
            .filter(|(v, _)| v.as_deref().is_none_or(|v| v == name))
            .map(|(_, item)| item.clone())
            .collect();
        division.items = sectioned(&items, Some(name), layout);
        out.push(NavItem::Division(division));
    }
    out
}

/// `items` split into tabs, each split into anchors, by the longest prefix owning each page.
fn sectioned(items: &[NavItem], version: Option<&str>, layout: &Layout<'_>) -> Vec<NavItem> {
    let in_version = |s: &&Section| s.version.as_deref().is_none_or(|v| Some(v) == version);
    let tabs: Vec<&Section> = layout.tabs.iter().filter(in_version).collect();
    let anchors: Vec<&Section> = layout.anchors.iter().filter(in_version).collect();
    let primary = layout
        .primary_tab
        .clone()
        .unwrap_or_else(|| DEFAULT_SECTION.to_owned());
    let with_anchors = |items: Vec<NavItem>| -> Vec<NavItem> {
        if anchors.is_empty() {
            return items;
        }
        let top = layout.top_anchor;
        let mut top = Division::new(
            DivisionKind::Anchor,
            top.and_then(|t| str_field(t, "name"))
                .unwrap_or_else(|| DEFAULT_SECTION.to_owned()),
        );
        top.icon = layout.top_anchor.and_then(|t| str_field(t, "icon"));
        split(&items, &anchors, top, DivisionKind::Anchor)
    };
    if tabs.is_empty() {
        return with_anchors(items.to_vec());
    }
    let mut out = Vec::new();
    for tab in split(
        items,
        &tabs,
        Division::new(DivisionKind::Tab, primary),
        DivisionKind::Tab,
    ) {
        out.push(match tab {
            NavItem::Division(mut tab) => {
                tab.items = with_anchors(std::mem::take(&mut tab.items));
                NavItem::Division(tab)
            }
            other => other,
        });
    }
    out
}

/// One division per section (the `rest` division first, for pages no section owns), each holding
/// the groups filtered to its pages; divisions left empty are dropped.
fn split(
    items: &[NavItem],
    sections: &[&Section],
    rest: Division,
    kind: DivisionKind,
) -> Vec<NavItem> {
    let mut out = Vec::new();
    let mut rest = rest;
    rest.items = filter(items, sections, None, None);
    if !rest.items.is_empty() {
        out.push(NavItem::Division(rest));
    }
    for (i, section) in sections.iter().enumerate() {
        let mut division = Division::new(kind, section.name.clone());
        division.icon = section.icon.clone();
        division.hidden = section.hidden;
        division.openapi = section.openapi.clone();
        division.items = filter(items, sections, Some(i), None);
        if !division.items.is_empty() {
            out.push(NavItem::Division(division));
        }
    }
    out
}

/// The part of `items` section `index` owns (`None`: the pages no section owns). An endpoint goes
/// where its group's first page goes (`group_owner`).
fn filter(
    items: &[NavItem],
    sections: &[&Section],
    index: Option<usize>,
    group_owner: Option<Option<usize>>,
) -> Vec<NavItem> {
    let mut out = Vec::new();
    for item in items {
        match item {
            NavItem::Page(path) => {
                if owner(path, sections) == index {
                    out.push(item.clone());
                }
            }
            NavItem::Endpoint(_) => {
                if group_owner.unwrap_or(None) == index {
                    out.push(item.clone());
                }
            }
            NavItem::Division(division) => {
                let first = division
                    .root
                    .as_deref()
                    .or_else(|| first_page(&division.items));
                let this_owner = first
                    .map(|p| owner(p, sections))
                    .or(group_owner)
                    .unwrap_or(None);
                let mut kept = division.clone();
                kept.root = division
                    .root
                    .clone()
                    .filter(|root| owner(root, sections) == index);
                kept.items = filter(&division.items, sections, index, Some(this_owner));
                if !kept.items.is_empty() || kept.root.is_some() {
                    out.push(NavItem::Division(kept));
                }
            }
        }
    }
    out
}

fn first_page(items: &[NavItem]) -> Option<&str> {
    items.iter().find_map(|item| match item {
        NavItem::Page(path) => Some(path.as_str()),
        NavItem::Division(d) => d.root.as_deref().or_else(|| first_page(&d.items)),
        NavItem::Endpoint(_) => None,
    })
}

/// The section whose prefix is the longest one of `path`.
fn owner(path: &str, sections: &[&Section]) -> Option<usize> {
    sections
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            !s.prefix.is_empty()
                && (path == s.prefix || path.starts_with(&format!("{}/", s.prefix)))
        })
        .max_by_key(|(_, s)| s.prefix.len())
        .map(|(i, _)| i)
}
