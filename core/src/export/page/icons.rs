//! Icons as inline SVG, from the sets the docs format names: Font Awesome Free (`iconType` solid,
//! regular or brands), Lucide and Tabler.
//!
//! Rendering writes a marker where an icon goes ([`marker`]); the sets are not in this crate. The
//! caller then asks which shards of the icon assets the marked names need ([`KnownIcons::shards_wanted`]),
//! reads those (the worker from its static assets, `scripts/build-icons.mjs` writes them) and
//! [`fill`] replaces every marker with the icon's SVG, or a neutral dot and a warning naming the
//! file and line when no set has the name. So a batch holds only the few shards its pages use, and
//! neither script carries a set in its code.
//!
//! A shard is lines `name\tviewBox\telements`, elements `tag|attr=value|…` joined by `;`. The
//! markup is written here from an allow-list of shape elements and geometry attributes, so what
//! the assets hold cannot add anything else to a page.

use std::collections::{BTreeMap, BTreeSet};

use crate::docs::SourceTree;

use crate::export::html::{self, attr};
use crate::export::ExportFile;

/// Shards per set; `scripts/build-icons.mjs` `SHARDS` says the same.
pub const SHARDS: u32 = 16;

/// Where the bundle keeps the sets' licences, next to the pages that show their icons.
pub const LICENCE_DIR: &str = "_static/icons";

/// The sets, as the asset folders name them.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum IconSet {
    FaSolid,
    FaRegular,
    FaBrands,
    Lucide,
    Tabler,
}

impl IconSet {
    pub const ALL: [IconSet; 5] = [
        Self::FaSolid,
        Self::FaRegular,
        Self::FaBrands,
        Self::Lucide,
        Self::Tabler,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Self::FaSolid => "fa-solid",
            Self::FaRegular => "fa-regular",
            Self::FaBrands => "fa-brands",
            Self::Lucide => "lucide",
            Self::Tabler => "tabler",
        }
    }

    /// The licence file of the set's package (`LICENSE-fontawesome.txt`), among the icon assets and
    /// in [`LICENCE_DIR`] of a bundle that shows one of its icons.
    pub fn licence_file(self) -> &'static str {
        match self {
            Self::FaSolid | Self::FaRegular | Self::FaBrands => "LICENSE-fontawesome.txt",
            Self::Lucide => "LICENSE-lucide.txt",
            Self::Tabler => "LICENSE-tabler.txt",
        }
    }

    /// Font Awesome is drawn filled; Lucide and Tabler are 2px strokes.
    fn paint(self) -> &'static str {
        match self {
            Self::FaSolid | Self::FaRegular | Self::FaBrands => " fill=\"currentColor\"",
            Self::Lucide | Self::Tabler => {
                " fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\" stroke-linecap=\"round\" stroke-linejoin=\"round\""
            }
        }
    }
}

/// One shard of one set's assets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ShardId {
    pub set: IconSet,
    pub index: u32,
}

impl ShardId {
    /// Its file among the worker's static assets.
    pub fn asset_path(self) -> String {
        format!("export-icons/{}/{}.txt", self.set.id(), self.index)
    }
}

