//! The page shell: head (canonical URL, stylesheet, script), header (brand, search, language switch,
//! theme toggle), tab bar, sidebar, title block, body, previous/next links and table of contents.
//! Also the 404 page. Every URL here is relative to the page's file, so the bundle works under any
//! path prefix.

use crate::docs::{Page, Site};

use crate::export::html::{self, attr, element};
use crate::export::page::chrome;
use crate::export::page::extras::PageExtras;
use crate::export::page::page_mode::PageMode;
use crate::export::page::site_look::{self, LookFiles};
use crate::export::page::widget;
use crate::export::render::links::Linker;
use crate::export::render::markdown::Heading;
use crate::export::site::nav::{self, Tab};
use crate::security::turnstile::CHALLENGE_ORIGIN;
use crate::wire::ExportAssistant;

pub(crate) const CSS_FILE: &str = "_static/site.css";
/// The page static hosts serve for a missing path; redirect stubs that lead nowhere lead here.
pub(crate) const NOT_FOUND_FILE: &str = "404.html";
pub(crate) const JS_FILE: &str = "_static/site.js";
pub(crate) const SEARCH_DIR: &str = "_static/search";
/// Contents pages of tabs too large for one sidebar.
pub(crate) const CONTENTS_DIR: &str = "_static/contents";

const SEARCH_BOX: &str = "<div class=\"search\" role=\"search\"><input type=\"search\" class=\"search-input\" placeholder=\"Search\" aria-label=\"Search\" autocomplete=\"off\" disabled><div class=\"search-results\" hidden></div></div>";

/// Sets the theme before the first paint (a flash of the wrong theme otherwise): the reader's
/// remembered choice unless the site is `strict`, else the site's `appearance` default, else the
/// reader's preference. Always set, so `dark:` utilities and the site's rules agree.
const THEME_BOOT: &str = "(function(){var d=document.documentElement,a=d.getAttribute(\"data-appearance\"),t=null;if(!d.hasAttribute(\"data-appearance-strict\"))try{t=localStorage.getItem(\"theme\")}catch(e){}if(t!==\"dark\"&&t!==\"light\")t=a===\"dark\"||a===\"light\"?a:window.matchMedia&&matchMedia(\"(prefers-color-scheme: dark)\").matches?\"dark\":\"light\";d.setAttribute(\"data-theme\",t)})()";

/// The `Content-Security-Policy` the exported pages satisfy: everything from the bundle's own
/// origin, and the one inline script (the theme boot, before first paint) by its hash. The extras
/// widen it only as far as they need: `connect-src` to the beacon's origin, for the playground any
/// http(s) API, since its reader picks the server; the assistant widget (its files are the
/// bundle's own) compiles the SDK's wasm (`'wasm-unsafe-eval'`, never `'unsafe-eval'`) and asks its
/// service, named when it is not the bundle's own server; with Turnstile, it loads Turnstile's
/// script and frame from their origin.
pub fn content_security_policy(extras: &PageExtras) -> String {
    content_security_policy_remote(extras, &[], &[])
}

/// [`content_security_policy`] with `frame-src` for `frames` and `img-src` for `images`, the
/// origins the bundle's click-to-load placeholders name ([`crate::export::render::embeds::frame_origins`],
/// [`crate::export::render::embeds::image_origins`]); none: frames stay `'self'` only, images `'self' data:`.
pub fn content_security_policy_remote(
    extras: &PageExtras,
    frames: &[String],
    images: &[String],
) -> String {
    use sha2::{Digest, Sha256};
    let hash = html::base64_std(&Sha256::digest(THEME_BOOT.as_bytes()));
    let mut connect = String::from("'self'");
    if extras.playground {
        connect.push_str(" https: http:");
    } else {
        let beacon = extras.beacon_endpoint.as_deref().and_then(origin_of);
        let assistant = extras
            .assistant
            .as_ref()
            .and_then(|a| widget::api_origin(&a.api_base));
        let mut origins: Vec<&str> = [beacon, assistant].into_iter().flatten().collect();
        origins.dedup();
        for origin in origins {
            connect.push(' ');
            connect.push_str(origin);
        }
    }
    let wasm = if extras.assistant.is_some() {
        " 'wasm-unsafe-eval'"
    } else {
        ""
    };
    // The widget loads Turnstile's script, which shows its challenge in a frame of the same origin.
    let turnstile = extras
        .assistant
        .as_ref()
        .is_some_and(|a| a.turnstile_site_key.is_some());
    let challenge = if turnstile {
        format!(" {CHALLENGE_ORIGIN}")
    } else {
        String::new()
    };
    let listed = |named: &[String]| -> String {
        named
            .iter()
            .filter_map(|f| origin_of(f).filter(|o| o.len() == f.len()))
            .flat_map(|o| [" ", o])
            .collect()
    };
    let mut frames = listed(frames);
    frames.push_str(&challenge);
    let frame_src = match frames.is_empty() {
        true => String::new(),
        false => format!("; frame-src 'self'{frames}"),
    };
    let images = listed(images);
    format!(
        "default-src 'self'; script-src 'self' 'sha256-{hash}'{wasm}{challenge}; style-src 'self'; img-src 'self' data:{images}; \
         font-src 'self' data:; connect-src {connect}; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'{frame_src}"
    )
}

