//! The export's own stylesheets and scripts, the files in `static/`. The native builds embed them
//! (feature `embedded-static`); the worker leaves them out of its wasm module, where they cost about
//! 10 KiB gzipped in every isolate, and reads them from its static assets when a job finishes.

const STATIC_COUNT: usize = 9;

/// The texts of the files in `static/`.
#[derive(Debug, Clone, Copy)]
pub struct StaticFiles<'a> {
    pub site_css: &'a str,
    pub site_js: &'a str,
    pub playground_css: &'a str,
    pub playground_js: &'a str,
    pub beacon_js: &'a str,
    /// The header links, footer, banner and icons (`chrome`), appended to `site.css`.
    pub chrome_css: &'a str,
    /// The banner's dismissal, appended to `site.js`.
    pub chrome_js: &'a str,
    /// API pages' two columns (`api_page`), appended to `site.css`.
    pub api_css: &'a str,
    /// Page modes, sidebar icons and tags, accessibility (`page_mode`, `site_look`), appended to
    /// `site.css` after `chrome.css`.
    pub layout_css: &'a str,
}

impl<'a> StaticFiles<'a> {
    /// The file names in `static/`, in the order `from_texts` takes their texts.
    pub const NAMES: [&'static str; STATIC_COUNT] = [
        "site.css",
        "site.js",
        "playground.css",
        "playground.js",
        "beacon.js",
        "chrome.css",
        "chrome.js",
        "api.css",
        "layout.css",
    ];
    /// How many files `static/` holds.
    pub const COUNT: usize = STATIC_COUNT;

    /// The texts of the files named by `NAMES`, in that order.
    pub fn from_texts(texts: &'a [String; STATIC_COUNT]) -> Self {
        let [site_css, site_js, playground_css, playground_js, beacon_js, chrome_css, chrome_js, api_css, layout_css] =
            texts;
        StaticFiles {
            site_css,
            site_js,
            playground_css,
            playground_js,
            beacon_js,
            chrome_css,
            chrome_js,
            api_css,
            layout_css,
        }
    }
}

#[cfg(feature = "embedded-static")]
impl StaticFiles<'static> {
    /// The files compiled into this build.
    pub const EMBEDDED: StaticFiles<'static> = StaticFiles {
        site_css: include_str!("../static/site.css"),
        site_js: include_str!("../static/site.js"),
        playground_css: include_str!("../static/playground.css"),
        playground_js: include_str!("../static/playground.js"),
        beacon_js: include_str!("../static/beacon.js"),
        chrome_css: include_str!("../static/chrome.css"),
        chrome_js: include_str!("../static/chrome.js"),
        api_css: include_str!("../static/api.css"),
        layout_css: include_str!("../static/layout.css"),
    };
}

#[cfg(test)]
mod tests {
    use super::StaticFiles;

    #[test]
    fn names_are_the_files_of_the_static_folder() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/export/static");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        on_disk.sort();
        let mut named: Vec<&str> = StaticFiles::NAMES.to_vec();
        named.sort();
        assert_eq!(on_disk, named);
        let texts = StaticFiles::NAMES
            .map(|name| std::fs::read_to_string(format!("{dir}/{name}")).unwrap());
        let read = StaticFiles::from_texts(&texts);
        let embedded = StaticFiles::EMBEDDED;
        assert_eq!(read.site_css, embedded.site_css);
        assert_eq!(read.site_js, embedded.site_js);
        assert_eq!(read.playground_css, embedded.playground_css);
        assert_eq!(read.playground_js, embedded.playground_js);
        assert_eq!(read.beacon_js, embedded.beacon_js);
        assert_eq!(read.chrome_css, embedded.chrome_css);
        assert_eq!(read.chrome_js, embedded.chrome_js);
        assert_eq!(read.api_css, embedded.api_css);
        assert_eq!(read.layout_css, embedded.layout_css);
    }
}