/// FNV-1a (32 bits): short, stable and the same in the build script.
pub(crate) fn fnv1a(text: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in text.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// The shard that holds `name` in every set.
fn shard_of(name: &str) -> u32 {
    fnv1a(name) % SHARDS
}

/// The shards read for a batch, each indexed by name once.
#[derive(Debug, Clone, Default)]
pub struct IconShards {
    shards: BTreeMap<ShardId, Shard>,
}

/// A shard's text and its lines' `(start, name end, end)` offsets, sorted by name.
#[derive(Debug, Clone)]
struct Shard {
    text: String,
    lines: Vec<(usize, usize, usize)>,
}

impl IconShards {
    pub fn insert(&mut self, shard: ShardId, text: String) {
        let mut lines = Vec::new();
        let mut start = 0;
        for line in text.split_inclusive('\n') {
            let end = start + line.trim_end_matches(['\n', '\r']).len();
            let name_end = line.find('\t').map_or(end, |tab| start + tab);
            lines.push((start, name_end, end));
            start += line.len();
        }
        crate::sort::sort_by(&mut lines, |a, b| text[a.0..a.1].cmp(&text[b.0..b.1]));
        self.shards.insert(shard, Shard { text, lines });
    }
}

/// Where [`fill`] finds an icon: `(viewBox, elements)` of `name` in `set`.
pub trait IconSource {
    fn find(&self, set: IconSet, name: &str) -> Option<(&str, &str)>;
}

impl IconSource for IconShards {
    fn find(&self, set: IconSet, name: &str) -> Option<(&str, &str)> {
        let shard = self.shards.get(&ShardId {
            set,
            index: shard_of(name),
        })?;
        let text = shard.text.as_str();
        let at = shard
            .lines
            .binary_search_by(|&(start, name_end, _)| text[start..name_end].cmp(name))
            .ok()?;
        let (_, name_end, end) = shard.lines[at];
        let mut fields = text.get(name_end + 1..end)?.splitn(2, '\t');
        Some((fields.next()?, fields.next()?))
    }
}

/// The icons a job's pages have named so far, per set, found or not: what a host keeps between
/// batches (the worker's export job, across alarms) instead of the shards, which a batch reads only
/// for names not seen before and drops after. Reading and scanning the shards for every batch was
/// a tenth of a large export; keeping the shards themselves (megabytes, churned batch after batch)
/// raised the finishing step's memory high-water by a fifth through fragmentation.
#[derive(Debug, Clone, Default)]
pub struct KnownIcons {
    found: BTreeMap<(IconSet, String), (String, String)>,
    absent: BTreeSet<(IconSet, String)>,
    bytes: usize,
}

impl KnownIcons {
    /// The shards the markers in `marked` need that what is known cannot answer.
    pub fn shards_wanted(&self, marked: &Marked, library: Library) -> Vec<ShardId> {
        let mut wanted = BTreeSet::new();
        self.each_unknown(marked, library, |set, name| {
            wanted.insert(ShardId {
                set,
                index: shard_of(name),
            });
        });
        wanted.into_iter().collect()
    }

    /// Learns, from `shards` (those [`KnownIcons::shards_wanted`] named), whether each set the
    /// markers in `marked` may come from has their names.
    pub fn learn(&mut self, marked: &Marked, library: Library, shards: &IconShards) {
        let mut learnt = Vec::new();
        self.each_unknown(marked, library, |set, name| {
            learnt.push((set, name.to_owned()))
        });
        for (set, name) in learnt {
            self.bytes += name.len() + 64;
            match shards.find(set, &name) {
                Some((view_box, elements)) => {
                    self.bytes += view_box.len() + elements.len();
                    self.found
                        .insert((set, name), (view_box.to_owned(), elements.to_owned()));
                }
                None => {
                    self.absent.insert((set, name));
                }
            }
        }
    }

    /// Bytes held, about.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    fn each_unknown(
        &self,
        marked: &Marked,
        library: Library,
        mut unknown: impl FnMut(IconSet, &str),
    ) {
        for (name, icon_type) in &marked.names {
            for set in candidates(library, icon_type) {
                let key = (set, name.clone());
                if !self.found.contains_key(&key) && !self.absent.contains(&key) {
                    unknown(set, name);
                }
            }
        }
    }
}

/// The icon markers of a batch's pages, read once for the steps that need them (which shards to
/// read, what to learn from them, the filling): each step reading the pages again was two thirds
/// of the icons' time in a large export.
pub struct Marked {
    /// Index in the files and the markers of each HTML file that has any.
    files: Vec<(usize, Vec<Marker>)>,
    /// Each distinct `(normalised name, iconType)` the markers name.
    names: BTreeSet<(String, String)>,
}

impl Marked {
    pub fn read(files: &[ExportFile]) -> Marked {
        let mut marked = Marked {
            files: Vec::new(),
            names: BTreeSet::new(),
        };
        for (i, file) in files
            .iter()
            .enumerate()
            .filter(|(_, f)| f.path.ends_with(".html"))
        {
            let Ok(html) = std::str::from_utf8(&file.bytes) else {
                continue;
            };
            let found = markers(html);
            if found.is_empty() {
                continue;
            }
            for m in &found {
                if let Some(name) = normalize(&m.name) {
                    marked.names.insert((name, m.icon_type.trim().to_owned()));
                }
            }
            marked.files.push((i, found));
        }
        marked
    }
}