/// `scheme://host[:port]` of an absolute http(s) URL; `None` for anything else (nothing is added).
fn origin_of(url: &str) -> Option<&str> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let host = &rest[..host_end];
    let plain = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
    plain.then(|| &url[..url.len() - rest.len() + host_end])
}

/// Logo and favicon as files of the bundle (or SVGs inlined as `data:` URLs), when the tree has them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Brand {
    pub(crate) logo_light: Option<String>,
    pub(crate) logo_dark: Option<String>,
    pub(crate) favicon: Option<String>,
    /// Font and background files of the site's look.
    pub(crate) look: LookFiles,
    /// The logos' markup when both are inlined (the same on every page), written once.
    pub(crate) inline_logos: InlineLogos,
}

/// `(site name, markup)` of inlined logos: a base64 `data:` URL of a few KB, escaped for every page,
/// was a twentieth of a large export's rendering. Not part of what a brand is (equal always).
#[derive(Debug, Clone, Default)]
pub(crate) struct InlineLogos(std::sync::OnceLock<(String, String)>);

impl PartialEq for InlineLogos {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for InlineLogos {}

impl Brand {
    /// Bundle files among the images, which the bundle must carry.
    pub(crate) fn files(&self) -> impl Iterator<Item = &String> {
        [&self.logo_light, &self.logo_dark, &self.favicon]
            .into_iter()
            .flatten()
            .chain(self.look.iter())
            .filter(|image| !image.starts_with("data:"))
    }
}

/// The `src`/`href` of a brand image from the page `links` is for.
fn brand_url(links: &Linker<'_>, image: &str) -> String {
    if image.starts_with("data:") {
        image.to_owned()
    } else {
        links.file(image)
    }
}

/// Everything the shell of one page shows.
pub(crate) struct PageView<'a> {
    pub(crate) site: &'a Site,
    pub(crate) page: &'a Page,
    pub(crate) index: usize,
    pub(crate) links: &'a Linker<'a>,
    pub(crate) brand: &'a Brand,
    pub(crate) canonical: String,
    pub(crate) home: Option<&'a str>,
    pub(crate) tabs: &'a [Tab],
    /// The tab of the page ([`nav::current_tab`]).
    pub(crate) tab: Option<usize>,
    /// The contents page of the current tab, when its sidebar cannot list every section.
    pub(crate) contents: Option<String>,
    pub(crate) prev: Option<&'a Page>,
    pub(crate) next: Option<&'a Page>,
    /// Other languages: code and the page to link (its counterpart, else its home).
    pub(crate) languages: Vec<(&'a str, &'a str)>,
    pub(crate) body: &'a str,
    pub(crate) toc: &'a [Heading],
    pub(crate) search: bool,
    /// The page's offline search index (its language's, in its version).
    pub(crate) search_dir: String,
    /// The version switch, or nothing for a site of one version.
    pub(crate) version_switch: String,
    /// The assistant widget's settings, when the export carries it.
    pub(crate) assistant: Option<&'a ExportAssistant>,
    /// The bundle's folder pages, for the widget's links (`widget::folder_pages`).
    pub(crate) widget_folders: &'a str,
    /// docs.json's support link, for the widget's tag.
    pub(crate) widget_support: Option<&'a str>,
    pub(crate) domain: &'a str,
    /// The page's `mode` layout.
    pub(crate) mode: PageMode,
    /// The page's own stylesheet (its utility classes and `style` props), relative to the page.
    pub(crate) stylesheet: Option<String>,
}