impl IconSource for KnownIcons {
    fn find(&self, set: IconSet, name: &str) -> Option<(&str, &str)> {
        self.found
            .get(&(set, name.to_owned()))
            .map(|(view_box, elements)| (view_box.as_str(), elements.as_str()))
    }
}

/// docs.json `icons.library`: the set a bare name comes from first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Library {
    #[default]
    FontAwesome,
    Lucide,
    Tabler,
}

impl Library {
    pub fn from_config(value: Option<&str>) -> Self {
        match value.map(str::trim) {
            Some("lucide") => Self::Lucide,
            Some("tabler") => Self::Tabler,
            _ => Self::FontAwesome,
        }
    }
}

/// The sets to look `name` up in, in order, for the library and the author's `iconType`. Names the
/// chosen set lacks are looked for in the others, as authors mix them.
fn candidates(library: Library, icon_type: &str) -> Vec<IconSet> {
    use IconSet::*;
    let font_awesome = match icon_type {
        "brands" => [FaBrands, FaSolid, FaRegular],
        "solid" | "sharp-solid" | "duotone" => [FaSolid, FaRegular, FaBrands],
        _ => [FaRegular, FaSolid, FaBrands],
    };
    let mut sets = match library {
        Library::FontAwesome => font_awesome.to_vec(),
        Library::Lucide => vec![Lucide],
        Library::Tabler => vec![Tabler],
    };
    for set in font_awesome.into_iter().chain([Lucide, Tabler]) {
        if !sets.contains(&set) {
            sets.push(set);
        }
    }
    sets
}

/// A name as the sets spell it: `Rocket`, `fa-rocket` and ` rocket ` are `rocket`; `None` for
/// anything but letters, digits and `-`.
fn normalize(name: &str) -> Option<String> {
    let name = name.trim().to_ascii_lowercase();
    let name = name.strip_prefix("fa-").unwrap_or(&name);
    let plain = !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    plain.then(|| name.to_owned())
}

const MARKER: &str = "<svg data-icon=\"";

/// Writes the marker [`fill`] replaces with icon `name` (`iconType` `icon_type`) in class `class`;
/// `source` is the file that names it, for the warning when no set has it.
pub(crate) fn marker(
    out: &mut String,
    name: &str,
    icon_type: Option<&str>,
    class: &str,
    source: &str,
) {
    out.push_str(MARKER);
    html::text(out, name);
    out.push('"');
    attr(out, "data-type", icon_type.unwrap_or(""));
    attr(out, "data-class", class);
    attr(out, "data-src", source);
    out.push_str("></svg>");
}

/// A marker as read back.
struct Marker {
    range: std::ops::Range<usize>,
    name: String,
    icon_type: String,
    class: String,
    source: String,
}

fn markers(html: &str) -> Vec<Marker> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(offset) = html[from..].find(MARKER) {
        let start = from + offset;
        let Some(len) = html[start..].find("></svg>") else {
            break;
        };
        let end = start + len + "></svg>".len();
        let inner = &html[start + "<svg ".len()..start + len];
        let value = |key: &str| {
            let at = find_attr(inner, key)?;
            let close = inner[at..].find('"')?;
            Some(unescape(&inner[at..at + close]))
        };
        found.push(Marker {
            range: start..end,
            name: value("data-icon").unwrap_or_default(),
            icon_type: value("data-type").unwrap_or_default(),
            class: value("data-class").unwrap_or_default(),
            source: value("data-src").unwrap_or_default(),
        });
        from = end;
    }
    found
}

/// Where the value of attribute `key` begins in a marker's attributes (`key="…"`).
fn find_attr(inner: &str, key: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = inner[from..].find(key) {
        let after = from + at + key.len();
        if inner[after..].starts_with("=\"")
            && (from + at == 0 || inner[..from + at].ends_with(' '))
        {
            return Some(after + 2);
        }
        from = after;
    }
    None
}

fn unescape(value: &str) -> String {
    if !value.contains('&') {
        return value.to_owned();
    }
    value
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// What [`fill`] did besides filling.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filled {
    /// `path:line: unknown icon `name`…`, once per file and name.
    pub warnings: Vec<String>,
    /// Sets whose icons the pages show: the bundle carries their licences.
    pub sets: BTreeSet<IconSet>,
}

/// Replaces the markers in `files` with icons from `shards`; `tree` holds the files the markers
/// name, to say on which line an unknown name is.
pub fn fill(
    files: &mut [ExportFile],
    library: Library,
    shards: &impl IconSource,
    tree: &SourceTree,
) -> Filled {
    let marked = Marked::read(files);
    fill_marked(files, marked, library, shards, tree)
}

/// [`fill`] with the markers of `files` read already ([`Marked::read`] of these very files).
pub fn fill_marked(
    files: &mut [ExportFile],
    marked: Marked,
    library: Library,
    shards: &impl IconSource,
    tree: &SourceTree,
) -> Filled {
    let mut filled = Filled::default();
    let mut warned = BTreeSet::new();
    // A sidebar repeats its icons on every page: each one's markup is written once.
    let mut made: BTreeMap<(String, String, String), Option<(IconSet, String)>> = BTreeMap::new();
    for (i, found) in marked.files {
        let Some(file) = files.get_mut(i) else {
            continue;
        };
        let Ok(html) = std::str::from_utf8(&file.bytes) else {
            continue;
        };
        let mut out = String::with_capacity(html.len() + found.len() * 400);
        let mut at = 0;
        for m in found {
            let Some(before) = html.get(at..m.range.start) else {
                break;
            };
            out.push_str(before);
            at = m.range.end;
            let key = (m.name, m.icon_type, m.class);
            if !made.contains_key(&key) {
                let (name, icon_type, class) = &key;
                let icon = normalize(name)
                    .and_then(|name| {
                        candidates(library, icon_type.trim())
                            .into_iter()
                            .find_map(|set| {
                                shards
                                    .find(set, &name)
                                    .map(|(view_box, elements)| (set, view_box, elements))
                            })
                    })
                    .and_then(|(set, view_box, elements)| {
                        svg(set, view_box, elements, class).map(|s| (set, s))
                    });
                made.insert(key.clone(), icon);
            }
            match made.get(&key).and_then(Option::as_ref) {
                Some((set, svg)) => {
                    filled.sets.insert(*set);
                    out.push_str(svg);
                }
                None => {
                    let (name, _, class) = key;
                    out.push_str(&fallback(&class));
                    if warned.insert((m.source.clone(), name.clone())) {
                        filled
                            .warnings
                            .push(unknown_icon_warning(&m.source, &name, tree));
                    }
                }
            }
        }
        out.push_str(html.get(at..).unwrap_or(""));
        file.bytes = out.into_bytes();
    }
    filled
}

/// The licence files of the sets `filled` used, at their bundle paths, from the icon assets'
/// texts (`read` gives the text of an asset licence file by name).
pub fn licence_files(
    filled: &BTreeSet<IconSet>,
    mut read: impl FnMut(&str) -> Option<Vec<u8>>,
) -> Vec<ExportFile> {
    let names: BTreeSet<&str> = filled.iter().map(|s| s.licence_file()).collect();
    names
        .into_iter()
        .filter_map(|name| {
            Some(ExportFile {
                path: format!("{LICENCE_DIR}/{name}"),
                bytes: read(name)?,
            })
        })
        .collect()
}

fn unknown_icon_warning(source: &str, name: &str, tree: &SourceTree) -> String {
    let line = tree
        .get(source)
        .and_then(|bytes| std::str::from_utf8(bytes).ok())
        .and_then(|text| {
            text.lines()
                .position(|l| l.contains("icon") && l.contains(name.trim()))
                .or_else(|| text.lines().position(|l| l.contains(name.trim())))
        });
    let at = match line {
        Some(i) => format!("{source}:{}", i + 1),
        None => source.to_owned(),
    };
    format!(
        "{at}: unknown icon `{}`: not in Font Awesome Free, Lucide or Tabler; shown as a dot",
        name.trim()
    )
}

const TAGS: &[&str] = &[
    "path", "circle", "rect", "line", "ellipse", "polyline", "polygon",
];
const ATTRIBUTES: &[&str] = &[
    "d",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "width",
    "height",
    "points",
    "fill-rule",
    "clip-rule",
    "opacity",
    "fill",
];

fn plain_value(value: &str) -> bool {
    value.len() <= 16_384
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " .,+-#".contains(c))
}