pub(crate) fn page_html(v: &PageView<'_>) -> String {
    let mut out = String::with_capacity(v.body.len() + 16 * 1024);
    let title = if v.site.name.is_empty() || v.site.name == v.page.title {
        v.page.title.clone()
    } else {
        format!("{} - {}", v.page.title, v.site.name)
    };
    head(&mut out, v, &title);
    out.push_str("<body");
    attr(&mut out, "data-root", &v.links.file(""));
    if v.search {
        attr(&mut out, "data-search", &v.links.file(&v.search_dir));
    }
    out.push('>');
    out.push_str("<a class=\"skip\" href=\"#content\">Skip to content</a>");
    chrome::banner(&mut out, v.site, v.links);
    header(&mut out, v);
    let current_tab = v.tab;
    nav::tabs_html(&mut out, v.tabs, current_tab, v.site, v.links);
    // A page of no tab (hidden, its folder shared by several) marks none, but the sidebar still
    // offers the first tab's sections.
    let sidebar_tab = current_tab.unwrap_or(0);
    out.push_str("<div");
    attr(&mut out, "class", v.mode.class());
    out.push('>');
    if v.mode.sidebar() {
        out.push_str("<aside class=\"sidebar\" id=\"sidebar\" aria-label=\"Navigation\">");
        if !v.page.hidden || v.tabs.get(sidebar_tab).is_some() {
            nav::sidebar_html(
                &mut out,
                v.tabs.get(sidebar_tab),
                v.index,
                v.site,
                v.links,
                v.contents.as_deref(),
            );
        }
        out.push_str("</aside>");
    }
    out.push_str("<main class=\"content\" id=\"content\"><article>");
    if v.mode.furniture() {
        title_block(&mut out, v.page);
        out.push_str("<div class=\"prose\">");
    } else {
        // Custom layouts style their own text; the title is still the page's heading for readers
        // of assistive technology when the body has none.
        if !v.body.contains("<h1") {
            element(&mut out, "h1", "visually-hidden", &v.page.title);
        }
        out.push_str("<div class=\"custom-body\">");
    }
    out.push_str(v.body);
    out.push_str("</div>");
    if v.mode.furniture() {
        pager(&mut out, v);
    }
    out.push_str("</article>");
    if v.mode.footer() {
        out.push_str("<footer class=\"site-footer\">");
        chrome::footer(&mut out, v.site, v.links);
        out.push_str("</footer>");
    }
    out.push_str("</main>");
    if v.mode.toc() {
        toc(&mut out, v.toc);
    }
    out.push_str("</div></body></html>\n");
    out
}