fn open_svg(out: &mut String, class: &str, view_box: &str, paint: &str) {
    out.push_str("<svg");
    attr(out, "class", class);
    attr(out, "viewBox", view_box);
    out.push_str(" width=\"1em\" height=\"1em\" aria-hidden=\"true\" focusable=\"false\"");
    out.push_str(paint);
    out.push('>');
}

/// The icon's markup, or `None` when the shard line holds anything outside the allow-list.
fn svg(set: IconSet, view_box: &str, elements: &str, class: &str) -> Option<String> {
    if !plain_value(view_box) {
        return None;
    }
    let mut out = String::with_capacity(elements.len() + 200);
    open_svg(&mut out, &class_or_icon(class), view_box, set.paint());
    for element in elements.split(';') {
        let mut fields = element.split('|');
        let tag = fields.next().filter(|t| TAGS.contains(t))?;
        out.push('<');
        out.push_str(tag);
        for field in fields {
            let (name, value) = field.split_once('=')?;
            if !ATTRIBUTES.contains(&name) || !plain_value(value) {
                return None;
            }
            attr(&mut out, name, value);
        }
        out.push_str("/>");
    }
    out.push_str("</svg>");
    Some(out)
}

fn class_or_icon(class: &str) -> String {
    let class: String = class
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .collect();
    if class.trim().is_empty() {
        "icon".to_owned()
    } else {
        class
    }
}

/// The neutral stand-in for a name no set has.
fn fallback(class: &str) -> String {
    let mut out = String::new();
    open_svg(
        &mut out,
        &format!("{} icon-unknown", class_or_icon(class)),
        "0 0 24 24",
        " fill=\"currentColor\"",
    );
    out.push_str("<circle cx=\"12\" cy=\"12\" r=\"4\"/></svg>");
    out
}

/// Writes the icon a component names, if any: a marker for a set name, an `<img>` for an image
/// of the tree (`icon="/images/x.svg"`), nothing for an empty value.
pub(crate) fn component_icon(
    out: &mut String,
    name: Option<&str>,
    icon_type: Option<&str>,
    links: &crate::export::render::links::Linker<'_>,
) {
    let Some(name) = name.map(str::trim).filter(|n| !n.is_empty()) else {
        return;
    };
    if name.contains('/') || name.contains('.') {
        if let crate::export::render::links::Media::Local(src)
        | crate::export::render::links::Media::ImageOnly { src, .. } = links.media(name)
        {
            out.push_str("<img class=\"icon icon-img\" alt=\"\"");
            attr(out, "src", &src);
            out.push('>');
        }
        return;
    }
    marker(out, name, icon_type, "icon", links.source());
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Shards holding a few real icons (paths shortened), for tests elsewhere too.
    pub(crate) fn test_shards() -> IconShards {
        let mut shards = IconShards::default();
        let icons = [
            (
                IconSet::FaSolid,
                "rocket",
                "0 0 512 512",
                "path|d=M128 320L24.5 320z",
            ),
            (
                IconSet::FaSolid,
                "circle-info",
                "0 0 512 512",
                "path|d=M256 512a256 256 0 1 0 0-512z",
            ),
            (
                IconSet::FaBrands,
                "github",
                "0 0 496 512",
                "path|d=M165.9 397.4c0 2-2.3 3.6-5.2 3.6z",
            ),
            (
                IconSet::FaBrands,
                "x-twitter",
                "0 0 448 512",
                "path|d=M357.2 48L427.8 48z",
            ),
            (
                IconSet::Lucide,
                "rocket",
                "0 0 24 24",
                "path|d=M12 15v5s3.03-.55 4-2;circle|cx=12|cy=12|r=3",
            ),
            (
                IconSet::Tabler,
                "brand-vercel",
                "0 0 24 24",
                "path|d=M3 19h18l-9 -15l-9 15",
            ),
        ];
        let mut texts: BTreeMap<ShardId, String> = BTreeMap::new();
        for (set, name, view_box, elements) in icons {
            let text = texts
                .entry(ShardId {
                    set,
                    index: shard_of(name),
                })
                .or_default();
            text.push_str(&format!("{name}\t{view_box}\t{elements}\n"));
        }
        for (shard, text) in texts {
            shards.insert(shard, text);
        }
        shards
    }

    fn page(body: &str) -> Vec<ExportFile> {
        vec![ExportFile::new("a.html".into(), body.into())]
    }

    fn marked(name: &str, icon_type: Option<&str>) -> String {
        let mut out = String::new();
        marker(&mut out, name, icon_type, "icon", "guides/a.mdx");
        out
    }

    #[test]
    fn the_shard_function_matches_the_build_script() {
        // scripts/build-icons.mjs shardOf("rocket") and shardOf("github"), computed with node.
        assert_eq!((shard_of("rocket"), shard_of("github")), (5, 2));
    }

    #[test]
    fn a_marker_becomes_the_icon_of_the_first_set_that_has_it() {
        let mut files = page(&format!("<p>{}</p>", marked("rocket", None)));
        let filled = fill(
            &mut files,
            Library::FontAwesome,
            &test_shards(),
            &SourceTree::new(),
        );
        let html = String::from_utf8(files.remove(0).bytes).unwrap();
        assert_eq!(
            html,
            "<p><svg class=\"icon\" viewBox=\"0 0 512 512\" width=\"1em\" height=\"1em\" aria-hidden=\"true\" \
             focusable=\"false\" fill=\"currentColor\"><path d=\"M128 320L24.5 320z\"/></svg></p>"
        );
        assert!(filled.warnings.is_empty());
        assert_eq!(filled.sets, BTreeSet::from([IconSet::FaSolid]));
    }

    #[test]
    fn the_library_and_icon_type_choose_the_set() {
        let lucide = candidates(Library::Lucide, "");
        assert_eq!(lucide[0], IconSet::Lucide);
        let mut files = page(&marked("Rocket", None));
        fill(
            &mut files,
            Library::Lucide,
            &test_shards(),
            &SourceTree::new(),
        );
        let html = String::from_utf8(files.remove(0).bytes).unwrap();
        assert!(
            html.contains("stroke=\"currentColor\"") && html.contains("<circle cx=\"12\""),
            "{html}"
        );
        assert_eq!(
            candidates(Library::FontAwesome, "brands")[0],
            IconSet::FaBrands
        );
        // A Tabler-only name still resolves under Font Awesome.
        let mut files = page(&marked("brand-vercel", Some("solid")));
        let filled = fill(
            &mut files,
            Library::FontAwesome,
            &test_shards(),
            &SourceTree::new(),
        );
        assert_eq!(filled.sets, BTreeSet::from([IconSet::Tabler]));
    }

    #[test]
    fn wanted_shards_cover_every_candidate_set_of_each_name() {
        let files = page(&format!(
            "{}{}",
            marked("rocket", None),
            marked("fa-rocket", Some("brands"))
        ));
        let wanted =
            KnownIcons::default().shards_wanted(&Marked::read(&files), Library::FontAwesome);
        assert_eq!(wanted.len(), IconSet::ALL.len());
        assert!(wanted.iter().all(|s| s.index == shard_of("rocket")));
        assert_eq!(wanted[0].asset_path(), "export-icons/fa-solid/5.txt");
    }

    #[test]
    fn an_unknown_name_is_a_dot_and_a_warning_with_its_line() {
        let tree: SourceTree = [(
            "guides/a.mdx".to_owned(),
            b"---\ntitle: A\n---\n\n<Card title=\"x\" icon=\"no-such-icon\" />\n".to_vec(),
        )]
        .into_iter()
        .collect();
        let mut files = page(&format!(
            "{}{}",
            marked("no-such-icon", None),
            marked("no-such-icon", None)
        ));
        let filled = fill(&mut files, Library::FontAwesome, &test_shards(), &tree);
        let html = String::from_utf8(files.remove(0).bytes).unwrap();
        assert_eq!(html.matches("icon-unknown").count(), 2, "{html}");
        assert_eq!(
            filled.warnings,
            ["guides/a.mdx:5: unknown icon `no-such-icon`: not in Font Awesome Free, Lucide or Tabler; shown as a dot"]
        );
    }

    #[test]
    fn known_icons_answer_later_batches_as_the_shards_did() {
        let page_of =
            |names: &[&str]| page(&names.iter().map(|n| marked(n, None)).collect::<String>());
        let all = test_shards();
        let first = page_of(&["rocket", "no-such-icon"]);
        let mut known = KnownIcons::default();
        let wanted = known.shards_wanted(&Marked::read(&first), Library::FontAwesome);
        assert!(!wanted.is_empty());
        // Only the wanted shards are read; what they say of each name is learnt.
        let mut read = IconShards::default();
        for shard in &wanted {
            if let Some(text) = all.shards.get(shard) {
                read.insert(*shard, text.text.clone());
            }
        }
        known.learn(&Marked::read(&first), Library::FontAwesome, &read);
        assert!(
            known
                .shards_wanted(&Marked::read(&first), Library::FontAwesome)
                .is_empty(),
            "nothing left to read for names met"
        );
        // A later batch with the same names fills as the shards themselves would, reading nothing.
        let (mut from_known, mut from_shards) = (
            page_of(&["rocket", "no-such-icon"]),
            page_of(&["rocket", "no-such-icon"]),
        );
        let filled = fill(
            &mut from_known,
            Library::FontAwesome,
            &known,
            &SourceTree::new(),
        );
        assert_eq!(
            filled,
            fill(
                &mut from_shards,
                Library::FontAwesome,
                &all,
                &SourceTree::new()
            )
        );
        assert_eq!(from_known[0].bytes, from_shards[0].bytes);
        assert!(String::from_utf8_lossy(&from_known[0].bytes).contains("icon-unknown"));
        // A new name asks for its shards again.
        assert!(!known
            .shards_wanted(
                &Marked::read(&page_of(&["x-twitter"])),
                Library::FontAwesome
            )
            .is_empty());
        assert!(known.bytes() > 0);
    }

    #[test]
    fn a_shard_is_searched_by_name_in_any_line_order() {
        // One text under each name's shard id, so every name is looked up in a shard that holds it.
        let mut direct = IconShards::default();
        for name in ["zebra", "alpha", "mid", "no-fields"] {
            let text = "zebra\t0 0 1 1\tpath|d=Z\r\nalpha\t0 0 2 2\tpath|d=A\nno-fields\nmid\t0 0 3 3\tcircle|r=1\ttab";
            direct.insert(
                ShardId {
                    set: IconSet::Lucide,
                    index: shard_of(name),
                },
                text.into(),
            );
        }
        assert_eq!(
            direct.find(IconSet::Lucide, "zebra"),
            Some(("0 0 1 1", "path|d=Z"))
        );
        assert_eq!(
            direct.find(IconSet::Lucide, "alpha"),
            Some(("0 0 2 2", "path|d=A"))
        );
        assert_eq!(
            direct.find(IconSet::Lucide, "mid"),
            Some(("0 0 3 3", "circle|r=1\ttab"))
        );
        assert_eq!(direct.find(IconSet::Lucide, "no-fields"), None);
        assert_eq!(direct.find(IconSet::Lucide, "missing"), None);
    }

    #[test]
    fn shard_lines_outside_the_allow_list_give_the_fallback() {
        let mut shards = IconShards::default();
        let bad = [
            "rocket\t0 0 24 24\tscript|x=1",
            "rocket\t0 0 24 24\tpath|onload=alert(1)",
            "rocket\t0 0 24 24\tpath|d=M0 0\"/><script>",
            "rocket\t0 0 24 24\"><script>\tpath|d=M0 0",
        ];
        for line in bad {
            shards.insert(
                ShardId {
                    set: IconSet::FaSolid,
                    index: shard_of("rocket"),
                },
                format!("{line}\n"),
            );
            let mut files = page(&marked("rocket", Some("solid")));
            fill(
                &mut files,
                Library::FontAwesome,
                &shards,
                &SourceTree::new(),
            );
            let html = String::from_utf8(files.remove(0).bytes).unwrap();
            assert!(
                html.contains("icon-unknown") && !html.contains("script"),
                "{line}: {html}"
            );
        }
    }

    #[test]
    fn names_and_classes_cannot_leave_the_marker() {
        let mut out = String::new();
        marker(
            &mut out,
            "x\"><script>",
            Some("\"'"),
            "icon\" onload=\"x",
            "a\"b.mdx",
        );
        let mut files = page(&out);
        let filled = fill(
            &mut files,
            Library::FontAwesome,
            &test_shards(),
            &SourceTree::new(),
        );
        let html = String::from_utf8(files.remove(0).bytes).unwrap();
        assert!(
            !html.contains("script") && !html.contains("onload=\""),
            "{html}"
        );
        assert_eq!(filled.warnings.len(), 1);
    }
}