fn head(out: &mut String, v: &PageView<'_>, title: &str) {
    out.push_str("<!DOCTYPE html><html");
    attr(out, "lang", &v.page.language);
    site_look::html_attrs(out, &v.site.config);
    out.push_str("><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    element(out, "title", "", title);
    if let Some(description) = &v.page.description {
        out.push_str("<meta name=\"description\"");
        attr(out, "content", description);
        out.push('>');
    }
    out.push_str("<link rel=\"canonical\"");
    attr(out, "href", &v.canonical);
    out.push('>');
    if v.page.hidden {
        out.push_str("<meta name=\"robots\" content=\"noindex\">");
    }
    shared_head(out, v.links, v.brand);
    if let Some(stylesheet) = &v.stylesheet {
        // After site.css, so that the page's utilities win over the site's rules of equal weight.
        out.push_str("<link rel=\"stylesheet\"");
        attr(out, "href", stylesheet);
        out.push('>');
    }
    if let Some(assistant) = v.assistant {
        widget::script_tag(
            out,
            assistant,
            v.domain,
            (v.widget_folders, v.widget_support),
            v.links,
        );
    }
    out.push_str("</head>");
}

/// Favicon, stylesheet, theme boot and script: the part of `<head>` every page shares.
fn shared_head(out: &mut String, links: &Linker<'_>, brand: &Brand) {
    if let Some(favicon) = &brand.favicon {
        out.push_str("<link rel=\"icon\"");
        attr(out, "href", &brand_url(links, favicon));
        out.push('>');
    }
    out.push_str("<link rel=\"stylesheet\"");
    attr(out, "href", &links.file(CSS_FILE));
    out.push_str("><script>");
    out.push_str(THEME_BOOT);
    out.push_str("</script><script defer");
    attr(out, "src", &links.file(JS_FILE));
    out.push_str("></script>");
}

fn header(out: &mut String, v: &PageView<'_>) {
    out.push_str("<header class=\"topbar\">");
    out.push_str("<button type=\"button\" class=\"menu-toggle\" aria-controls=\"sidebar\" aria-label=\"Menu\">&#9776;</button>");
    brand(out, v.site, v.links, v.brand, v.home);
    if v.search {
        out.push_str(SEARCH_BOX);
    }
    chrome::navbar(out, v.site, v.links);
    if !v.languages.is_empty() {
        out.push_str("<details class=\"lang-switch\"><summary>");
        html::text(out, language_name(&v.page.language));
        out.push_str("</summary><ul>");
        for (code, path) in &v.languages {
            out.push_str("<li><a");
            attr(out, "href", &v.links.page(path));
            attr(out, "hreflang", code);
            attr(out, "lang", code);
            out.push('>');
            html::text(out, language_name(code));
            out.push_str("</a></li>");
        }
        out.push_str("</ul></details>");
    }
    out.push_str(&v.version_switch);
    if site_look::toggle(&v.site.config) {
        out.push_str("<button type=\"button\" class=\"theme-toggle\" aria-label=\"Toggle dark mode\">&#9680;</button>");
    }
    out.push_str("</header>");
}

fn brand(out: &mut String, site: &Site, links: &Linker<'_>, brand: &Brand, home: Option<&str>) {
    out.push_str("<a class=\"brand\"");
    attr(out, "href", &links.page(home.unwrap_or("index")));
    out.push('>');
    let light = brand.logo_light.as_ref().or(brand.logo_dark.as_ref());
    let dark = brand.logo_dark.as_ref().or(brand.logo_light.as_ref());
    match (light, dark) {
        (Some(light), Some(dark)) if light.starts_with("data:") && dark.starts_with("data:") => {
            let (name, markup) = brand.inline_logos.0.get_or_init(|| {
                let mut markup = String::new();
                logos(&mut markup, site, links, light, dark);
                (site.name.clone(), markup)
            });
            match *name == site.name {
                true => out.push_str(markup),
                false => logos(out, site, links, light, dark),
            }
        }
        (Some(light), Some(dark)) => logos(out, site, links, light, dark),
        _ => element(out, "span", "brand-name", &site.name),
    }
    out.push_str("</a>");
}

fn logos(out: &mut String, site: &Site, links: &Linker<'_>, light: &str, dark: &str) {
    for (file, class) in [(light, "logo logo-light"), (dark, "logo logo-dark")] {
        out.push_str("<img");
        attr(out, "class", class);
        attr(out, "src", &brand_url(links, file));
        attr(out, "alt", &site.name);
        out.push('>');
    }
}

fn title_block(out: &mut String, page: &Page) {
    out.push_str("<header class=\"page-header\">");
    if let Some(group) = page.groups.last() {
        element(out, "p", "eyebrow", group);
    }
    element(out, "h1", "", &page.title);
    // A generated API page's description is its operation's Markdown, which the reference section
    // renders (`openapi`); here it would be raw text, and said twice.
    if let Some(description) = page.description.as_ref().filter(|_| !page.is_generated()) {
        element(out, "p", "description", description);
    }
    out.push_str("</header>");
}

fn pager(out: &mut String, v: &PageView<'_>) {
    if v.prev.is_none() && v.next.is_none() {
        return;
    }
    out.push_str("<nav class=\"pager\" aria-label=\"Previous and next\">");
    for (page, class, label) in [
        (v.prev, "pager-prev", "Previous"),
        (v.next, "pager-next", "Next"),
    ] {
        let Some(page) = page else {
            out.push_str("<span></span>");
            continue;
        };
        out.push_str("<a");
        attr(out, "class", class);
        attr(out, "href", &v.links.page(&page.path));
        attr(
            out,
            "rel",
            if class == "pager-prev" {
                "prev"
            } else {
                "next"
            },
        );
        out.push('>');
        element(out, "span", "pager-label", label);
        element(
            out,
            "span",
            "pager-title",
            page.sidebar_title.as_deref().unwrap_or(&page.title),
        );
        out.push_str("</a>");
    }
    out.push_str("</nav>");
}

fn toc(out: &mut String, headings: &[Heading]) {
    out.push_str("<aside class=\"toc\" aria-label=\"Table of contents\">");
    let shown: Vec<&Heading> = headings
        .iter()
        .filter(|h| (2..=3).contains(&h.level))
        .collect();
    if !shown.is_empty() {
        out.push_str("<nav aria-label=\"On this page\">");
        element(out, "p", "toc-title", "On this page");
        out.push_str("<ul>");
        for h in shown {
            out.push_str("<li");
            attr(out, "class", if h.level == 2 { "toc-2" } else { "toc-3" });
            out.push_str("><a");
            attr(out, "href", &format!("#{}", h.anchor));
            out.push('>');
            html::text(out, &h.text);
            out.push_str("</a></li>");
        }
        out.push_str("</ul></nav>");
    }
    out.push_str("</aside>");
}

/// `404.html` at the bundle root. Static hosts serve it for any missing path, so it links home
/// both relatively (served at the root) and by the absolute site URL.
pub(crate) fn not_found_html(
    site: &Site,
    links: &Linker<'_>,
    brand: &Brand,
    home_url: &str,
) -> String {
    let mut out = String::new();
    out.push_str("<!DOCTYPE html><html lang=\"en\"");
    site_look::html_attrs(&mut out, &site.config);
    out.push_str("><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"robots\" content=\"noindex\">");
    element(
        &mut out,
        "title",
        "",
        &format!("Page not found - {}", site.name),
    );
    shared_head(&mut out, links, brand);
    out.push_str("</head><body><header class=\"topbar\">");
    self::brand(&mut out, site, links, brand, None);
    out.push_str("</header><main class=\"content not-found\" id=\"content\">");
    element(&mut out, "h1", "", "Page not found");
    out.push_str("<p>The page you are looking for does not exist. ");
    out.push_str("<a");
    attr(&mut out, "href", &links.page("index"));
    out.push_str(">Go to the home page</a> or <a");
    attr(&mut out, "href", home_url);
    out.push_str(">the site</a>.</p></main></body></html>\n");
    out
}

/// The contents page of one tab (`_static/contents/…`): every section and page of the tab, for
/// readers of a tab whose sidebars list only the neighbouring sections.
pub(crate) fn contents_page_html(
    site: &Site,
    tab: &Tab,
    language: &str,
    links: &Linker<'_>,
    brand: &Brand,
    home: Option<&str>,
) -> String {
    let label = if tab.label.is_empty() {
        "Docs"
    } else {
        &tab.label
    };
    let mut out = String::new();
    out.push_str("<!DOCTYPE html><html");
    attr(&mut out, "lang", language);
    site_look::html_attrs(&mut out, &site.config);
    out.push_str("><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"robots\" content=\"noindex\">");
    element(&mut out, "title", "", &format!("{label} - {}", site.name));
    shared_head(&mut out, links, brand);
    out.push_str("</head><body><header class=\"topbar\">");
    self::brand(&mut out, site, links, brand, home);
    out.push_str("</header><main class=\"content contents-page\" id=\"content\">");
    element(&mut out, "h1", "", label);
    nav::contents_html(&mut out, tab, site, links);
    out.push_str("</main></body></html>\n");
    out
}

/// Names of common languages in their own language, for the switch.
pub(crate) fn language_name(code: &str) -> &str {
    match code {
        "en" => "English",
        "es" => "Espa\u{f1}ol",
        "fr" => "Fran\u{e7}ais",
        "de" => "Deutsch",
        "it" => "Italiano",
        "pt" | "pt-BR" => "Portugu\u{ea}s",
        "ja" | "jp" => "\u{65e5}\u{672c}\u{8a9e}",
        "ko" => "\u{d55c}\u{ad6d}\u{c5b4}",
        "zh" | "cn" | "zh-Hans" => "\u{4e2d}\u{6587}",
        "zh-Hant" => "\u{7e41}\u{9ad4}\u{4e2d}\u{6587}",
        "ru" => "\u{420}\u{443}\u{441}\u{441}\u{43a}\u{438}\u{439}",
        "nl" => "Nederlands",
        "id" => "Bahasa Indonesia",
        "tr" => "T\u{fc}rk\u{e7}e",
        "ar" => "\u{627}\u{644}\u{639}\u{631}\u{628}\u{64a}\u{629}",
        "sv" => "Svenska",
        other => other,
    }
}
